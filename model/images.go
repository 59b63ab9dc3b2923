package model

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/composer"
	"tandem/ui"
)

// Images as the turn machine sees them: a prompt's image chips
// (model/composer) become the turn's input, a local file is first copied
// to a remote app-server, and the model must take images (model/list's
// inputModalities, asked once per session).

// itemImages are the transcript's lines for a userMessage item's images
// (paths on the server's machine or image URLs): their names.
func itemImages(refs []string) []string {
	if len(refs) == 0 {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = ui.ImageLabel(r, -1)
	}
	return out
}

// imageUpload is a local file to copy to the app-server's machine before
// a turn that sends it (a remote session).
type imageUpload struct{ local, server string }

// turnInput builds the input of a prompt with its chips: the text, and
// each image as the app-server reads it — its own path, a local path of
// a local session, or where uploads puts a local file on a remote one —
// and the cell's attachment lines.
func (m *Model) turnInput(s string) (in backend.TurnInput, ups []imageUpload, shown []string) {
	text, ims := m.composer.Resolve(s)
	in = backend.TurnInput{Text: text}
	for _, im := range ims {
		p := im.Server
		if p == "" {
			p = im.Local
			if m.remote() {
				p = backend.RemoteImagePath(m.panes.Cwd(), im.Local)
				ups = append(ups, imageUpload{local: im.Local, server: p})
			}
		}
		in.Images = append(in.Images, p)
	}
	return in, ups, composer.Shown(ims)
}

// uploadImages copies ups to the app-server's machine (fs/writeFile),
// from a command: the first failure stops it.
func uploadImages(ctx context.Context, c backend.Client, ups []imageUpload) error {
	for _, u := range ups {
		if err := backend.UploadImage(ctx, c, u.local, u.server); err != nil {
			return fmt.Errorf("copying the image to the app-server: %w", err)
		}
	}
	return nil
}

// remote reports whether the app-server runs on another machine than
// this viewer's (--ssh, --remote, or a guest of tandem serve; not the
// local daemon): pasted paths are then the server's and are sent as they
// are, and local files are copied there first.
func (m *Model) remote() bool {
	return m.opts.Guest || (m.stat.Info().Peer != "" && !backend.LocalPeer(m.stat.Info().Peer))
}

// imageState is what the model knows of image inputs: which models take
// them (model/list inputModalities), asked once per session.
type imageState struct {
	takes    map[string]bool // model or id → takes images
	listed   bool            // model/list answered (or failed: then nothing is known)
	fetching bool
	// waiting is the draft whose Enter waits for model/list; it is sent
	// when the answer allows, if the draft is still the same. heldWaits:
	// the command line's prompt (with -i images) waits for it too.
	waiting   string
	heldWaits bool
}

// imageModelsMsg is the model/list answer asked for because of images.
type imageModelsMsg struct {
	models []backend.ModelInfo
	err    error
}

// currentModel is the model the next turn runs with.
func (m *Model) currentModel() string {
	if m.turn.overrides.Model != "" {
		return m.turn.overrides.Model
	}
	return m.stat.Info().Model
}

// fetchModels asks model/list which models take images, once.
func (m *Model) fetchModels() tea.Cmd {
	c := m.client
	if c == nil || m.images.listed || m.images.fetching {
		return nil
	}
	m.images.fetching = true
	return callCmd(func(ctx context.Context) tea.Msg {
		models, err := c.ListModels(ctx)
		return imageModelsMsg{models: models, err: err}
	})
}

func (m *Model) onImageModels(msg imageModelsMsg) tea.Cmd {
	m.images.fetching, m.images.listed = false, true
	m.images.takes = map[string]bool{}
	for _, mi := range msg.models {
		m.images.takes[mi.Model] = mi.TakesImages()
		if mi.ID != "" {
			m.images.takes[mi.ID] = mi.TakesImages()
		}
	}
	w := m.images.waiting
	m.images.waiting = ""
	if m.noticeKindNow() == noticeImageCheck {
		m.clearNotice()
	}
	var cmds []tea.Cmd
	if m.images.heldWaits {
		m.images.heldWaits = false
		cmds = append(cmds, m.releasePrompt())
	}
	if w != "" && w == m.composer.Value() {
		cmds = append(cmds, m.onEnter(m.composer.Submission()))
	}
	return tea.Batch(cmds...)
}

// noImages is the notice for a model that takes no image input.
func noImages(model string) string {
	return model + " does not take images — remove the image (Backspace after it) or choose another /model; your message stays here"
}

// imagesRefused is Enter's check of a draft with image chips: the
// current model must take images. When it is not known yet, model/list
// is asked and the draft waits (cmd); when the list can't tell (an
// unknown model, a failed call), the images are sent and the server
// decides. refused keeps the draft in the composer.
func (m *Model) imagesRefused(text string) (cmd tea.Cmd, refused bool) {
	if !m.composer.HasImage(text) {
		return nil, false
	}
	model := m.currentModel()
	if !m.images.listed {
		m.images.waiting = m.composer.Value()
		m.setNotice(noticeImageCheck, "checking that "+model+" takes images…")
		return m.fetchModels(), true
	}
	if takes, known := m.images.takes[model]; known && !takes {
		m.setNotice(noticeInfo, noImages(model))
		return nil, true
	}
	return nil, false
}

// imagesBlocked reports whether a prompt sent without Enter (the queue,
// the command line's prompt) holds images the current model is known not
// to take; it then comes back to the composer with a notice.
func (m *Model) imagesBlocked(text string) bool {
	if !m.composer.HasImage(text) {
		return false
	}
	model := m.currentModel()
	if takes, known := m.images.takes[model]; known && !takes {
		m.composer.RestoreDraft(text)
		m.setNotice(noticeInfo, noImages(model))
		return true
	}
	return false
}

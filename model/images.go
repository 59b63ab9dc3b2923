package model

import (
	"context"
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/ui"
)

// An attached image is a chip in the composer: a placeholder token like a
// large paste's (paste.go), "[image 1 · shot.png · 240 KB]", kept in
// composer.pastes with its image set. Backspace after it removes it
// (backspacePlaceholder), Prune drops it once no draft, queued prompt or
// history entry holds it, and a sent prompt's chips become the turn's
// "localImage" inputs (Resolve), in the order they appear.

// imageChip is the image behind a chip token.
type imageChip struct {
	// local is a file on this machine (-i, a pasted path of a local
	// session, a clipboard image); server a path on a remote app-server's
	// machine, pasted as such. Exactly one is set. A local file sent to a
	// remote app-server is first copied there (fs/writeFile, uploadImages).
	local, server string
	// name, when set, names it instead of the file's base name
	// ("clipboard image"); shown is how the transcript names it:
	// "shot.png · 240 KB".
	name, shown string
	// sent pins the chip once a prompt holding it left the composer: the
	// prompt may come back (a failed turn/start) with the token in it.
	sent bool
}

// imagesNotSaved notes, in the state file, a history entry whose image
// chips are not kept across runs.
const imagesNotSaved = "[attached images not saved in history]"

// addImage keeps an image and returns its chip token; size < 0 is unknown.
func (c *composer) addImage(im imageChip, size int64) string {
	c.imageSeq++
	ref := im.local
	if ref == "" {
		ref = im.server
	}
	if im.name != "" {
		ref = im.name
	}
	im.shown = ui.SanitizeLine(ui.ImageLabel(ref, size))
	label := fmt.Sprintf("[image %d · %s]", c.imageSeq, im.shown)
	c.pastes = append(c.pastes, pastedText{label: label, image: &im})
	return label
}

// attachImages inserts chips for ims at the cursor (chips).
func (c *composer) attachImages(ims []imageChip, sizes []int64) {
	c.InsertString(c.chips(ims, sizes))
}

// chips keeps ims (sizes < 0 unknown) and returns their tokens, a space
// after each.
func (c *composer) chips(ims []imageChip, sizes []int64) string {
	var b strings.Builder
	for i, im := range ims {
		b.WriteString(c.addImage(im, sizes[i]))
		b.WriteByte(' ')
	}
	return b.String()
}

// hasImage reports whether s holds a live image chip.
func (c *composer) hasImage(s string) bool {
	for _, p := range c.pastes {
		if p.image != nil && strings.Contains(s, p.label) {
			return true
		}
	}
	return false
}

// Resolve splits a prompt (pastes already expanded, Expand) into its text
// without the image chips and the chips' images in the order they
// appear. The text is trimmed when it held chips. Each image found is
// pinned (sent), so the prompt can come back to the composer whole.
func (c *composer) Resolve(s string) (text string, images []*imageChip) {
	text, images = c.stripImages(s)
	for _, im := range images {
		im.sent = true
	}
	return text, images
}

// stripImages is Resolve without pinning.
func (c *composer) stripImages(s string) (text string, images []*imageChip) {
	type at struct {
		i  int
		im *imageChip
	}
	var found []at
	for _, p := range c.pastes {
		if p.image == nil {
			continue
		}
		if i := strings.Index(s, p.label); i >= 0 {
			found = append(found, at{i, p.image})
			s = strings.ReplaceAll(strings.ReplaceAll(s, p.label+" ", ""), p.label, "")
		}
	}
	if len(found) == 0 {
		return s, nil
	}
	sort.SliceStable(found, func(a, b int) bool { return found[a].i < found[b].i })
	for _, f := range found {
		images = append(images, f.im)
	}
	return strings.TrimSpace(s), images
}

// shownImages are the transcript's lines for images (UserCell.Images).
func shownImages(ims []*imageChip) []string {
	out := make([]string, len(ims))
	for i, im := range ims {
		out[i] = im.shown
	}
	return out
}

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
		p := im.server
		if p == "" {
			p = im.local
			if m.remote() {
				p = backend.RemoteImagePath(m.panes.Cwd(), im.local)
				ups = append(ups, imageUpload{local: im.local, server: p})
			}
		}
		in.Images = append(in.Images, p)
	}
	return in, ups, shownImages(ims)
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
		cmds = append(cmds, m.onEnter())
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
	if !m.composer.hasImage(text) {
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
	if !m.composer.hasImage(text) {
		return false
	}
	model := m.currentModel()
	if takes, known := m.images.takes[model]; known && !takes {
		m.restoreDraft(text)
		m.setNotice(noticeInfo, noImages(model))
		return true
	}
	return false
}

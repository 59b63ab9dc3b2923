package turn

import (
	"tandem/backend"
	"tandem/model/act"
)

// Images as the turn machine sees them: a prompt's image chips (the
// composer's) become the turn's input, a local file is first copied to a
// remote app-server, and the model must take images (model/list's
// inputModalities, asked once per session).

// turnInput builds the input of a prompt with its chips: the text, and
// each image as the app-server reads it — its own path, a local path of
// a local session, or where uploads puts a local file on a remote one —
// and the cell's attachment lines.
func (t *Turns) turnInput(s string) (in backend.TurnInput, ups []act.Upload, shown []string) {
	text, ims := t.w.Resolve(s)
	in = backend.TurnInput{Text: text}
	for _, im := range ims {
		p := im.Server
		if p == "" {
			p = im.Local
			if t.Remote() {
				p = backend.RemoteImagePath(t.w.ThreadCwd(), im.Local)
				ups = append(ups, act.Upload{Local: im.Local, Server: p})
			}
		}
		in.Images = append(in.Images, p)
	}
	return in, ups, shownImages(ims)
}

// shownImages are the transcript's lines for images (ui.UserCell.Images).
func shownImages(ims []Image) []string {
	out := make([]string, len(ims))
	for i, im := range ims {
		out[i] = im.Shown
	}
	return out
}

// Remote reports whether the app-server runs on another machine than
// this viewer's (--ssh, --remote, or a guest of tandem serve; not the
// local daemon): pasted paths are then the server's and are sent as they
// are, and local files are copied there first.
func (t *Turns) Remote() bool {
	peer := t.w.Peer()
	return t.env.Role.Guest() || (peer != "" && !backend.LocalPeer(peer))
}

// imageState is what the turn machine knows of image inputs: which
// models take them (model/list inputModalities), asked once per session.
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

// currentModel is the model the next turn runs with.
func (t *Turns) currentModel() string {
	if t.t.overrides.Model != "" {
		return t.t.overrides.Model
	}
	return t.model
}

// fetchModels asks model/list which models take images, once.
func (t *Turns) fetchModels() {
	if t.client == nil || t.images.listed || t.images.fetching {
		return
	}
	t.images.fetching = true
	t.out().Call(act.ToTurn, act.ListModels{})
}

func (t *Turns) onImageModels(msg act.ModelsListed) {
	t.images.fetching, t.images.listed = false, true
	t.images.takes = map[string]bool{}
	for _, mi := range msg.Models {
		t.images.takes[mi.Model] = mi.TakesImages()
		if mi.ID != "" {
			t.images.takes[mi.ID] = mi.TakesImages()
		}
	}
	w := t.images.waiting
	t.images.waiting = ""
	t.out().Clear(act.NoticeImageCheck)
	if t.images.heldWaits {
		t.images.heldWaits = false
		t.releasePrompt()
	}
	if w != "" && w == t.w.Draft() {
		t.Enter(t.w.Submission())
	}
}

// noImages is the notice for a model that takes no image input.
func noImages(model string) string {
	return model + " does not take images — remove the image (Backspace after it) or choose another /model; your message stays here"
}

// imagesRefused is Enter's check of a draft with image chips: the
// current model must take images. When it is not known yet, model/list
// is asked and the draft waits; when the list can't tell (an unknown
// model, a failed call), the images are sent and the server decides.
// refused keeps the draft in the composer.
func (t *Turns) imagesRefused(text string) (refused bool) {
	if !t.w.HasImage(text) {
		return false
	}
	model := t.currentModel()
	if !t.images.listed {
		t.images.waiting = t.w.Draft()
		t.notice(act.NoticeImageCheck, "checking that "+model+" takes images…")
		t.fetchModels()
		return true
	}
	if takes, known := t.images.takes[model]; known && !takes {
		t.notice(act.NoticeInfo, noImages(model))
		return true
	}
	return false
}

// imagesBlocked reports whether a prompt sent without Enter (the queue,
// the command line's prompt) holds images the current model is known not
// to take; it then comes back to the composer with a notice.
func (t *Turns) imagesBlocked(text string) bool {
	if !t.w.HasImage(text) {
		return false
	}
	model := t.currentModel()
	if takes, known := t.images.takes[model]; known && !takes {
		t.out().Want(act.RestoreDraft{Text: text})
		t.notice(act.NoticeInfo, noImages(model))
		return true
	}
	return false
}

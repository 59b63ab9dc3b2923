package composer

import (
	"fmt"
	"os"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/ui"
)

// An attached image is a chip in the composer: a placeholder token like a
// large paste's (paste.go), "[image 1 · shot.png · 240 KB]", kept in
// pastes with its image set. Backspace after it removes it
// (backspacePlaceholder), Prune drops it once no draft, queued prompt or
// history entry holds it, and a sent prompt's chips become the turn's
// images (Resolve), in the order they appear.

// Image is the image behind a chip.
type Image struct {
	// Local is a file on this machine (-i, a pasted path of a local
	// session, a clipboard image); Server a path on a remote app-server's
	// machine, pasted as such. Exactly one is set. A local file sent to a
	// remote app-server is first copied there.
	Local, Server string
	// Name, when set, names it instead of the file's base name
	// ("clipboard image"); Shown is how the transcript names it:
	// "shot.png · 240 KB".
	Name, Shown string
	// sent pins the chip once a prompt holding it left the composer: the
	// prompt may come back (a failed turn/start) with the token in it.
	sent bool
}

// ImagesNotSaved notes, in the state file, a history entry whose image
// chips are not kept across runs.
const ImagesNotSaved = "[attached images not saved in history]"

// addImage keeps an image and returns its chip token; size < 0 is
// unknown.
func (c *Composer) addImage(im Image, size int64) string {
	c.imageSeq++
	ref := im.Local
	if ref == "" {
		ref = im.Server
	}
	if im.Name != "" {
		ref = im.Name
	}
	im.Shown = ui.SanitizeLine(ui.ImageLabel(ref, size))
	label := fmt.Sprintf("[image %d · %s]", c.imageSeq, im.Shown)
	c.pastes = append(c.pastes, pasted{label: label, image: &im})
	return label
}

// attachImages inserts chips for ims at the cursor (chips).
func (c *Composer) attachImages(ims []Image, sizes []int64) {
	c.insert(c.chips(ims, sizes))
}

// chips keeps ims (sizes < 0 unknown) and returns their tokens, a space
// after each.
func (c *Composer) chips(ims []Image, sizes []int64) string {
	var b strings.Builder
	for i, im := range ims {
		b.WriteString(c.addImage(im, sizes[i]))
		b.WriteByte(' ')
	}
	return b.String()
}

// HasImage reports whether s holds a live image chip.
func (c *Composer) HasImage(s string) bool {
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
// pinned, so the prompt can come back to the composer whole.
func (c *Composer) Resolve(s string) (text string, images []Image) {
	text, ims := c.stripImages(s)
	for _, im := range ims {
		im.sent = true
		images = append(images, *im)
	}
	return text, images
}

// StripImages is Resolve without pinning.
func (c *Composer) StripImages(s string) (text string, images []Image) {
	text, ims := c.stripImages(s)
	for _, im := range ims {
		images = append(images, *im)
	}
	return text, images
}

// stripImages is StripImages, with the composer's own images.
func (c *Composer) stripImages(s string) (text string, images []*Image) {
	type at struct {
		i  int
		im *Image
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

// Shown are the transcript's lines for images (ui.UserCell.Images).
func Shown(ims []Image) []string {
	out := make([]string, len(ims))
	for i, im := range ims {
		out[i] = im.Shown
	}
	return out
}

// AttachStart makes chips of the command line's -i images (absolute
// local files, checked by the command line): they lead prompt, the
// command line's prompt, which AttachStart returns; when there is none
// they start the draft. They are pinned: the prompt waits outside the
// composer until the session is ready.
func (c *Composer) AttachStart(paths []string, prompt string) string {
	var b strings.Builder
	for _, p := range paths {
		size := int64(-1)
		if st, err := os.Stat(p); err == nil {
			size = st.Size()
		}
		b.WriteString(c.addImage(Image{Local: p, sent: true}, size))
		b.WriteByte(' ')
	}
	if prompt != "" {
		return b.String() + prompt
	}
	c.insert(b.String())
	return ""
}

// imagePasteMsg is the outcome of checking a paste of image paths (a
// local session): the images to attach as chips in place of the pasted
// text (put in the draft at byte offset at), or err, why not — the
// paste then stays the text it is.
type imagePasteMsg struct {
	text  string
	at    int
	ims   []Image
	sizes []int64
	err   error
}

func (imagePasteMsg) composerMsg() {}

// pasteImages takes a paste that is entirely image paths (pastedPaths;
// terminals paste dropped files so): ok says it did. On a local session
// the paste goes in as text at once, each file is checked in a command
// (it is I/O), and imagePasteMsg turns the text into chips where it
// stands, keys typed meanwhile kept; on a remote one the paths are the
// server's, chips at once, sent as they are without a look (relative
// ones taken from the thread's workspace).
func (c *Composer) pasteImages(text string) (ok bool) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	if isLargePaste(text) {
		return false
	}
	paths, ok := pastedPaths(text)
	if !ok {
		return false
	}
	if f := c.facts(); f.Remote {
		ims := make([]Image, 0, len(paths))
		sizes := make([]int64, 0, len(paths))
		for _, p := range paths {
			sp, ok := serverPath(p, f.ThreadCwd)
			if !ok {
				c.pasteText(text)
				c.out().Notice(act.NoticeInfo, "not attached: "+p+" — the app-server runs on another machine: paste an absolute path there")
				return true
			}
			ims = append(ims, Image{Server: sp})
			sizes = append(sizes, -1)
		}
		c.attachImages(ims, sizes)
		c.out().Notice(act.NoticeInfo, attachedNotice(len(ims))+" (paths on the app-server's machine)")
		c.out().Want(act.CheckImages{})
		return true
	}
	dir := c.opts.Workspace
	at := c.buf.Offset()
	c.insert(text)
	c.out().Cmd(func() tea.Msg {
		msg := imagePasteMsg{text: text, at: at}
		for _, p := range paths {
			abs, size, err := CheckImageFile(localPath(p, dir), dir)
			if err != nil {
				msg.err = err
				return msg
			}
			msg.ims = append(msg.ims, Image{Local: abs})
			msg.sizes = append(msg.sizes, size)
		}
		return msg
	})
	return true
}

// onImagePaste attaches the checked images, or leaves the paste as text
// and says why it is not attached.
func (c *Composer) onImagePaste(msg imagePasteMsg) {
	if msg.err != nil {
		c.out().Notice(act.NoticeInfo, "not attached, kept as text: "+msg.err.Error())
		return
	}
	if !c.replaceAt(msg.at, msg.text, func() string { return c.chips(msg.ims, msg.sizes) }) {
		c.out().Notice(act.NoticeInfo, "not attached: the pasted paths were edited before they were checked")
		return
	}
	c.out().Notice(act.NoticeInfo, attachedNotice(len(msg.ims))+" — Backspace after a chip removes it")
	c.out().Want(act.CheckImages{})
}

// attachedNotice says how many images were attached.
func attachedNotice(n int) string {
	if n == 1 {
		return "image attached"
	}
	return fmt.Sprint(n) + " images attached"
}

// replaceAt replaces old, found in the draft at byte offset at (else its
// first occurrence), by what repl returns, keeping the cursor where it
// was relative to the text around; false when old is no longer there.
func (c *Composer) replaceAt(at int, old string, repl func() string) bool {
	v := c.buf.Text()
	if at < 0 || at+len(old) > len(v) || v[at:at+len(old)] != old {
		if at = strings.Index(v, old); at < 0 {
			return false
		}
	}
	cur := c.buf.Offset()
	n := repl()
	switch {
	case cur >= at+len(old):
		cur += len(n) - len(old)
	case cur > at:
		cur = at + len(n)
	}
	c.buf.SetText(v[:at] + n + v[at+len(old):])
	c.buf.SetOffset(cur)
	c.dropped = true
	c.gen++
	c.refit()
	return true
}

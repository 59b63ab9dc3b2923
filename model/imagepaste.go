package model

import (
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// imagePasteMsg is the outcome of checking a paste of image paths (a
// local session): the images to attach as chips in place of the pasted
// text (put in the draft at byte offset at), or err, why not — the
// paste then stays the text it is.
type imagePasteMsg struct {
	text  string
	at    int
	ims   []imageChip
	sizes []int64
	err   error
}

// pasteImages takes a paste that is entirely image paths (pastedPaths;
// terminals paste dropped files so): ok says it did. On a local session
// the paste goes in as text at once, each file is checked in a command
// (it is I/O), and imagePasteMsg turns the text into chips where it
// stands, keys typed meanwhile kept; on a remote one the paths are the
// server's, chips at once, sent as they are without a look (relative
// ones taken from the thread's workspace).
func (m *Model) pasteImages(text string) (cmd tea.Cmd, ok bool) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	if isLargePaste(text) {
		return nil, false
	}
	paths, ok := pastedPaths(text)
	if !ok {
		return nil, false
	}
	if m.remote() {
		ims := make([]imageChip, 0, len(paths))
		sizes := make([]int64, 0, len(paths))
		for _, p := range paths {
			sp, ok := serverPath(p, m.panes.Cwd())
			if !ok {
				m.composer.Paste(text)
				m.setNotice(noticeInfo, "not attached: "+p+" — the app-server runs on another machine: paste an absolute path there")
				return nil, true
			}
			ims = append(ims, imageChip{server: sp})
			sizes = append(sizes, -1)
		}
		m.composer.attachImages(ims, sizes)
		m.setNotice(noticeInfo, attachedNotice(len(ims))+" (paths on the app-server's machine)")
		return m.fetchModels(), true
	}
	dir := m.opts.Workspace
	at := m.composer.cursorOffset()
	m.composer.InsertString(text)
	return func() tea.Msg {
		msg := imagePasteMsg{text: text, at: at}
		for _, p := range paths {
			abs, size, err := CheckImageFile(localPath(p, dir), dir)
			if err != nil {
				msg.err = err
				return msg
			}
			msg.ims = append(msg.ims, imageChip{local: abs})
			msg.sizes = append(msg.sizes, size)
		}
		return msg
	}, true
}

// onImagePaste attaches the checked images, or types the paste as text
// and says why it is not attached.
func (m *Model) onImagePaste(msg imagePasteMsg) tea.Cmd {
	if msg.err != nil {
		m.setNotice(noticeInfo, "not attached, kept as text: "+msg.err.Error())
		return nil
	}
	if !m.composer.replaceAt(msg.at, msg.text, func() string { return m.composer.chips(msg.ims, msg.sizes) }) {
		m.setNotice(noticeInfo, "not attached: the pasted paths were edited before they were checked")
		return nil
	}
	m.setNotice(noticeInfo, attachedNotice(len(msg.ims))+" — Backspace after a chip removes it")
	return m.fetchModels()
}

// attachedNotice says how many images were attached.
func attachedNotice(n int) string {
	if n == 1 {
		return "image attached"
	}
	return itoa(n) + " images attached"
}

// attachStartImages makes chips of the command line's -i images
// (absolute local files, checked by the command line): they lead the
// first prompt, or start the draft when there is none. They are pinned
// (sent): the prompt waits outside the composer until the session is
// ready.
func (m *Model) attachStartImages(paths []string) {
	var b strings.Builder
	for _, p := range paths {
		size := int64(-1)
		if st, err := os.Stat(p); err == nil {
			size = st.Size()
		}
		b.WriteString(m.composer.addImage(imageChip{local: p, sent: true}, size))
		b.WriteByte(' ')
	}
	if m.opts.Prompt != "" {
		m.opts.Prompt = b.String() + m.opts.Prompt
		return
	}
	m.composer.InsertString(b.String())
}

// cursorOffset is the cursor's place in the draft, in bytes (a line
// break counts one).
func (c *composer) cursorOffset() int { return c.buf.Offset() }

// replaceAt replaces old, found in the draft at byte offset at (else its
// first occurrence), by what repl returns, keeping the cursor where it
// was relative to the text around; false when old is no longer there.
func (c *composer) replaceAt(at int, old string, repl func() string) bool {
	v := c.buf.Text()
	if at < 0 || at+len(old) > len(v) || v[at:at+len(old)] != old {
		if at = strings.Index(v, old); at < 0 {
			return false
		}
	}
	cur := c.cursorOffset()
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

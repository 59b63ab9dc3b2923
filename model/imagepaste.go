package model

import (
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// imagePasteMsg is the outcome of checking a paste of image paths (a
// local session): the images to attach as chips, or err, why not — the
// paste then goes in as the text it was.
type imagePasteMsg struct {
	text  string
	ims   []imageChip
	sizes []int64
	err   error
}

// pasteImages takes a paste that is entirely image paths (pastedPaths;
// terminals paste dropped files so): ok says it did, and the paste is
// not text. On a local session each file is checked, in a command (it is
// I/O), and imagePasteMsg attaches them; on a remote one the paths are
// the server's, sent as they are without a look (relative ones taken
// from the thread's workspace).
func (m *Model) pasteImages(text string) (cmd tea.Cmd, ok bool) {
	paths, ok := pastedPaths(text)
	if !ok {
		return nil, false
	}
	if m.remote() {
		ims := make([]imageChip, 0, len(paths))
		sizes := make([]int64, 0, len(paths))
		for _, p := range paths {
			sp, ok := serverPath(p, m.threadCwd)
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
	return func() tea.Msg {
		msg := imagePasteMsg{text: text}
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
		if m.composer.Paste(msg.text) {
			m.setNotice(noticeInfo, "large paste shown as a placeholder — it is sent in full")
		}
		m.setNotice(noticeInfo, "not attached, kept as text: "+msg.err.Error())
		return nil
	}
	m.composer.attachImages(msg.ims, msg.sizes)
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

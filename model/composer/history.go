package composer

import (
	"os"
	"os/exec"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/lib/spill"
	"tandem/model/act"
	"tandem/ui"
)

// history is the workspace's prompts (list, oldest first, read once:
// ok), the entry shown (pos; len(list) is the draft) and the draft typed
// before walking it.
type history struct {
	list  []string
	pos   int
	draft string
	ok    bool
}

// loadHistory reads the workspace's history once.
func (c *Composer) loadHistory() {
	h := &c.hist
	if h.ok {
		return
	}
	h.ok = true
	if c.opts.State != nil && c.opts.Workspace != "" {
		h.list = slices.Clone(c.opts.State.History(c.opts.Workspace))
	}
	h.pos = len(h.list)
}

// AddHistory records a sent prompt, in memory and in the state file
// (without the pasted text and the images, which stay in this session).
func (c *Composer) AddHistory(text string) {
	c.loadHistory()
	h := &c.hist
	if n := len(h.list); n == 0 || h.list[n-1] != text {
		h.list = append(h.list, text)
	}
	h.pos = len(h.list)
	if c.opts.State != nil && c.opts.Workspace != "" {
		stored := text
		if c.hasPaste(text) {
			// The pasted text stays in this session only.
			stored += "\n" + PasteNotSaved
		}
		if c.HasImage(text) {
			// So do attached images: the chips are dropped.
			stored, _ = c.stripImages(stored)
			stored += "\n" + ImagesNotSaved
		}
		_ = c.opts.State.AddHistory(c.opts.Workspace, stored)
	}
}

// historyUp shows the previous prompt when the draft is empty or already
// a history entry, keeping the draft to come back to.
func (c *Composer) historyUp() bool {
	c.loadHistory()
	h := &c.hist
	cur := c.buf.Text()
	browsing := h.pos < len(h.list) && cur == h.list[h.pos]
	if !browsing && cur != "" {
		return false
	}
	if !browsing {
		h.draft = cur
		h.pos = len(h.list)
	}
	if h.pos == 0 {
		return len(h.list) > 0
	}
	h.pos--
	c.show(h.list[h.pos])
	return true
}

// historyDown walks forward; past the newest entry it restores the draft.
func (c *Composer) historyDown() bool {
	h := &c.hist
	if h.pos >= len(h.list) || c.buf.Text() != h.list[h.pos] {
		return false
	}
	h.pos++
	v := h.draft
	if h.pos < len(h.list) {
		v = h.list[h.pos]
	}
	c.show(v)
	return true
}

// show puts a history entry in the composer, cursor at the end.
func (c *Composer) show(s string) {
	c.buf.SetText(s)
	c.gen++
	c.refit()
}

// History returns the workspace's prompts, oldest first.
func (c *Composer) History() []string {
	c.loadHistory()
	return c.hist.list
}

// editorDoneMsg follows the external editor (Ctrl+G) exiting.
type editorDoneMsg struct {
	path string
	err  error
}

func (editorDoneMsg) composerMsg() {}

// openEditor opens $VISUAL or $EDITOR (else vi) on the draft (Ctrl+G);
// the saved file replaces the draft. A guest's runs nothing on the host.
func (c *Composer) openEditor() {
	if c.env.Role.Guest() {
		c.out().Notice(act.NoticeInfo, act.GuestNoHostProgram)
		return
	}
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	f, err := os.CreateTemp("", spill.PromptPattern())
	if err != nil {
		c.out().Banner(ui.BannerError, "could not open the editor: "+err.Error(), nil)
		return
	}
	_, _ = f.WriteString(c.Value())
	f.Close()
	args := strings.Fields(editor)
	cmd := exec.Command(args[0], append(args[1:], f.Name())...)
	path := f.Name()
	c.out().Cmd(tea.ExecProcess(cmd, func(err error) tea.Msg { return editorDoneMsg{path: path, err: err} }))
}

// onEditorDone puts the saved file in the draft. The draft is never lost
// to the editor: one that failed (exited non-zero) or saved an empty file
// leaves the draft as it was, and says so.
func (c *Composer) onEditorDone(msg editorDoneMsg) {
	defer os.Remove(msg.path)
	if msg.err != nil {
		c.out().Banner(ui.BannerError, "editor: "+msg.err.Error()+" — your draft is kept as it was", nil)
		return
	}
	b, err := os.ReadFile(msg.path)
	if err != nil {
		c.out().Banner(ui.BannerError, "editor: "+err.Error()+" — your draft is kept as it was", nil)
		return
	}
	text := strings.TrimRight(string(b), "\n")
	if strings.TrimSpace(text) == "" && strings.TrimSpace(c.Value()) != "" {
		c.out().Notice(act.NoticeInfo, "the editor saved an empty file — your draft is kept (ctrl+c clears it)")
		return
	}
	c.SetDraft(text)
}

package model

import (
	"os"
	"os/exec"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/lib/spill"
	"tandem/model/overlay"
	"tandem/ui"
)

// loadHistory reads the workspace's history once.
func (c *composer) loadHistory() {
	if c.histOK {
		return
	}
	c.histOK = true
	if c.state != nil && c.workspace != "" {
		c.hist = slices.Clone(c.state.History(c.workspace))
	}
	c.histPos = len(c.hist)
}

// AddHistory records a sent prompt, in memory and in the state file.
func (c *composer) AddHistory(text string) {
	c.loadHistory()
	if n := len(c.hist); n == 0 || c.hist[n-1] != text {
		c.hist = append(c.hist, text)
	}
	c.histPos = len(c.hist)
	if c.state != nil && c.workspace != "" {
		stored := text
		if c.hasPaste(text) {
			// The pasted text stays in this session only.
			stored += "\n" + pasteNotSaved
		}
		if c.hasImage(text) {
			// So do attached images: the chips are dropped.
			stored, _ = c.stripImages(stored)
			stored += "\n" + imagesNotSaved
		}
		_ = c.state.AddHistory(c.workspace, stored)
	}
}

// HistoryUp shows the previous prompt when the draft is empty or already
// a history entry, keeping the draft to come back to.
func (c *composer) HistoryUp() bool {
	c.loadHistory()
	cur := c.buf.Text()
	browsing := c.histPos < len(c.hist) && cur == c.hist[c.histPos]
	if !browsing && cur != "" {
		return false
	}
	if !browsing {
		c.draft = cur
		c.histPos = len(c.hist)
	}
	if c.histPos == 0 {
		return len(c.hist) > 0
	}
	c.histPos--
	c.show(c.hist[c.histPos])
	return true
}

// HistoryDown walks forward; past the newest entry it restores the draft.
func (c *composer) HistoryDown() bool {
	if c.histPos >= len(c.hist) || c.buf.Text() != c.hist[c.histPos] {
		return false
	}
	c.histPos++
	v := c.draft
	if c.histPos < len(c.hist) {
		v = c.hist[c.histPos]
	}
	c.show(v)
	return true
}

// show puts a history entry in the composer, cursor at the end.
func (c *composer) show(s string) {
	c.buf.SetText(s)
	c.gen++
	c.refit()
}

// History returns the workspace's prompts, oldest first.
func (c *composer) History() []string {
	c.loadHistory()
	return c.hist
}

// openHistorySearch opens Ctrl+R: a fuzzy search over the workspace's
// history, newest first; Enter puts the entry in the composer.
func (m *Model) openHistorySearch() {
	hist := m.composer.History()
	items := make([]overlay.Item, 0, len(hist))
	for i := len(hist) - 1; i >= 0; i-- {
		items = append(items, overlay.Item{Label: strings.ReplaceAll(hist[i], "\n", " ⏎ "), Choose: pickedDraft(hist[i])})
	}
	m.overlay.Pick(overlay.Picker{Title: "History", Hint: "type to search · enter to use · esc to close",
		Empty: "no history in this workspace yet", Items: items, Query: m.composer.Value()})
}

// pickedDraft is a history entry chosen in Ctrl+R's picker: it goes in
// the composer.
type pickedDraft string

func (p pickedDraft) run(m *Model) tea.Cmd { m.setDraft(string(p)); return nil }

// editorDoneMsg follows the external editor (Ctrl+G) exiting.
type editorDoneMsg struct {
	path string
	err  error
}

// openEditor opens $VISUAL or $EDITOR (else vi) on the draft (Ctrl+G);
// the saved file replaces the draft.
func (m *Model) openEditor() tea.Cmd {
	if m.opts.Guest {
		m.setNotice(noticeInfo, guestNoHostProgram)
		return nil
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
		m.banner(ui.BannerError, "could not open the editor: "+err.Error(), nil)
		return nil
	}
	_, _ = f.WriteString(m.composer.Value())
	f.Close()
	args := strings.Fields(editor)
	c := exec.Command(args[0], append(args[1:], f.Name())...)
	path := f.Name()
	return tea.ExecProcess(c, func(err error) tea.Msg { return editorDoneMsg{path: path, err: err} })
}

func (m *Model) onEditorDone(msg editorDoneMsg) {
	defer os.Remove(msg.path)
	if msg.err != nil {
		m.banner(ui.BannerError, "editor: "+msg.err.Error(), nil)
		return
	}
	b, err := os.ReadFile(msg.path)
	if err != nil {
		m.banner(ui.BannerError, "editor: "+err.Error(), nil)
		return
	}
	m.setDraft(strings.TrimRight(string(b), "\n"))
}

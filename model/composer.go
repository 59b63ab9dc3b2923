package model

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/spill"
	"tandem/ui"
)

// steerResult is the answer to `turn/steer`; a failed steer gives text
// back to the composer.
type steerResult struct {
	text string
	err  error
}

// editorDoneMsg follows the external editor (Ctrl+G) exiting.
type editorDoneMsg struct {
	path string
	err  error
}

// extKey routes a key press before onKey: the open picker or login form
// takes every key; the popup takes its navigation keys; Enter, Tab, Up,
// Down, Ctrl+R and Ctrl+G get the composer's extra meanings; everything
// else goes to onKey, after which the popup follows the draft.
func (m *Model) extKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if (m.form != nil && m.formReady) || m.opts.ReadOnly || m.tv.pager != nil {
		return nil, false
	}
	key := k.String()
	if m.x.login != nil {
		return m.x.login.key(m, k), true
	}
	if p := m.x.picker; p != nil {
		cmd, done := p.key(k)
		if done {
			m.closePicker(p)
		}
		return cmd, true
	}
	switch key {
	case "ctrl+c", "pgup", "pgdown":
		return nil, false
	}
	if pp := m.x.popup; pp.active() && (len(pp.items) > 0 || key == "esc") {
		switch key {
		case "up", "down", "tab", "enter", "esc":
			return m.popupKey(key), true
		}
	}
	switch key {
	case "enter":
		return m.onEnter(), true
	case "tab":
		if m.running || m.startingTurn {
			m.queueDraft()
			return nil, true
		}
	case "up":
		if m.historyUp() {
			return nil, true
		}
	case "down":
		if m.historyDown() {
			return nil, true
		}
	case "ctrl+r":
		m.openHistorySearch()
		return nil, true
	case "ctrl+g":
		return m.openEditor(), true
	}
	cmd := m.onKey(k)
	return tea.Batch(cmd, m.refreshPopup()), true
}

// onEnter submits the draft: a slash command, a `!` shell command, a new
// turn, or — while a turn runs — a steer of that turn.
func (m *Model) onEnter() tea.Cmd {
	raw := m.composer.Value()
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	if c, args, ok := parseCommand(raw); ok {
		m.setDraft("")
		return m.runCommand(c, args)
	}
	if !m.ready || m.driver == nil {
		switch {
		case m.rec.restarting:
			m.status.Notice = "restarting codex app-server — your message stays here"
		case (m.rec.dead || m.rec.noThread) && m.opts.Restart != nil && !m.opts.ReadOnly:
			m.status.Notice = "codex app-server is not running — F5 or /restart; your message stays here"
		case m.rec.dead || m.rec.noThread:
			m.status.Notice = "codex app-server is not running — your message stays here"
		default:
			m.status.Notice = "codex app-server is not ready yet — your message stays here"
		}
		return nil
	}
	if m.x.switching {
		m.status.Notice = "opening a thread — your message stays here"
		return nil
	}
	text := m.expandPastes(raw) // paste.go: placeholders → the pasted text
	hist := m.histEntry(raw, text)
	if strings.HasPrefix(text, "!") && len(strings.TrimSpace(text)) > 1 {
		if m.running || m.startingTurn {
			m.status.Notice = "a turn is running — ! commands run between turns"
			return nil
		}
		m.addHistory(hist)
		m.setDraft("")
		return m.shellCommand(strings.TrimSpace(text[1:]))
	}
	if m.running || m.startingTurn {
		return m.steer(text, hist)
	}
	if len(m.x.queued) > 0 {
		// Prompts still queued (e.g. from before a restart) go first.
		m.x.queued = append(m.x.queued, raw)
		m.setDraft("")
		m.status.Notice = "queued after the earlier prompts"
		return m.flushQueue()
	}
	m.addHistory(hist)
	m.setDraft("")
	return m.submit(text)
}

// steer adds text to the running turn with `turn/steer`; hist is what the
// history keeps of it.
func (m *Model) steer(text, hist string) tea.Cmd {
	td, ok := m.threadDriver()
	if !ok || td.TurnID() == "" {
		m.status.Notice = "the turn is starting — Tab queues your message for the next turn"
		return nil
	}
	m.addHistory(hist)
	m.setDraft("")
	m.follow = true
	m.status.Notice = "steering the turn…"
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return steerResult{text: text, err: td.SteerTurn(ctx, text)}
	}
}

// onSteerResult draws a delivered steer as the user's message. A steer
// that lost the race with the turn's end (-32600: no active turn, or
// another turn than expected; or backend.ErrNoActiveTurn when the session
// saw the end first) is not an error for the user: the message
// joins the queue (after what was queued before it) and is sent as a turn. Any other failure
// puts the text back in the composer.
func (m *Model) onSteerResult(r steerResult) tea.Cmd {
	if m.status.Notice == "steering the turn…" {
		m.status.Notice = ""
	}
	var rpcErr *backend.RPCError
	switch {
	case r.err == nil:
		if !m.opts.Shared { // shared models draw prompts from the thread's items
			m.transcript.Append(&ui.UserCell{Text: r.text})
		}
		return nil
	case errors.Is(r.err, backend.ErrNoActiveTurn), errors.As(r.err, &rpcErr) && rpcErr.Code == backend.CodeInvalidRequest:
		m.x.queued = append(m.x.queued, m.largeAsPaste(r.text))
		m.status.Notice = "the turn had ended — your message is sent as the next turn"
		return m.flushQueue()
	}
	m.banner(ui.BannerError, "could not steer the turn: "+oneLine(r.err), nil)
	m.restoreDraft(r.text)
	return nil
}

// restoreDraft puts a prompt that was not delivered back in the composer,
// ahead of anything typed since.
func (m *Model) restoreDraft(text string) {
	text = m.largeAsPaste(text)
	cur := m.composer.Value()
	if strings.TrimSpace(cur) != "" && cur != text {
		text = text + "\n" + cur
	}
	m.setDraft(text)
}

// queueDraft moves the draft to the queue sent when the turn ends; it is
// queued with its placeholders, expanded when sent.
func (m *Model) queueDraft() {
	text := m.composer.Value()
	if strings.TrimSpace(text) == "" {
		return
	}
	m.x.queued = append(m.x.queued, text)
	m.setDraft("")
	m.status.Notice = "queued for the next turn"
}

// flushQueue sends the first queued prompt once no turn runs.
func (m *Model) flushQueue() tea.Cmd {
	if len(m.x.queued) == 0 || m.running || m.startingTurn || !m.ready || m.driver == nil || m.x.switching {
		return nil
	}
	raw := m.x.queued[0]
	m.x.queued = m.x.queued[1:]
	text := m.expandPastes(raw)
	m.addHistory(m.histEntry(raw, text))
	m.prunePastes()
	return m.submit(text)
}

// turnStarter starts a turn with the /model and /approvals overrides when
// there are any and the driver supports them.
func turnStarter(d Driver, o backend.TurnOptions) func(ctx context.Context, text string) (backend.Turn, error) {
	if td, ok := d.(ThreadDriver); ok && o != (backend.TurnOptions{}) {
		return func(ctx context.Context, text string) (backend.Turn, error) { return td.StartTurnWith(ctx, text, o) }
	}
	return d.StartTurn
}

func (m *Model) setDraft(s string) {
	m.composer.SetValue(m.largeAsPaste(s))
	m.composer.MoveToEnd()
	m.resizeComposer()
	m.x.popup = popup{}
	m.x.histPos = len(m.x.hist)
	m.prunePastes()
}

// loadHistory reads the workspace's history once.
func (m *Model) loadHistory() {
	if m.x.histOK {
		return
	}
	m.x.histOK = true
	if m.opts.State != nil && m.opts.Workspace != "" {
		m.x.hist = slices.Clone(m.opts.State.History(m.opts.Workspace))
	}
	m.x.histPos = len(m.x.hist)
}

// addHistory records a sent prompt, in memory and in the state file.
func (m *Model) addHistory(text string) {
	m.loadHistory()
	if n := len(m.x.hist); n == 0 || m.x.hist[n-1] != text {
		m.x.hist = append(m.x.hist, text)
	}
	m.x.histPos = len(m.x.hist)
	if m.opts.State != nil && m.opts.Workspace != "" {
		stored := text
		if m.hasPaste(text) {
			// The pasted text stays in this session only.
			stored += "\n" + pasteNotSaved
		}
		_ = m.opts.State.AddHistory(m.opts.Workspace, stored)
	}
}

// historyUp shows the previous prompt when the draft is empty or already
// a history entry, keeping the draft to come back to.
func (m *Model) historyUp() bool {
	m.loadHistory()
	cur := m.composer.Value()
	browsing := m.x.histPos < len(m.x.hist) && cur == m.x.hist[m.x.histPos]
	if !browsing && cur != "" {
		return false
	}
	if !browsing {
		m.x.draft = cur
		m.x.histPos = len(m.x.hist)
	}
	if m.x.histPos == 0 {
		return len(m.x.hist) > 0
	}
	m.x.histPos--
	m.composer.SetValue(m.x.hist[m.x.histPos])
	m.composer.MoveToEnd()
	m.resizeComposer()
	return true
}

// historyDown walks forward; past the newest entry it restores the draft.
func (m *Model) historyDown() bool {
	if m.x.histPos >= len(m.x.hist) || m.composer.Value() != m.x.hist[m.x.histPos] {
		return false
	}
	m.x.histPos++
	v := m.x.draft
	if m.x.histPos < len(m.x.hist) {
		v = m.x.hist[m.x.histPos]
	}
	m.composer.SetValue(v)
	m.composer.MoveToEnd()
	m.resizeComposer()
	return true
}

// openHistorySearch opens Ctrl+R: a fuzzy search over the workspace's
// history, newest first; Enter puts the entry in the composer.
func (m *Model) openHistorySearch() {
	m.loadHistory()
	items := make([]pickItem, 0, len(m.x.hist))
	for i := len(m.x.hist) - 1; i >= 0; i-- {
		items = append(items, pickItem{label: strings.ReplaceAll(m.x.hist[i], "\n", " ⏎ "), value: m.x.hist[i]})
	}
	p := &picker{title: "History", hint: "type to search · enter to use · esc to close", empty: "no history in this workspace yet"}
	p.onChoose = func(it pickItem) tea.Cmd {
		m.setDraft(it.value.(string))
		return nil
	}
	p.query = m.composer.Value()
	p.setItems(items)
	m.openPicker(p)
}

// openEditor opens $VISUAL or $EDITOR (else vi) on the draft (Ctrl+G);
// the saved file replaces the draft.
func (m *Model) openEditor() tea.Cmd {
	if m.opts.Guest {
		m.status.Notice = guestNoHostProgram
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

func (m *Model) onEditorDone(msg editorDoneMsg) tea.Cmd {
	defer os.Remove(msg.path)
	if msg.err != nil {
		m.banner(ui.BannerError, "editor: "+msg.err.Error(), nil)
		return nil
	}
	b, err := os.ReadFile(msg.path)
	if err != nil {
		m.banner(ui.BannerError, "editor: "+err.Error(), nil)
		return nil
	}
	m.setDraft(strings.TrimRight(string(b), "\n"))
	return nil
}

// shellCommand runs `!cmd` with `thread/shellCommand`; its output arrives
// as a commandExecution item of the thread.
func (m *Model) shellCommand(command string) tea.Cmd {
	td, ok := m.threadDriver()
	if !ok {
		m.status.Notice = "! commands need a live app-server"
		return nil
	}
	id := td.ThreadID()
	return func() tea.Msg {
		ctx, cancel := callCtx()
		defer cancel()
		err := td.Call(ctx, "thread/shellCommand", backend.ThreadShellCommandParams{ThreadID: id, Command: command}, nil)
		return commandResultMsg{name: "!", err: err}
	}
}

// promptWidth is the width of the composer's prompt column.
const promptWidth = 2

// composerPrompt is "› " on the draft's first row only; wrapped and
// further lines are indented by as much, as in Codex's composer.
func composerPrompt(p textarea.PromptInfo) string {
	if p.LineNumber == 0 {
		return "› "
	}
	return "  "
}

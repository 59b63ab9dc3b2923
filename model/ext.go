package model

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"tandem/backend"
	"tandem/ui"
)

// extState is the model's state for threads, slash commands, the composer's
// popups, history and queue, and the login form. It lives in Model.x; the
// hooks into Update and View are extUpdate and extAbove.
type extState struct {
	// picker is the open list in the bottom pane, if any; it has the keys.
	picker *picker
	// popup is the `/` command or `@` file popup derived from the draft.
	popup popup
	// switching is set while a thread is being opened; turns wait.
	switching bool
	// queued prompts, sent one per turn when the running turn ends.
	queued []string
	// turn overrides from /model and /approvals, sent with turn/start.
	turn   backend.TurnOptions
	effort string // the thread's reasoning effort, for /status
	// lastDiff is the thread's last `turn/diff/updated` diff, for /diff.
	lastDiff string
	// history walk: hist is the workspace's prompts (oldest first), histPos
	// the entry shown (len(hist) = the draft), draft what was typed.
	hist    []string
	histPos int
	draft   string
	histOK  bool
	// login is the open login form, if any.
	login *loginForm
	// resumeFilter is the open resume picker's scope, sort and pages.
	resumeFilter *resumeFilter
	// fileSeq numbers fuzzyFileSearch requests; older answers are dropped.
	fileSeq int
}

// extUpdate runs before the model's own Update. It handles the messages of
// threads, commands, composer and login (done = true), and observes
// others, returning done = false to let Update handle them.
func (m *Model) extUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.extKey(msg)
	case threadSwitchedMsg:
		return tea.Batch(m.onThreadSwitched(msg), m.flushQueue()), true
	case resumeCheckMsg:
		return m.onResumeCheck(msg), true
	case commandResultMsg:
		return m.onCommandResult(msg), true
	case threadPageMsg:
		return m.onThreadPage(msg), true
	case modelListMsg:
		return m.onModelList(msg), true
	case fileSearchMsg:
		m.onFileSearch(msg)
		return nil, true
	case steerResult:
		return m.onSteerResult(msg), true
	case editorDoneMsg:
		return m.onEditorDone(msg), true
	case accountMsg:
		return m.onAccount(msg), true
	case loginStartedMsg:
		return m.onLoginStarted(msg), true
	case backend.LoginCompletedEvent:
		return m.onLoginCompleted(msg), true
	case backend.TurnDiffUpdatedEvent:
		m.x.lastDiff = msg.Diff
		return nil, false
	}
	if m.x.login != nil {
		if cmd, ok := m.x.login.update(m, msg); ok {
			return cmd, true
		}
	}
	return nil, false
}

// afterReady runs what waits for the session: the command line's resume
// request and the account check.
func (m *Model) afterReady(msg SessionReadyMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.Resume != nil {
		cmds = append(cmds, m.startResume(*msg.Resume))
	} else if td, ok := m.threadDriver(); ok && td.ThreadID() != "" {
		m.rememberThread(td.ThreadID())
	}
	cmds = append(cmds, m.checkAccount())
	return tea.Batch(cmds...)
}

// extAbove returns the lines drawn between the transcript and the
// composer: queued prompts, then the picker, login form or popup.
func (m *Model) extAbove() []string {
	w := m.contentWidth()
	st := m.styles
	var out []string
	for i, q := range m.x.queued {
		first, _, _ := strings.Cut(q, "\n")
		out = append(out, st.Dim.Render(ui.Truncate("  ⏳ queued "+itoa(i+1)+": "+first, w)))
	}
	switch {
	case m.x.login != nil:
		out = append(out, st.Dim.Render(strings.Repeat("─", w)))
		out = append(out, m.x.login.view(st, w)...)
	case m.x.picker != nil:
		out = append(out, st.Dim.Render(strings.Repeat("─", w)))
		out = append(out, m.x.picker.view(st, w)...)
	default:
		out = append(out, m.popupView(w)...)
	}
	return out
}

func lipWidth(s string) int { return lipgloss.Width(s) }

func itoa(n int) string { return strconv.Itoa(n) }

// shortHome folds $HOME to ~ in a path for display.
func shortHome(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return p
	}
	rel, err := filepath.Rel(home, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return p
	}
	if rel == "." {
		return "~"
	}
	return "~/" + rel
}

package model

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

// The title: tandem, the thread (its name, else its first message) and
// its state.
func TestWindowTitle(t *testing.T) {
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	title := func(m *Model) string { return m.View().WindowTitle }
	if got := title(m); got != "tandem" {
		t.Errorf("before anything: %q", got)
	}
	m.Update(notif(t, "item/completed", `{"threadId":"th","turnId":"tu","item":{"type":"userMessage","id":"u1","content":[{"type":"text","text":"fix the parser\nplease","text_elements":[]}]}}`))
	startTurn(m)
	if got, want := title(m), "tandem · fix the parser · working"; got != want {
		t.Errorf("working: %q, want %q", got, want)
	}
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "tu", Status: backend.TurnCompleted}})
	if got, want := title(m), "tandem · fix the parser · done"; got != want {
		t.Errorf("done: %q, want %q", got, want)
	}
	name := "Parser\x1b[31m fix"
	m.Update(backend.ThreadNameEvent{Name: &name})
	if got, want := title(m), "tandem · Parser␛[31m fix · done"; got != want {
		t.Errorf("named: %q, want %q", got, want)
	}
	m.Update(act.Done{For: act.ToOverlay, Msg: act.AccountRead{Account: backend.AccountReadResponse{RequiresOpenaiAuth: true}}}) // the login form opens
	if got, want := title(m), "tandem · Parser␛[31m fix · waiting for you"; got != want {
		t.Errorf("login: %q, want %q", got, want)
	}
	// A thread begun by /init is named so, not by Codex's long prompt.
	m2 := New(Options{})
	m2.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m2.Update(notif(t, "item/completed", `{"threadId":"th","turnId":"tu","item":{"type":"userMessage","id":"u1","content":[{"type":"text","text":`+strconvQuote(act.InitPrompt)+`,"text_elements":[]}]}}`))
	if got := title(m2); got != "tandem · /init" {
		t.Errorf("the /init thread: %q", got)
	}
}

// The title names the state and focus is reported in both ways of
// drawing: the alternate screen and --no-alt-screen.
func TestViewsCarryTitleAndFocus(t *testing.T) {
	for _, inline := range []bool{false, true} {
		m := New(Options{NoAltScreen: inline})
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		startTurn(m)
		v := m.View()
		if v.AltScreen == inline || v.WindowTitle != "tandem · working" || !v.ReportFocus {
			t.Errorf("inline %v: alt screen %v, title %q, focus reported %v", inline, v.AltScreen, v.WindowTitle, v.ReportFocus)
		}
	}
}

// A turn that ends while the terminal is unfocused writes the
// notification; focused, or with notifications off, nothing; a replay
// (no client) never.
func TestTurnEndNotifies(t *testing.T) {
	env := func(k string) string { return map[string]string{"TERM_PROGRAM": "ghostty"}[k] }
	cases := []struct {
		name   string
		mode   string
		focus  tea.Msg
		client bool
		want   string
	}{
		{"unfocused", "unfocused", tea.BlurMsg{}, true, "\x1b]9;tandem: turn done\a"},
		{"focused", "unfocused", tea.FocusMsg{}, true, ""},
		{"off", "off", tea.BlurMsg{}, true, ""},
		{"always, focused", "always", tea.FocusMsg{}, true, "\x1b]9;tandem: turn done\a"},
		{"a replay", "always", tea.BlurMsg{}, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{Notifications: c.mode, Getenv: env, Shared: !c.client})
			if c.client {
				m.Update(SessionReadyMsg{Client: backend.Unavailable{}, ThreadID: "th"})
			}
			m.Update(c.focus)
			startTurn(m)
			_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "tu", Status: backend.TurnCompleted}})
			got := rawOf(cmd)
			if got != c.want {
				t.Errorf("wrote %q, want %q", got, c.want)
			}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			if title := m.View().WindowTitle; !strings.HasSuffix(title, " · done") {
				t.Errorf("the title's state: %q", title)
			}
		})
	}
}

// rawOf runs cmd (and the commands of a batch) and returns what tea.Raw
// messages it writes.
func rawOf(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	switch msg := cmd().(type) {
	case tea.RawMsg:
		return msg.Msg.(string)
	case tea.BatchMsg:
		out := ""
		for _, c := range msg {
			out += rawOf(c)
		}
		return out
	}
	return ""
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// A request's notification names the thread, as a turn's end does: its
// name, else the first words of its first prompt, so that notifications
// of several threads can be told apart; a thread with neither yet says
// only what waits.
func TestRequestNotificationNamesTheThread(t *testing.T) {
	env := func(k string) string { return map[string]string{"TERM_PROGRAM": "ghostty"}[k] }
	const th = `"threadId":"t-first","turnId":"turn-1"`
	prompt := notif(t, "item/completed", `{`+th+`,"item":{"type":"userMessage","id":"u1","content":[{"type":"text","text":"Find the flaky test in the parser package and fix it for good"}]}}`)
	rename := notif(t, "thread/name/updated", `{"threadId":"t-first","threadName":"Flaky test hunt"}`)
	cases := []struct {
		name string
		msgs []tea.Msg
		want string
	}{
		{"named", []tea.Msg{prompt, rename}, "\x1b]9;tandem: approve command: go test ./... — Flaky test hunt\a"},
		{"its first prompt", []tea.Msg{prompt}, "\x1b]9;tandem: approve command: go test ./... — Find the flaky test in the parser packa…\a"},
		{"neither", nil, "\x1b]9;tandem: approve command: go test ./...\a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{Notifications: "always", Getenv: env})
			m.Update(SessionReadyMsg{Client: newFake(), ThreadID: "t-first"})
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			startTurn(m)
			for _, msg := range c.msgs {
				m.Update(msg)
			}
			_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `"r1"`,
				`{`+th+`,"itemId":"c9","startedAtMs":1,"environmentId":null,"command":"go test ./...","cwd":"/w"}`, &replies{}))
			if got := rawOf(cmd); got != c.want {
				t.Errorf("wrote %q\nwant  %q", got, c.want)
			}
		})
	}
}

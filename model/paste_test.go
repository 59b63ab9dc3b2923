package model

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/composer"
	"tandem/sessions"
)

func bigPaste(lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "line %05d of a long pasted log, with some text to make it wide\n", i)
	}
	return b.String() + "last line"
}

// A paste over 10,000 lines (the textarea's hard limit) goes in as one
// placeholder token and is sent whole, by turn/start, turn/steer and the
// queue; typed text around the token is kept in place.
func TestLargePasteIsSentWhole(t *testing.T) {
	paste := bigPaste(11000)
	cases := []struct {
		name string
		// how the draft is sent; returns what the driver received
		send func(t *testing.T, m *Model, f *fakeDriver) []string
		pre  string // typed before the paste
		post string // typed after it
	}{
		{name: "turn/start", send: func(t *testing.T, m *Model, f *fakeDriver) []string {
			press(t, m, tea.KeyEnter, 0)
			return f.turns
		}},
		{name: "turn/start with typed text", pre: "look at this: ", post: " and fix it", send: func(t *testing.T, m *Model, f *fakeDriver) []string {
			press(t, m, tea.KeyEnter, 0)
			return f.turns
		}},
		{name: "turn/steer", send: func(t *testing.T, m *Model, f *fakeDriver) []string {
			m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
			press(t, m, tea.KeyEnter, 0)
			return f.steers
		}},
		{name: "queue", send: func(t *testing.T, m *Model, f *fakeDriver) []string {
			press(t, m, tea.KeyTab, 0)
			if len(m.State().Queued) != 1 || !strings.HasPrefix(m.State().Queued[0], "[Pasted text #1") {
				t.Fatalf("queued %d entries", len(m.State().Queued))
			}
			_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
			settle(t, m, cmd)
			return f.turns[1:]
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake()
			m := ready(t, f, Options{})
			if c.name == "turn/steer" || c.name == "queue" {
				typeText(t, m, "first")
				press(t, m, tea.KeyEnter, 0)
			}
			typeText(t, m, c.pre)
			m.Update(tea.PasteMsg{Content: strings.ReplaceAll(paste, "\n", "\r\n")})
			typeText(t, m, c.post)
			if v := m.composer.Value(); !strings.Contains(v, "[Pasted text #1 · 11001 lines, ") || len(v) > 200 {
				t.Fatalf("composer holds %d bytes: %.100q", len(v), v)
			}
			if !strings.Contains(viewText(m), "[Pasted text #1 · 11001 lines, 7") {
				t.Fatalf("placeholder not shown:\n%s", viewText(m))
			}
			got := c.send(t, m, f)
			want := c.pre + paste + c.post
			if len(got) != 1 || got[0] != want {
				t.Fatalf("sent %d texts; first %d bytes, want %d", len(got), len(strings.Join(got, "")), len(want))
			}
		})
	}
}

// Backspace after the token deletes it whole and drops the paste; text
// typed after that is sent as typed.
func TestDeletedPlaceholderDropsPaste(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	typeText(t, m, "a ")
	m.Update(tea.PasteMsg{Content: bigPaste(600)})
	token := strings.TrimPrefix(m.composer.Value(), "a ")
	if m.composer.Expand(token) == token {
		t.Fatalf("draft %q: no placeholder", m.composer.Value())
	}
	press(t, m, tea.KeyBackspace, 0)
	if got := m.composer.Value(); got != "a " || m.composer.Expand(token) != token {
		t.Fatalf("after backspace: draft %q, paste kept %v", got, m.composer.Expand(token) != token)
	}
	typeText(t, m, "b")
	press(t, m, tea.KeyEnter, 0)
	if !reflect.DeepEqual(f.turns, []string{"a b"}) {
		t.Fatalf("turns %q", f.turns)
	}
}

// A big prompt is kept in the history with its placeholder (which still
// works in this session); the state file gets the placeholder and a note,
// never the pasted megabytes.
func TestLargePasteHistory(t *testing.T) {
	dir := t.TempDir()
	f := newFake()
	m := ready(t, f, Options{State: sessions.Open(dir), Workspace: "/w"})
	paste := bigPaste(11000)
	m.Update(tea.PasteMsg{Content: paste})
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	press(t, m, tea.KeyUp, 0)
	if got := m.composer.Value(); !strings.HasPrefix(got, "[Pasted text #1") {
		t.Fatalf("Up gave %.80q", got)
	}
	press(t, m, tea.KeyEnter, 0)
	if len(f.turns) != 2 || f.turns[1] != paste {
		t.Fatalf("resent history entry is not the paste (%d turns)", len(f.turns))
	}
	h := sessions.Open(dir).History("/w")
	if len(h) != 1 || len(h[0]) > 200 || !strings.Contains(h[0], "[Pasted text #1") || !strings.Contains(h[0], composer.PasteNotSaved) {
		t.Fatalf("stored history %d entries, first %.200q", len(h), h)
	}
}

// Ctrl+C on a draft clears it, and Up brings it back.
func TestCtrlCDraftGoesToHistory(t *testing.T) {
	store := sessions.Open(t.TempDir())
	m := ready(t, newFake(), Options{State: store, Workspace: "/w"})
	typeText(t, m, "a long prompt I did not mean to lose")
	press(t, m, 'c', tea.ModCtrl)
	if m.State().Composer != "" {
		t.Fatalf("Ctrl+C left %q", m.State().Composer)
	}
	press(t, m, tea.KeyUp, 0)
	if got := m.State().Composer; got != "a long prompt I did not mean to lose" {
		t.Fatalf("Up after Ctrl+C → %q", got)
	}
	// The next run has it too.
	m2 := ready(t, newFake(), Options{State: store, Workspace: "/w"})
	press(t, m2, tea.KeyUp, 0)
	if got := m2.State().Composer; got != "a long prompt I did not mean to lose" {
		t.Fatalf("Up in the next run → %q", got)
	}
}

// Ctrl+C during a turn whose server never answers the interrupt: the first
// sends turn/interrupt, the second arms quit (with the hint), the third
// quits. A turn/completed in between starts over.
func TestCtrlCQuitsWhenInterruptHangs(t *testing.T) {
	now := newPacedClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	f := newFake()
	m := ready(t, f, Options{Now: now.Now, Clock: now})
	typeText(t, m, "long job")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})

	ctrlC := func() tea.Cmd {
		_, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
		return cmd
	}
	isQuit := func(cmd tea.Cmd) bool {
		if cmd == nil {
			return false
		}
		_, ok := cmd().(tea.QuitMsg)
		return ok
	}
	if cmd := ctrlC(); cmd == nil || isQuit(cmd) || !strings.Contains(noticeText(m), "interrupting") {
		t.Fatalf("first Ctrl+C: notice %q", noticeText(m))
	}
	if !m.turn.Interrupting() {
		t.Fatal("first Ctrl+C sent no interrupt")
	}
	now.Add(time.Second)
	ctrlC() // its command ends the quit window later: not run here
	if noticeKindOf(m) != act.NoticeQuit {
		t.Fatalf("second Ctrl+C sent another interrupt, or did not arm quit: notice %q", noticeText(m))
	}
	if v := viewText(m); !strings.Contains(v, "press Ctrl+C again to quit") {
		t.Fatalf("no quit hint:\n%s", v)
	}
	now.Add(time.Second)
	if cmd := ctrlC(); !isQuit(cmd) {
		t.Fatal("third Ctrl+C did not quit")
	}

	// The interrupt is answered: the next turn's Ctrl+C interrupts again.
	m2 := ready(t, newFake(), Options{})
	typeText(t, m2, "job")
	press(t, m2, tea.KeyEnter, 0)
	m2.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	m2.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	m2.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnInterrupted}})
	typeText(t, m2, "job 2")
	press(t, m2, tea.KeyEnter, 0)
	m2.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-2"}})
	m2.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if !strings.Contains(noticeText(m2), "interrupting") {
		t.Fatalf("Ctrl+C in a later turn: notice %q", noticeText(m2))
	}
}

// The command line's prompt waits for the login check: with login
// required nothing is sent until the form completes or is skipped; with no
// login needed it is sent after account/read.
func TestInitialPromptWaitsForLogin(t *testing.T) {
	cases := []struct {
		name  string
		login bool
		do    func(t *testing.T, m *Model)
	}{
		{name: "no login needed"},
		{name: "login skipped", login: true, do: func(t *testing.T, m *Model) { press(t, m, tea.KeyEscape, 0) }},
		{name: "API key login", login: true, do: func(t *testing.T, m *Model) {
			press(t, m, tea.KeyEnter, 0)
			typeText(t, m, "sk-secret")
			press(t, m, tea.KeyEnter, 0)
		}},
		{name: "device code login", login: true, do: func(t *testing.T, m *Model) {
			m.Update(act.Done{For: act.ToOverlay, Msg: act.LoginStarted{Login: backend.LoginStartResponse{Type: "chatgptDeviceCode", LoginID: "L1"}}})
			id := "L1"
			_, cmd := m.Update(backend.LoginCompletedEvent{LoginID: &id, Success: true})
			settle(t, m, cmd)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake()
			f.results["account/read"] = map[string]any{"account": nil, "requiresOpenaiAuth": c.login}
			f.results["account/login/start"] = map[string]any{"type": "apiKey"}
			m := ready(t, f, Options{Prompt: "hello from the command line"})
			if c.login {
				if !m.State().LoginOpen || len(f.turns) != 0 {
					t.Fatalf("login open %v, turns %q: the prompt went before the login", m.State().LoginOpen, f.turns)
				}
				c.do(t, m)
			}
			if !reflect.DeepEqual(f.turns, []string{"hello from the command line"}) {
				t.Fatalf("turns %q", f.turns)
			}
			calls := strings.Join(f.called(), " ")
			if strings.Index(calls, "account/read") > strings.Index(calls, "turn/start") {
				t.Fatalf("turn/start before account/read: %s", calls)
			}
		})
	}
}

// Prompts queued during a turn survive an app-server crash: after F5 and a
// successful resume they are sent first, in order, before a new prompt.
func TestQueueFlushedAfterRestart(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{Restart: func(string) (RestartInfo, error) { return RestartInfo{ThreadID: "t-first"}, nil }})
	typeText(t, m, "first")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	for _, q := range []string{"queued one", "queued two"} {
		typeText(t, m, q)
		press(t, m, tea.KeyTab, 0)
	}
	m.Update(backend.ServerExitedEvent{Status: "killed by signal 9 (killed)"})
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyF5})
	done := cmd()
	f2 := newFake()
	_, rc := m.Update(SessionReadyMsg{Client: f2, Model: "mock-model"})
	settle(t, m, rc)
	_, qc := m.Update(done)
	settle(t, m, qc)
	if !reflect.DeepEqual(f2.turns, []string{"queued one"}) {
		t.Fatalf("after restart turns %q, queue %q", f2.turns, m.State().Queued)
	}
	// A prompt typed now waits behind the rest of the queue.
	typeText(t, m, "typed later")
	press(t, m, tea.KeyTab, 0)
	for range 2 {
		_, c := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
		settle(t, m, c)
	}
	if want := []string{"queued one", "queued two", "typed later"}; !reflect.DeepEqual(f2.turns, want) {
		t.Fatalf("turns %q, want %q", f2.turns, want)
	}
}

// Enter with prompts still queued while idle queues the new one behind
// them, so order is kept.
func TestEnterSendsQueueFirst(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	// "older" is queued (Tab) during a turn that then ends with the
	// server gone; the restarted session finds it queued.
	startTurn(m)
	typeText(t, m, "older")
	press(t, m, tea.KeyTab, 0)
	m.Update(backend.ServerExitedEvent{Status: "exited with status 1"})
	_, c := m.Update(SessionReadyMsg{Client: f, Model: "mock-model", Cwd: "~/w"})
	settle(t, m, c)
	if len(f.turns) != 0 || !reflect.DeepEqual(m.State().Queued, []string{"older"}) {
		t.Fatalf("turns %q, queued %q before Enter", f.turns, m.State().Queued)
	}
	typeText(t, m, "newer")
	press(t, m, tea.KeyEnter, 0)
	_, c = m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	settle(t, m, c)
	if want := []string{"older", "newer"}; !reflect.DeepEqual(f.turns, want) {
		t.Fatalf("turns %q, want %q", f.turns, want)
	}
}

// BenchmarkKeyWithPastedDraft is one key press (Update + View) on a draft
// holding a 10,000-line paste: the placeholder keeps it as cheap as on an
// empty draft (it was ~1 s with the text in the textarea).
func BenchmarkKeyWithPastedDraft(b *testing.B) {
	m := benchModel(b)
	m.Update(tea.PasteMsg{Content: bigPaste(10000)})
	for b.Loop() {
		frame(m, tea.KeyPressMsg{Code: 'a', Text: "a"})
		frame(m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	if m.composer.Text() == m.composer.Value() {
		b.Fatal("paste lost")
	}
}

// Quitting at the login form keeps the unsent command-line prompt in the
// history.
func TestQuitAtLoginKeepsPrompt(t *testing.T) {
	dir := t.TempDir()
	f := newFake()
	f.results["account/read"] = map[string]any{"account": nil, "requiresOpenaiAuth": true}
	m := ready(t, f, Options{Prompt: "do not lose me", State: sessions.Open(dir), Workspace: "/w"})
	press(t, m, 'c', tea.ModCtrl)
	if len(f.turns) != 0 {
		t.Fatalf("turns %q", f.turns)
	}
	if h := sessions.Open(dir).History("/w"); !reflect.DeepEqual(h, []string{"do not lose me"}) {
		t.Fatalf("history %q", h)
	}
}

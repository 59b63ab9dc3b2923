package model

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// sideEffects is what a command could have done: the client calls made,
// the turns started and the transcript's cells.
type sideEffects struct {
	calls []string
	turns int
	cells int
}

func effectsOf(m *Model, f *fakeDriver) sideEffects {
	return sideEffects{calls: f.called(), turns: f.turnCount(), cells: len(m.State().Cells)}
}

// assertNothingRan checks that Enter on draft ran and sent nothing: no
// command came back, no call, no turn, no cell; the draft stays.
func assertNothingRan(t *testing.T, m *Model, f *fakeDriver, before sideEffects, cmd tea.Cmd, draft string) {
	t.Helper()
	if cmd != nil {
		t.Errorf("%q: Enter returned a command (%T)", draft, cmd())
	}
	after := effectsOf(m, f)
	if !slices.Equal(after.calls, before.calls) || after.turns != before.turns || after.cells != before.cells {
		t.Errorf("%q: something ran: %+v, before %+v", draft, after, before)
	}
	if got := m.composer.Value(); got != draft {
		t.Errorf("%q: the draft became %q", draft, got)
	}
}

// Enter on a prefix or a fuzzy match of a command — every prefix of every
// destructive command among them — runs and sends nothing, keeps the
// draft, and the status line names the commands it matches.
func TestEnterOnAPartialNameRunsNothing(t *testing.T) {
	type tc struct{ draft, match string }
	tests := []tc{
		{"/st", "/stop"},
		{"/st", "/status"},
		{"/no", "/undo"}, // fuzzy: n…o
		{"/qt", "/quit"},
		{"/", ""}, // "/" alone: the popup lists everything, Enter picks nothing
	}
	probe := ready(t, newFake(), Options{})
	for _, name := range destructive(t, probe) {
		for i := 1; i < len(name); i++ {
			if !isCommand(probe, name[:i]) { // (a prefix that is another command's whole name runs that one)
				tests = append(tests, tc{"/" + name[:i], "/" + name})
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.draft, func(t *testing.T) {
			f := newFake()
			m := ready(t, f, Options{})
			typeText(t, m, tt.draft)
			before := effectsOf(m, f)
			_, cmd := enterNow(m)
			assertNothingRan(t, m, f, before, cmd, tt.draft)
			if tt.match == "" {
				if !strings.Contains(viewText(m), "/ runs nothing") {
					t.Errorf("no notice:\n%s", viewText(m))
				}
				return
			}
			// The notice names up to maxMatchesNamed of the matches; the
			// command is among them or the list goes on ("…").
			n := noticeText(m)
			if !strings.HasPrefix(n, tt.draft+" matches ") || !strings.Contains(n, "type the whole name, or Tab to complete") {
				t.Fatalf("notice %q", n)
			}
			if !strings.Contains(n, tt.match+",") && !strings.Contains(n, tt.match+" ") && !strings.Contains(n, "…") {
				t.Errorf("notice %q does not name %s", n, tt.match)
			}
		})
	}
}

// destructive names the destructive commands as /help lists them.
func destructive(t *testing.T, m *Model) []string {
	t.Helper()
	typeText(t, m, "/help")
	press(t, m, tea.KeyEnter, 0)
	const lead = "these quit, interrupt, discard or rewind: "
	for _, l := range strings.Split(lastBannerLines(m), "\n") {
		if rest, ok := strings.CutPrefix(l, lead); ok {
			var names []string
			for _, n := range strings.Fields(rest) {
				names = append(names, strings.TrimPrefix(n, "/"))
			}
			if len(names) < 5 {
				t.Fatalf("/help names only %v as destructive", names)
			}
			return names
		}
	}
	t.Fatalf("/help names no destructive commands:\n%s", lastBannerLines(m))
	return nil
}

// isCommand reports whether name is a command's whole name.
func isCommand(m *Model, name string) bool {
	for _, e := range m.commands.Entries() {
		if e.Name == name {
			return true
		}
	}
	return false
}

// lastBannerLines is the detail of the transcript's last banner.
func lastBannerLines(m *Model) string {
	for i := len(m.State().Cells) - 1; i >= 0; i-- {
		if b, ok := m.State().Cells[i].(*ui.BannerCell); ok {
			return strings.Join(b.Detail, "\n")
		}
	}
	return ""
}

// Enter runs a command typed whole (with or without arguments) at once.
func TestEnterRunsAWholeName(t *testing.T) {
	tests := []struct {
		draft string
		check func(t *testing.T, m *Model, f *fakeDriver, cmd tea.Cmd)
	}{
		{"/stop", func(t *testing.T, _ *Model, _ *fakeDriver, cmd tea.Cmd) {
			if !quits(cmd) {
				t.Error("/stop with no turn running did not quit")
			}
		}},
		{"/quit", func(t *testing.T, _ *Model, _ *fakeDriver, cmd tea.Cmd) {
			if !quits(cmd) {
				t.Error("/quit did not quit")
			}
		}},
		{"/new", func(t *testing.T, m *Model, f *fakeDriver, cmd tea.Cmd) {
			settle(t, m, cmd)
			if !slices.Contains(f.called(), "thread/start") {
				t.Errorf("/new called %v", f.called())
			}
		}},
		{"/rename Better name", func(t *testing.T, m *Model, f *fakeDriver, cmd tea.Cmd) {
			settle(t, m, cmd)
			if !slices.Contains(f.called(), "thread/name/set") {
				t.Errorf("/rename called %v", f.called())
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.draft, func(t *testing.T) {
			f := newFake()
			m := ready(t, f, Options{})
			typeText(t, m, tt.draft)
			_, cmd := enterNow(m)
			tt.check(t, m, f, cmd)
			if got := m.composer.Value(); got != "" {
				t.Errorf("the draft %q stayed after the command ran", got)
			}
		})
	}
}

// Moving onto a command in the popup (↓/↑, Ctrl+N/P) picks it: Enter runs
// it whatever was typed.
func TestPopupPickRunsTheHighlightedCommand(t *testing.T) {
	for _, keys := range [][2]tea.Key{{{Code: tea.KeyDown}, {Code: tea.KeyUp}}, {{Code: 'n', Mod: tea.ModCtrl}, {Code: 'p', Mod: tea.ModCtrl}}} {
		t.Run(tea.KeyPressMsg(keys[0]).String(), func(t *testing.T) {
			m, f := rewindModel(t, after())
			typeText(t, m, "/u")
			// Down as far as /undo (and back up once if it is first: a move
			// onto it all the same).
			moved := false
			for i := 0; highlighted(m) != "/undo"; i++ {
				if i > len(m.commands.Entries()) {
					labels, _, _ := m.composer.Popup()
					t.Fatalf("/undo is not in the popup of /u: %v", labels)
				}
				press(t, m, keys[0].Code, keys[0].Mod)
				moved = true
			}
			if !moved {
				press(t, m, keys[0].Code, keys[0].Mod)
				press(t, m, keys[1].Code, keys[1].Mod)
			}
			if h := highlighted(m); h != "/undo" {
				t.Fatalf("highlighted %s", h)
			}
			press(t, m, tea.KeyEnter, 0)
			if v := viewText(m); !strings.Contains(v, "Undo the last turn and its file changes") {
				t.Fatalf("Enter on the picked /undo did not run it:\n%s", v)
			}
			if slices.Contains(f.called(), "thread/fork") {
				t.Error("forked before the undo was chosen")
			}
		})
	}
}

// highlighted is the popup's highlighted label ("" when none).
func highlighted(m *Model) string {
	labels, sel, _ := m.composer.Popup()
	if sel >= len(labels) {
		return ""
	}
	return labels[sel]
}

// Tab completes the highlighted command (the first match, or the one
// moved onto) and runs nothing; Enter then runs the whole name.
func TestTabCompletesTheHighlightedCommand(t *testing.T) {
	for _, down := range []int{0, 1} {
		f := newFake()
		m := ready(t, f, Options{})
		typeText(t, m, "/st")
		for range down {
			press(t, m, tea.KeyDown, 0)
		}
		want := strings.TrimPrefix(highlighted(m), "/")
		before := effectsOf(m, f)
		press(t, m, tea.KeyTab, 0)
		if got := m.composer.Value(); got != "/"+want+" " {
			t.Fatalf("down %d: Tab made %q, want %q", down, got, "/"+want+" ")
		}
		if after := effectsOf(m, f); !slices.Equal(after.calls, before.calls) || after.cells != before.cells {
			t.Errorf("down %d: Tab ran something: %+v", down, after)
		}
		if !isCommand(m, want) {
			t.Fatalf("completed to %q, not a command", want)
		}
	}
	// The completed whole name runs.
	m := ready(t, newFake(), Options{})
	typeText(t, m, "/qu")
	press(t, m, tea.KeyTab, 0)
	if _, cmd := enterNow(m); m.composer.Value() != "" || !quits(cmd) {
		t.Errorf("Enter on the completed %q did not quit", m.composer.Value())
	}
}

// An unknown command, and one refused now, keep the draft; a path or a
// leading space is a message.
func TestRefusedCommandKeepsTheDraft(t *testing.T) {
	t.Run("unknown", func(t *testing.T) {
		f := newFake()
		m := ready(t, f, Options{})
		typeText(t, m, "/frobnicate now")
		before := effectsOf(m, f)
		_, cmd := enterNow(m)
		assertNothingRan(t, m, f, before, cmd, "/frobnicate now")
		if !strings.Contains(noticeText(m), "/frobnicate is not a command") {
			t.Errorf("notice %q", noticeText(m))
		}
	})
	t.Run("idle-only during a turn", func(t *testing.T) {
		m := ready(t, newFake(), Options{})
		typeText(t, m, "go")
		press(t, m, tea.KeyEnter, 0)
		m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
		typeText(t, m, "/undo")
		press(t, m, tea.KeyEnter, 0)
		if got := m.composer.Value(); got != "/undo" || !strings.Contains(noticeText(m), "can't run while a turn is running") {
			t.Errorf("draft %q, notice %q", got, noticeText(m))
		}
	})
	t.Run("detach without the daemon", func(t *testing.T) {
		m := ready(t, newFake(), Options{})
		typeText(t, m, "/detach")
		press(t, m, tea.KeyEnter, 0)
		if got := m.composer.Value(); got != "/detach" || !strings.Contains(noticeText(m), "/detach is for a session on the codex daemon") {
			t.Errorf("draft %q, notice %q", got, noticeText(m))
		}
	})
	for _, msg := range []string{"/usr/bin/env is missing", " /stop is a command"} {
		t.Run(msg, func(t *testing.T) {
			f := newFake()
			m := ready(t, f, Options{})
			typeText(t, m, msg)
			press(t, m, tea.KeyEnter, 0)
			if f.turnCount() != 1 || m.composer.Value() != "" {
				t.Errorf("%q not sent as a message: turns %d, draft %q", msg, f.turnCount(), m.composer.Value())
			}
		})
	}
}

// runningStop is a model with a turn running and "/stop" typed, on a
// clock the test moves.
func runningStop(t *testing.T) (*Model, *pacedClock) {
	t.Helper()
	now := newPacedClock(time.Unix(1000, 0))
	m := ready(t, newFake(), Options{Clock: now})
	typeText(t, m, "go")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	typeText(t, m, "/stop")
	return m, now
}

const stopQ = "a turn is running: /stop interrupts it and quits — Enter again to confirm, Esc to keep it"

// /stop during a turn asks first, on the screen; an Enter before the
// question could be read counts for nothing; Enter after it confirms.
func TestStopMidTurnAsksFirst(t *testing.T) {
	m, now := runningStop(t)
	if _, cmd := enterNow(m); cmd != nil {
		t.Fatalf("the first Enter ran /stop: %T", cmd())
	}
	if v := viewText(m); !strings.Contains(strings.Join(strings.Fields(v), " "), stopQ) {
		t.Fatalf("no question on the screen:\n%s", v)
	}
	if m.composer.Value() != "/stop" || !m.State().Running {
		t.Fatalf("draft %q running %v", m.composer.Value(), m.State().Running)
	}
	// Keys in flight, a held Enter: too soon to be an answer, and each
	// one restarts the wait.
	for range 3 {
		now.Add(m.opts.FormQuiet / 2)
		if _, cmd := enterNow(m); cmd != nil {
			t.Fatal("an Enter right after the question confirmed it")
		}
	}
	if m.commands.Question() == "" {
		t.Fatal("the early Enters dropped the question")
	}
	now.Add(m.opts.FormQuiet)
	_, cmd := enterNow(m)
	if cmd == nil {
		t.Fatal("Enter after the question did not confirm")
	}
	if d, ok := cmd().(act.Done); !ok || d.Msg != (act.Interrupted{Stop: true}) {
		t.Fatal("the confirmed /stop did not interrupt first")
	}
	if m.composer.Value() != "" || m.commands.Question() != "" {
		t.Errorf("after the confirmation: draft %q, question %q", m.composer.Value(), m.commands.Question())
	}
}

// Esc keeps the turn (it does not interrupt it either) and the draft; any
// other key cancels the question and acts as usual.
func TestStopQuestionCancels(t *testing.T) {
	tests := []struct {
		name  string
		key   tea.KeyPressMsg
		draft string
	}{
		{"esc", tea.KeyPressMsg{Code: tea.KeyEscape}, "/stop"},
		{"typing", tea.KeyPressMsg{Code: 'x', Text: "x"}, "/stopx"},
		{"backspace", tea.KeyPressMsg{Code: tea.KeyBackspace}, "/sto"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, now := runningStop(t)
			enterNow(m)
			now.Add(time.Minute)
			_, cmd := keyNow(m, tt.key)
			settle(t, m, cmd)
			if m.commands.Question() != "" || strings.Contains(viewText(m), "Enter again to confirm") {
				t.Fatalf("the question is still up:\n%s", viewText(m))
			}
			if !m.State().Running || m.turn.Interrupting() {
				t.Errorf("the turn was interrupted (running %v)", m.State().Running)
			}
			if got := m.composer.Value(); got != tt.draft {
				t.Errorf("draft %q, want %q", got, tt.draft)
			}
			// Enter now asks again (or refuses the edited draft): never
			// the old confirmation.
			if _, cmd := enterNow(m); cmd != nil {
				t.Errorf("Enter after the cancel ran something: %T", cmd())
			}
		})
	}
}

// The question lasts only while it holds: once the turn it was asked in
// has ended it is gone, and Enter during a new turn asks again rather
// than confirm the old question.
func TestStopQuestionFollowsTheTurn(t *testing.T) {
	m, now := runningStop(t)
	enterNow(m)
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	if m.commands.Question() != "" {
		t.Fatal("the question outlived its turn")
	}
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-2"}})
	now.Add(time.Minute)
	if !m.State().Running {
		t.Fatal("turn-2 is not running")
	}
	if _, cmd := enterNow(m); cmd != nil || m.commands.Question() == "" {
		t.Errorf("a new turn's /stop did not ask again (cmd %v)", cmd != nil)
	}
}

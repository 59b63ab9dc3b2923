package model

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/status"
	"tandem/ui"
)

// inline is a --no-alt-screen model whose prints are recorded (each
// print's text, plain) instead of reaching a terminal; the terminal's
// acknowledgement is sent by ack.
type inline struct {
	*Model
	prints []string
}

func newInline(t *testing.T, w, h int) *inline {
	t.Helper()
	in := &inline{Model: New(Options{NoAltScreen: true, NoColor: true})}
	in.panes.SetPrinter(func(text string) tea.Cmd {
		in.prints = append(in.prints, ansi.Strip(text))
		return nil
	})
	in.Update(tea.WindowSizeMsg{Width: w, Height: h})
	_, cmd := in.Update(SessionReadyMsg{Client: newFake(), Model: "mock-model", Cwd: "~/w"})
	settle(t, in.Model, cmd)
	in.ack()
	return in
}

// ack acknowledges the prints in flight until none is (a chunked history
// takes several).
func (in *inline) ack() {
	for i := 0; i < 1000; i++ {
		ack, ok := in.panes.InFlight()
		if !ok {
			break
		}
		in.Update(ack)
	}
}

// printed is everything printed so far.
func (in *inline) printed() string { return strings.Join(in.prints, "\n") }

// sbStep is one thing that happens to an inline model.
type sbStep struct {
	msg tea.Msg
	// noAck leaves the print in flight (the terminal has not taken it).
	noAck bool
}

func ev(msg tea.Msg) sbStep { return sbStep{msg: msg} }

func agentStarted(id string) tea.Msg {
	return backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: id}}
}

func agentDelta(id, text string) tea.Msg {
	return backend.AgentMessageDeltaEvent{ItemID: id, Delta: text}
}

func agentDone(id, text string) tea.Msg {
	return backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: id, Text: text}}
}

func cmdStarted(id, command string) tea.Msg {
	return backend.ItemStartedEvent{Item: backend.Item{Type: "commandExecution", ID: id, Command: command, Status: "inProgress"}}
}

func cmdDone(id, command string) tea.Msg {
	zero := 0
	return backend.ItemCompletedEvent{Item: backend.Item{Type: "commandExecution", ID: id, Command: command, Status: "completed", ExitCode: &zero}}
}

var (
	turnStarted = backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}}
	turnDone    = backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: "completed"}}
)

func userItem(id, text string) tea.Msg {
	return backend.ItemCompletedEvent{Item: backend.Item{Type: "userMessage", ID: id, Content: []backend.UserContent{{Type: "text", Text: text}}}}
}

func plan(steps ...string) tea.Msg {
	var p []backend.PlanStep
	for i, s := range steps {
		st := "pending"
		if strings.HasPrefix(s, "+") {
			st, s = "completed", s[1:]
		} else if i == 0 {
			st = "inProgress"
		}
		p = append(p, backend.PlanStep{Step: s, Status: st})
	}
	return backend.PlanUpdatedEvent{Plan: p}
}

// count is how many times marker occurs in s.
func count(s, marker string) int { return strings.Count(s, marker) }

// TestScrollbackPrintsEachFinishedCellOnceInOrder is the emission rule
// as a table: after each event sequence, which markers are printed (each
// exactly once, in this order) and which are still live (on screen, not
// printed).
func TestScrollbackPrintsEachFinishedCellOnceInOrder(t *testing.T) {
	tests := []struct {
		name    string
		steps   []sbStep
		printed []string // in order, each once
		live    []string // in the live area, not printed
	}{
		{
			name:  "a streaming answer waits in the live area",
			steps: []sbStep{ev(turnStarted), ev(agentStarted("a")), ev(agentDelta("a", "Streaming words")), ev(status.Tick{})},
			live:  []string{"Streaming words"},
		},
		{
			name:    "a completed answer is printed once",
			steps:   []sbStep{ev(turnStarted), ev(agentStarted("a")), ev(agentDelta("a", "Half")), ev(agentDone("a", "Half and whole.")), ev(turnDone)},
			printed: []string{"Half and whole."},
		},
		{
			name: "a running command holds back the answer after it",
			steps: []sbStep{ev(turnStarted), ev(cmdStarted("c", "sleep 5")), ev(agentStarted("a")),
				ev(agentDone("a", "Answer after the command."))},
			live: []string{"sleep 5", "Answer after the command."},
		},
		{
			name: "the command completes: both, the command first",
			steps: []sbStep{ev(turnStarted), ev(cmdStarted("c", "sleep 5")), ev(agentStarted("a")),
				ev(agentDone("a", "Answer after the command.")), ev(cmdDone("c", "sleep 5"))},
			printed: []string{"sleep 5", "Answer after the command."},
		},
		{
			name:    "a turn that ends prints what never completed",
			steps:   []sbStep{ev(turnStarted), ev(agentStarted("a")), ev(agentDelta("a", "Cut off mid")), ev(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: "interrupted"}})},
			printed: []string{"Cut off mid", "Turn interrupted"},
		},
		{
			name:    "banners and items in the order they came",
			steps:   []sbStep{ev(InfoMsg{Text: "first banner"}), ev(userItem("u", "the prompt")), ev(InfoMsg{Text: "second banner"})},
			printed: []string{"first banner", "the prompt", "second banner"},
		},
		{
			name:  "a plan alone stays live",
			steps: []sbStep{ev(turnStarted), ev(plan("Read the code", "Fix it"))},
			live:  []string{"Read the code"},
		},
		{
			name: "a plan is printed once something follows, and again when it changes",
			steps: []sbStep{ev(turnStarted), ev(plan("Read the code", "Fix it")), ev(agentStarted("a")), ev(agentDone("a", "Read it.")),
				ev(plan("+Read the code", "Fix it")), ev(turnDone)},
			printed: []string{"Plan 0/2 done", "Read it.", "Plan 1/2 done"},
		},
		{
			name:  "a print in flight is not printed again",
			steps: []sbStep{{msg: InfoMsg{Text: "in flight"}, noAck: true}, {msg: InfoMsg{Text: "waiting"}, noAck: true}, {msg: tea.WindowSizeMsg{Width: 60, Height: 30}, noAck: true}},
			// the second banner waits for the first's acknowledgement
			printed: []string{"in flight"},
			live:    []string{"waiting"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := newInline(t, 100, 30)
			in.prints = nil
			for _, s := range tt.steps {
				in.Update(s.msg)
				if !s.noAck {
					in.ack()
				}
			}
			out := in.printed()
			at := 0
			for _, p := range tt.printed {
				if n := count(out, p); n != 1 {
					t.Errorf("%q printed %d times; printed:\n%s", p, n, out)
				}
				i := strings.Index(out[at:], p)
				if i < 0 {
					t.Errorf("%q not printed after offset %d (out of order?); printed:\n%s", p, at, out)
					continue
				}
				at += i + len(p)
			}
			screen := viewText(in.Model)
			for _, l := range tt.live {
				if count(out, l) != 0 {
					t.Errorf("%q printed while it is live; printed:\n%s", l, out)
				}
				if !strings.Contains(screen, l) {
					t.Errorf("%q not in the live area:\n%s", l, screen)
				}
			}
		})
	}
}

// A resize re-wraps only the live area: nothing printed is printed again,
// and what finishes next is drawn at the new width.
func TestScrollbackResizeDoesNotReprint(t *testing.T) {
	in := newInline(t, 100, 30)
	long := strings.Repeat("word ", 40)
	in.Update(turnStarted)
	in.Update(agentStarted("a"))
	in.Update(agentDone("a", "First. "+long))
	in.ack()
	before := len(in.prints)
	for _, w := range []int{60, 140, 45, 100, 33} {
		in.Update(tea.WindowSizeMsg{Width: w, Height: 20 + w%7})
		in.ack()
		in.Update(in.panes.ResizeDone())
		in.ack()
	}
	if len(in.prints) != before {
		t.Fatalf("resizes printed %d more times: %q", len(in.prints)-before, in.prints[before:])
	}
	in.Update(agentStarted("b"))
	in.Update(agentDone("b", "Second. "+long))
	in.ack()
	last := strings.Join(in.prints[before:], "\n") // a tall cell goes out in several prints
	if count(in.printed(), "First.") != 1 || count(last, "Second.") != 1 {
		t.Fatalf("prints: %q", in.prints)
	}
	for _, l := range strings.Split(last, "\n") {
		if w := ansi.StringWidth(l); w > 33 {
			t.Errorf("a line of the answer after the resize is %d wide, not ≤ 33: %q", w, l)
		}
	}
}

// A cell taller than the window shows its last lines under a line that
// says how many are above; the frame never exceeds the window.
func TestScrollbackLiveAreaBounded(t *testing.T) {
	in := newInline(t, 80, 12)
	in.Update(turnStarted)
	in.Update(agentStarted("a"))
	var b strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "line %d\n\n", i)
	}
	in.Update(agentDelta("a", b.String()))
	in.Update(status.Tick{})
	screen := viewText(in.Model)
	if n := strings.Count(screen, "\n") + 1; n > 12 {
		t.Fatalf("the frame is %d rows on a 12-row window:\n%s", n, screen)
	}
	if !strings.Contains(screen, "more lines: printed when done") || !strings.Contains(screen, "line 60") || strings.Contains(screen, "line 1\n") {
		t.Fatalf("the live area does not show the tail under a count:\n%s", screen)
	}
	if v := in.View(); v.AltScreen || v.MouseMode != tea.MouseModeNone {
		t.Errorf("inline view: alt screen %v, mouse %v", v.AltScreen, v.MouseMode)
	}
}

// The pager is a full screen: nothing is printed while it is open (it
// would go into the alternate screen), nor until the renderer has left
// it; then what finished meanwhile is printed, once.
func TestScrollbackHoldsWhileFullScreen(t *testing.T) {
	in := newInline(t, 100, 30)
	in.Update(turnStarted)
	in.Update(agentStarted("a"))
	in.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	if !in.State().PagerOpen || !in.View().AltScreen {
		t.Fatal("ctrl+t did not open the pager in the alternate screen")
	}
	in.Update(agentDone("a", "Done behind the pager."))
	in.ack()
	if count(in.printed(), "Done behind the pager.") != 0 {
		t.Fatal("printed while the pager was open")
	}
	in.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	in.ack()
	if in.View().AltScreen || count(in.printed(), "Done behind the pager.") != 0 {
		t.Fatal("printed before the renderer left the alternate screen")
	}
	in.Update(in.panes.HoldDone())
	in.ack()
	if count(in.printed(), "Done behind the pager.") != 1 {
		t.Fatalf("after the pager closed: %q", in.prints)
	}
}

// A print still in flight keeps the next view inline: it must reach the
// normal screen before the pager takes the alternate one.
func TestScrollbackPagerWaitsForPrintInFlight(t *testing.T) {
	in := newInline(t, 100, 30)
	in.Update(InfoMsg{Text: "on its way"})
	in.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	if in.View().AltScreen {
		t.Fatal("the pager took the alternate screen with a print in flight")
	}
	in.ack()
	if !in.View().AltScreen {
		t.Fatal("the pager did not open once the print was acknowledged")
	}
}

// A resumed history is printed once, in order, a chunk at a time.
func TestScrollbackPrintsHistoryInChunks(t *testing.T) {
	m := New(Options{NoAltScreen: true, NoColor: true})
	in := &inline{Model: m}
	in.panes.SetPrinter(func(text string) tea.Cmd { in.prints = append(in.prints, ansi.Strip(text)); return nil })
	in.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	var turns []backend.Turn
	for i := 1; i <= 300; i++ {
		turns = append(turns, backend.Turn{ID: fmt.Sprint("t", i), Status: "completed", Items: []backend.Item{
			{Type: "userMessage", ID: fmt.Sprint("u", i), Content: []backend.UserContent{{Type: "text", Text: fmt.Sprintf("question %03d", i)}}},
			{Type: "agentMessage", ID: fmt.Sprint("a", i), Text: fmt.Sprintf("answer %03d", i)},
		}})
	}
	_, cmd := in.Update(SessionReadyMsg{Client: newFake(), Model: "mock-model", History: turns})
	settle(t, in.Model, cmd)
	in.ack()
	if len(in.prints) < 2 {
		t.Errorf("300 turns went out in %d print(s), not in chunks", len(in.prints))
	}
	// A print scrolls the screen by its rows: never more than lie above
	// the live area, or the live area itself would scroll into the
	// scrollback.
	for i, p := range in.prints {
		rows := strings.Count(p, "\n") + 1
		if frame := strings.Count(in.View().Content, "\n") + 1; rows+frame > 30 {
			t.Fatalf("print %d has %d rows above a %d-row frame on a 30-row window", i, rows, frame)
		}
	}
	out := in.printed()
	at := 0
	for i := 1; i <= 300; i++ {
		for _, want := range []string{fmt.Sprintf("question %03d", i), fmt.Sprintf("answer %03d", i)} {
			if n := count(out, want); n != 1 {
				t.Fatalf("%q printed %d times", want, n)
			}
			j := strings.Index(out, want)
			if j < at {
				t.Fatalf("%q out of order", want)
			}
			at = j
		}
	}
}

// A thread switch never erases the scrollback: a fork of the thread shown
// prints a separator and not its history again; another thread's history
// is printed after one.
func TestScrollbackThreadSwitch(t *testing.T) {
	hist := []backend.Turn{{ID: "t1", Status: "completed", Items: []backend.Item{
		{Type: "userMessage", ID: "u1", Content: []backend.UserContent{{Type: "text", Text: "old question"}}},
		{Type: "agentMessage", ID: "a1", Text: "old answer"},
	}}}
	tests := []struct {
		name    string
		msg     act.ThreadSwitched
		printed []string
		history int // times the history is printed after the switch
	}{
		{"fork of the thread shown", act.ThreadSwitched{How: act.HowForked, From: "t-first"}, []string{"── forked into thread", "Forked into thread"}, 0},
		{"rewind", act.ThreadSwitched{How: act.HowRewound}, []string{"── rewound to an earlier message", "Rewound"}, 0},
		{"resume of another thread", act.ThreadSwitched{How: act.HowResumed}, []string{"── resumed thread", "old question", "old answer", "Resumed thread"}, 1},
		{"fork of another thread", act.ThreadSwitched{How: act.HowForked, From: "t-other"}, []string{"── forked thread", "old question", "Forked into thread"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := newInline(t, 100, 30)
			in.panes.SetThread("t-first")
			in.Update(userItem("u1", "old question"))
			in.Update(agentDone("a1", "old answer"))
			in.ack()
			in.prints = nil
			msg := tt.msg
			msg.Response = backend.ThreadResponse{Thread: backend.Thread{ID: "t-second", Preview: "old question", Turns: hist}, Model: "mock-model"}
			in.Update(switched(msg))
			in.ack()
			out := in.printed()
			at := 0
			for _, p := range tt.printed {
				i := strings.Index(out[at:], p)
				if i < 0 {
					t.Fatalf("%q not printed in order; printed:\n%s", p, out)
				}
				at += i + len(p)
			}
			if n := count(out, "old answer"); n != tt.history {
				t.Errorf("the history was printed %d times after the switch, want %d:\n%s", n, tt.history, out)
			}
			// and the new thread goes on as usual
			in.Update(userItem("u2", "new question"))
			in.ack()
			if count(in.printed(), "new question") != 1 {
				t.Errorf("the new thread's cells are not printed: %q", in.prints)
			}
		})
	}
}

// Quitting prints what is still live, after the print in flight.
func TestScrollbackQuitPrintsWhatIsLive(t *testing.T) {
	in := newInline(t, 100, 30)
	in.Update(turnStarted)
	in.Update(InfoMsg{Text: "in flight at quit"})
	in.Update(agentStarted("a"))
	in.Update(agentDelta("a", "half an answer"))
	if cmd := in.Quit(); cmd != nil || !in.panes.QuitWaits() {
		t.Fatal("quit did not wait for the print in flight")
	}
	in.ack()
	out := in.printed()
	if count(out, "in flight at quit") != 1 || count(out, "half an answer") != 1 || strings.Index(out, "in flight") > strings.Index(out, "half an") {
		t.Fatalf("printed at quit: %q", in.prints)
	}
	// The cut answer is followed by what became of its turn.
	if i := strings.Index(out, "quit mid-turn: the turn stops with the app-server"); i < strings.Index(out, "half an answer") {
		t.Fatalf("no note after the cut answer: %q", in.prints)
	}
	if viewText(in.Model) != "" {
		t.Errorf("the live area is not cleared at quit: %q", viewText(in.Model))
	}
}

// Without NoAltScreen nothing is printed and the view is the alternate
// screen's, as always.
func TestAltScreenPrintsNothing(t *testing.T) {
	m := New(Options{NoColor: true})
	printed := 0
	m.panes.SetPrinter(func(string) tea.Cmd { printed++; return nil })
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	m.Update(InfoMsg{Text: "a banner"})
	if v := m.View(); !v.AltScreen || printed != 0 {
		t.Fatalf("alt screen %v, prints %d", v.AltScreen, printed)
	}
}

// TrimRight keeps the escapes at a line's end and drops its blanks.
func TestTrimRight(t *testing.T) {
	for in, want := range map[string]string{
		"plain   ":                       "plain",
		"\x1b[1mbold\x1b[0m   ":          "\x1b[1mbold\x1b[0m",
		"\x1b[2mdim   \x1b[0m  ":         "\x1b[2mdim\x1b[0m",
		"  inside  space\x1b[0m":         "  inside  space\x1b[0m",
		"":                               "",
		"   ":                            "",
		"wide 漢字 ":                       "wide 漢字",
		"\x1b[38;5;2mgreen\x1b[m \x1b[m": "\x1b[38;5;2mgreen\x1b[m\x1b[m",
	} {
		if got := ui.TrimRight(in); got != want {
			t.Errorf("TrimRight(%q) = %q, want %q", in, got, want)
		}
	}
}

// PgUp with --no-alt-screen says where the conversation is: the
// terminal's scrollback (tandem has no transcript of its own to scroll).
func TestScrollbackPgUpPointsAtTheTerminal(t *testing.T) {
	in := newInline(t, 100, 30)
	in.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	if s := viewText(in.Model); !strings.Contains(s, "scroll it there") {
		t.Fatalf("PgUp said nothing:\n%s", s)
	}
}

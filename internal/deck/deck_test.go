package deck

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/reqtest"
	"tandem/model"
)

type ping int

type trigger struct{}

// A lane's commands come back tagged to that lane through the real Bubble
// Tea runtime: a batch, a sequence (in order) and a timer; Bubble Tea's
// own quit passes through and ends the program.
func TestLaneCommandsComeBackToTheirLane(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	pong := func(n int) tea.Cmd { return func() tea.Msg { return ping(n) } }
	pings := 0
	panes[1].cmdFor = func(msg tea.Msg) tea.Cmd { // on the program's goroutine
		switch msg.(type) {
		case trigger:
			return tea.Batch(pong(1), tea.Sequence(pong(2), pong(3)),
				tea.Tick(time.Millisecond, func(time.Time) tea.Msg { return ping(4) }))
		case ping:
			if pings++; pings == 4 { // all back: quit
				return tea.Quit
			}
		}
		return nil
	}
	p := tea.NewProgram(d, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutRenderer(), tea.WithoutSignals())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	p.Send(LaneMsg{Lane: 2, Msg: trigger{}})
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute): // a hang: the quit did not pass through
		p.Kill()
		t.Fatalf("the program did not quit; lane b got %v", received[tea.Msg](panes[1]))
	}
	got := received[ping](panes[1])
	for _, want := range []ping{1, 2, 3, 4} {
		if !slices.Contains(got, want) {
			t.Errorf("lane b got pings %v, not %d", got, want)
		}
	}
	if i, j := slices.Index(got, 2), slices.Index(got, 3); i > j {
		t.Errorf("the sequence came back out of order: %v", got)
	}
	if n := received[ping](panes[0]); len(n) > 0 {
		t.Errorf("the focused lane a got lane b's pings %v", n)
	}
	if n := received[LaneMsg](panes[1]); len(n) > 0 {
		t.Errorf("lane b got its messages still wrapped: %v", n)
	}
}

type execDone struct{}

// Keys, pastes and untagged messages go to the focused lane; a window
// size to every lane; once the command center is open its keys are the
// deck's (typing filters).
func TestKeysGoToTheFocusedLane(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	for _, k := range text("hi") {
		d.Update(k)
	}
	d.Update(tea.PasteMsg{Content: "pasted"})
	d.Update(execDone{})
	if got := received[tea.KeyPressMsg](panes[0]); len(got) != 2 {
		t.Errorf("lane a got keys %v, want 2", got)
	}
	if len(received[tea.PasteMsg](panes[0])) != 1 || len(received[execDone](panes[0])) != 1 {
		t.Errorf("lane a got no paste or no exec callback: %v", received[tea.Msg](panes[0]))
	}
	if got := received[tea.KeyPressMsg](panes[1]); len(got) > 0 {
		t.Errorf("lane b, not focused, got keys %v", got)
	}
	for _, p := range panes {
		if len(received[tea.WindowSizeMsg](p)) == 0 {
			t.Errorf("lane %s got no window size", p.name)
		}
	}
	d.Update(keyOf(tea.KeyF4, 0)) // the command center
	for _, k := range text("b") {
		d.Update(k)
	}
	if got := received[tea.KeyPressMsg](panes[0]); len(got) != 2 {
		t.Errorf("lane a got the command center's keys: %v", got)
	}
	if s := screen(d); !strings.Contains(s, "filter: b") {
		t.Errorf("typing did not filter:\n%s", s)
	}
	d.Update(keyOf(tea.KeyEnter, 0)) // opens b, the one row left
	for _, k := range text("x") {
		d.Update(k)
	}
	if got := received[tea.KeyPressMsg](panes[1]); len(got) != 1 {
		t.Errorf("lane b, opened, got keys %v, want 1", got)
	}
	if s := screen(d); s != "the lane b" {
		t.Errorf("the screen is %q, not lane b's view", s)
	}
}

// The focused lane is told how many other threads wait (model.DeckInfo),
// when that number changes or the focus moves, and only then.
func TestDeckInfoCountsTheOthersWaiting(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b", "c")
	infos := func(p *fakePane) []model.DeckInfo { return received[model.DeckInfo](p) }
	if got := infos(panes[0]); len(got) != 1 || got[0] != (model.DeckInfo{Waiting: 0, Key: "f4"}) {
		t.Fatalf("lane a got %v, want one DeckInfo{0 f4}", got)
	}
	rep := &reqtest.Replies{}
	panes[2].set(func(s *model.State) { s.Pending = append(s.Pending, pendingReq(t, rep, "1")) })
	d.Update(LaneMsg{Lane: 3, Msg: ping(0)})
	panes[1].set(func(s *model.State) { s.Summary.Phase = model.PhaseWaiting })
	d.Update(LaneMsg{Lane: 2, Msg: ping(0)})
	d.Update(LaneMsg{Lane: 2, Msg: ping(1)}) // nothing changes: nothing sent
	want := []model.DeckInfo{{Waiting: 0, Key: "f4"}, {Waiting: 1, Key: "f4"}, {Waiting: 2, Key: "f4"}}
	if got := infos(panes[0]); !slices.Equal(got, want) {
		t.Errorf("lane a got %v, want %v", got, want)
	}
	// Focus moves to c: it counts a and b (b waits).
	d.Update(keyOf(tea.KeyF4, 0))
	d.Update(keyOf(tea.KeyDown, 0))
	d.Update(keyOf(tea.KeyDown, 0))
	d.Update(keyOf(tea.KeyEnter, 0))
	if got := infos(panes[2]); !slices.Equal(got, []model.DeckInfo{{Waiting: 1, Key: "f4"}}) {
		t.Errorf("lane c, focused, got %v, want [{1 f4}]", got)
	}
	if got := infos(panes[1]); len(got) > 0 {
		t.Errorf("lane b, never focused, got %v", got)
	}
}

// Each lane is told whether it is on screen (model.ShownMsg), once per
// change: the focused one true, the others false; the list shows none;
// opening another lane moves it.
func TestLanesAreToldWhetherShown(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	shown := func(p *fakePane) []bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		var out []bool
		for _, m := range p.got {
			if s, ok := m.(model.ShownMsg); ok {
				out = append(out, s.Shown)
			}
		}
		return out
	}
	feed(d, LaneMsg{Lane: 2, Msg: ping(0)})
	feed(d, LaneMsg{Lane: 1, Msg: ping(1)})
	if a, b := shown(panes[0]), shown(panes[1]); !slices.Equal(a, []bool{true}) || !slices.Equal(b, []bool{false}) {
		t.Fatalf("focused a told %v, b %v; want [true], [false]", a, b)
	}
	feed(d, keyOf(tea.KeyF4, 0)) // the list: no lane on screen
	if a := shown(panes[0]); !slices.Equal(a, []bool{true, false}) {
		t.Fatalf("a on the list's opening told %v", a)
	}
	feed(d, keyOf(tea.KeyDown, 0))
	feed(d, keyOf(tea.KeyEnter, 0)) // open b
	if a, b := shown(panes[0]), shown(panes[1]); !slices.Equal(a, []bool{true, false}) || !slices.Equal(b, []bool{false, true}) {
		t.Fatalf("b opened: a told %v, b %v", a, b)
	}
}

func rawOf(msgs []tea.Msg) []string {
	var out []string
	for _, m := range msgs {
		if r, ok := m.(tea.RawMsg); ok {
			out = append(out, r.Msg.(string))
		}
	}
	return out
}

// A lane not on screen folds its messages and is never drawn.
func TestBackgroundLaneIsNeverDrawn(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	for i := range 50 {
		d.Update(LaneMsg{Lane: 2, Msg: ping(i)})
		d.View()
	}
	if n := panes[1].viewCount(); n != 0 {
		t.Errorf("the background lane was drawn %d times", n)
	}
	if n := len(received[ping](panes[1])); n != 50 {
		t.Errorf("the background lane folded %d of 50 messages", n)
	}
	if n := panes[0].viewCount(); n != 50 {
		t.Errorf("the focused lane was drawn %d times, want 50", n)
	}
}

// screen is the deck's screen as plain text.
func screen(d *Model) string { return stripped(d.View().Content) }

// Turns that end while a lane is not on screen are unread until it is
// opened.
func TestUnreadUntilOpened(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	d.Update(keyOf(tea.KeyF4, 0))
	row := func() string {
		for _, l := range strings.Split(screen(d), "\n") {
			if strings.Contains(l, " b ") {
				return l
			}
		}
		return ""
	}
	if r := row(); !strings.Contains(r, "idle") {
		t.Fatalf("b's row before: %q", r)
	}
	panes[1].set(func(s *model.State) { s.Summary.Turns = 1 })
	d.Update(LaneMsg{Lane: 2, Msg: ping(0)})
	if r := row(); !strings.Contains(r, "done · unread") {
		t.Errorf("b's row after a turn ended unseen: %q", r)
	}
	d.Update(keyOf(tea.KeyDown, 0))
	d.Update(keyOf(tea.KeyEnter, 0))
	d.Update(keyOf(tea.KeyF4, 0))
	if r := row(); !strings.Contains(r, "idle") {
		t.Errorf("b's row once opened: %q", r)
	}
	// A turn ending while b is on screen is read.
	d.Update(keyOf(tea.KeyEnter, 0))
	panes[1].set(func(s *model.State) { s.Summary.Turns = 2 })
	d.Update(LaneMsg{Lane: 2, Msg: ping(1)})
	d.Update(keyOf(tea.KeyF4, 0))
	if r := row(); !strings.Contains(r, "idle") {
		t.Errorf("b's row after a turn it showed: %q", r)
	}
}

// A lane dropped (its thread stopped or archived) with a request still
// waiting gets it refused: the server gets an answer though no one will
// see the lane again; the other lanes' requests stay.
func TestDroppedLaneRefusesWhatWaits(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	rep, other := &reqtest.Replies{}, &reqtest.Replies{}
	panes[1].set(func(s *model.State) { s.Pending = append(s.Pending, pendingReq(t, rep, "7")) })
	panes[0].set(func(s *model.State) { s.Pending = append(s.Pending, pendingReq(t, other, "8")) })
	feed(d, LaneMsg{Lane: 2, Msg: ping(0)})
	feed(d, DropLane{Lane: 2})
	if got := rep.All(); len(got) != 1 || !strings.Contains(got[0], `"cancel"`) {
		t.Fatalf("the dropped lane's request got %q, want one refusal", got)
	}
	if got := other.All(); len(got) != 0 {
		t.Fatalf("the other lane's request got %q", got)
	}
}

// While the list is up its ages move on by themselves: one age tick at a
// time is asked for, and a tick draws the list at the new time; back in
// a lane, no more ticks.
func TestListAgesMoveOn(t *testing.T) {
	now := epoch
	every := func(_ time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { return fn(now) } // the tick, at once
	}
	d, panes := newFakeDeck(t, Options{Now: func() time.Time { return now }, Every: every}, "a")
	panes[0].set(func(s *model.State) { s.Summary.Created = epoch })
	d.Update(tea.WindowSizeMsg{Width: 80, Height: 10})
	_, cmd := d.Update(keyOf(tea.KeyF4, 0))
	if !hasAgeTick(cmd) {
		t.Fatal("opening the list asked for no age tick")
	}
	if _, cmd := d.Update(LaneMsg{Lane: 1, Msg: ping(0)}); hasAgeTick(cmd) {
		t.Fatal("a second tick asked while one is pending")
	}
	now = epoch.Add(42 * time.Second)
	_, cmd = d.Update(ageTick{})
	if !hasAgeTick(cmd) || !strings.Contains(stripped(d.View().Content), "42s") {
		t.Fatalf("after a tick: next asked %v, list:\n%s", hasAgeTick(cmd), stripped(d.View().Content))
	}
	d.Update(keyOf(tea.KeyF4, 0)) // back to the lane
	if _, cmd := d.Update(ageTick{}); hasAgeTick(cmd) {
		t.Fatal("ticks go on in a lane")
	}
}

// hasAgeTick reports whether cmd (a batch of them, as Update returns)
// asks for an age tick.
func hasAgeTick(cmd tea.Cmd) bool {
	for _, m := range run(cmd) {
		if _, ok := m.(ageTick); ok {
			return true
		}
	}
	return false
}

// Answering from the inbox shows the thread's own form, which is its
// first request: the header says which, and how many it has, whatever
// row was chosen.
func TestPeekSaysWhichRequest(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	rep := &reqtest.Replies{}
	panes[1].set(func(s *model.State) {
		s.Pending = append(s.Pending, pendingReq(t, rep, "1"), pendingReq(t, rep, "2"))
	})
	d.Update(tea.WindowSizeMsg{Width: 120, Height: 10})
	feed(d, LaneMsg{Lane: 2, Msg: ping(0)})
	feed(d, keyOf(tea.KeyF4, 0))
	feed(d, keyOf(tea.KeyTab, 0))
	feed(d, keyOf(tea.KeyDown, 0)) // the second row: b's second request
	feed(d, keyOf(tea.KeyEnter, 0))
	if v := stripped(d.View().Content); !strings.Contains(v, "answering b from the inbox: run git push? (1 of its 2)") {
		t.Fatalf("the peek's header:\n%s", v)
	}
}

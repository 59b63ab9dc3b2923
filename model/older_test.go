package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/transcript"
	"tandem/model/turn"
	"tandem/ui"
)

// bigThread is a fake thread of n turns, "question K" and "answer K".
func bigThread(id string, n int) backend.Thread {
	th := backend.Thread{ID: id, Preview: "question 0"}
	for k := range n {
		th.Turns = append(th.Turns, backend.Turn{ID: fmt.Sprintf("turn-%d", k), Status: "completed", Items: []backend.Item{
			{Type: "userMessage", ID: "u", Content: []backend.UserContent{{Type: "text", Text: fmt.Sprintf("question %d", k)}}},
			{Type: "agentMessage", ID: "a", Text: fmt.Sprintf("answer %d", k)},
		}})
	}
	return th
}

// resumeBig resumes a fake thread of n turns in a w×h model.
func resumeBig(t *testing.T, f *fakeDriver, n, w, h int) *Model {
	t.Helper()
	f.threads["t-big"] = bigThread("t-big", n)
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{ID: "t-big"}})
	settle(t, m, cmd)
	return m
}

// lists returns the cursors thread/turns/list was called with.
func (f *fakeDriver) lists() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for i, c := range f.calls {
		if c == "thread/turns/list" {
			out = append(out, fmt.Sprint(f.listCursors[i]))
		}
	}
	return out
}

// A resumed thread shows its newest page; paging up to the top reads the
// earlier turns a page at a time, the lines on screen staying put, until
// the first turn is drawn and the marker is gone.
func TestResumeReadsOlderTurnsOnScroll(t *testing.T) {
	f := newFake()
	m := resumeBig(t, f, 200, 100, 30)
	v := viewText(m)
	if !strings.Contains(v, "answer 199") || !strings.Contains(v, "Resumed thread") {
		t.Fatalf("newest turns not on screen:\n%s", v)
	}
	if n := len(m.panes.Thread().Items()); n != 2*backend.ResumeTurns {
		t.Fatalf("%d items folded, want the newest page's %d", n, 2*backend.ResumeTurns)
	}
	if got := f.lists(); !slices.Equal(got, []string{""}) {
		t.Fatalf("thread/turns/list cursors %q, want only the peek's", got)
	}
	reads := 0
	for range 400 {
		_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
		if cmd == nil {
			if v := viewText(m); strings.Contains(v, "question 0") && !strings.Contains(v, "earlier turns") {
				break // the first turn is on screen, nothing left to read
			}
			continue
		}
		// The read happens with the screen at the top: the turns on
		// screen before the page comes in are on the same rows after it.
		before := strings.Split(viewText(m), "\n")
		reads++
		settle(t, m, cmd)
		after := strings.Split(viewText(m), "\n")
		row := slices.IndexFunc(before, func(l string) bool { return strings.Contains(l, "question") })
		if row < 0 || after[row] != before[row] || after[len(after)-4] != before[len(before)-4] {
			t.Fatalf("read %d moved the screen:\nbefore:\n%s\nafter:\n%s", reads, strings.Join(before, "\n"), strings.Join(after, "\n"))
		}
	}
	if n := len(m.panes.Thread().Items()); n != 400 {
		t.Fatalf("%d items after paging to the top, want 400", n)
	}
	want := []string{"", "170", "120", "70", "20"}
	if got := f.lists(); !slices.Equal(got, want) {
		t.Fatalf("cursors %q, want %q", got, want)
	}
	v = viewText(m)
	if !strings.Contains(v, "question 0") || strings.Contains(v, "earlier turns") {
		t.Fatalf("top of the thread:\n%s", v)
	}
	// The fold is in the thread's order.
	items := m.panes.Thread().Items()
	if items[0].Text() != "question 0" || items[len(items)-1].Text() != "answer 199" {
		t.Fatalf("order: first %q, last %q", items[0].Text(), items[len(items)-1].Text())
	}
}

// A read that fails says why on the marker; the next scroll to the top
// tries again.
func TestOlderTurnsFailureRetries(t *testing.T) {
	f := newFake()
	m := resumeBig(t, f, 100, 100, 30)
	f.mu.Lock()
	f.errs["thread/turns/list"] = fmt.Errorf("thread/turns/list: boom")
	f.mu.Unlock()
	var cmd tea.Cmd
	for range 100 {
		if _, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp}); cmd != nil {
			break
		}
	}
	settle(t, m, cmd)
	if v := viewText(m); !strings.Contains(v, "could not read earlier turns: thread/turns/list: boom") {
		t.Fatalf("failure not shown:\n%s", v)
	}
	f.mu.Lock()
	delete(f.errs, "thread/turns/list")
	f.mu.Unlock()
	_, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp})
	if cmd == nil {
		t.Fatal("a scroll at the top did not read again")
	}
	settle(t, m, cmd)
	if n := len(m.panes.Thread().Items()); n != 2*(backend.ResumeTurns+transcript.OlderPage) {
		t.Fatalf("%d items after the retry", n)
	}
}

// A thread whose newest page does not fill the screen reads on by
// itself until it does, or until the first turn.
func TestShortPageReadsOn(t *testing.T) {
	f := newFake()
	m := resumeBig(t, f, 45, 100, 300)
	if n := len(m.panes.Thread().Items()); n != 90 {
		t.Fatalf("%d items, want every turn's 90", n)
	}
	if v := viewText(m); !strings.Contains(v, "question 0") || strings.Contains(v, "earlier turns") {
		t.Fatalf("screen:\n%s", v)
	}
}

// pump hands m the messages the commands started with run send to msgs
// (running the commands they give back) until one for which stop holds
// has been handled, and returns that one's command; it fails the test
// when deadline comes first.
func pump(t *testing.T, m *Model, msgs chan tea.Msg, run func(tea.Cmd), deadline <-chan time.Time, what string, stop func(tea.Msg) bool) tea.Cmd {
	t.Helper()
	for {
		select {
		case msg := <-msgs:
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					run(c)
				}
				continue
			}
			_, next := m.Update(msg)
			if stop(msg) {
				return next
			}
			run(next)
		case <-deadline:
			t.Fatalf("waiting for %s: timed out", what)
		}
	}
}

// While a long resume runs, the thread's newest turns are on screen
// (read with thread/turns/list, which needs no resume), and a message
// typed meanwhile waits in the composer.
func TestPeekDrawsNewestTurnsWhileResuming(t *testing.T) {
	f := newFake()
	f.threads["t-big"] = bigThread("t-big", 100)
	gate := make(chan struct{})
	f.resumeGate = gate
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{ID: "t-big"}})
	msgs := make(chan tea.Msg, 16)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		if c != nil {
			go func() { msgs <- c() }()
		}
	}
	run(cmd)
	deadline := time.After(patience)
	run(pump(t, m, msgs, run, deadline, "a peek while the resume waits", func(msg tea.Msg) bool { d, ok := msg.(act.Done); _, peek := d.Msg.(act.ThreadPeek); return ok && peek }))
	v := viewText(m)
	if !strings.Contains(v, "answer 99") || !strings.Contains(v, "loading thread") || strings.Contains(v, "Resumed thread") {
		t.Fatalf("while resuming:\n%s", v)
	}
	typeText(t, m, "hello")
	press(t, m, tea.KeyEnter, 0)
	if f.turnCount() != 0 || !strings.Contains(viewText(m), "hello") {
		t.Fatalf("a message typed while resuming was sent or lost:\n%s", viewText(m))
	}
	close(gate)
	settle(t, m, pump(t, m, msgs, run, deadline, "the resume", func(msg tea.Msg) bool { d, ok := msg.(act.Done); _, sw := d.Msg.(act.ThreadSwitched); return ok && sw }))
	v = viewText(m)
	if !strings.Contains(v, "answer 99") || !strings.Contains(v, "Resumed thread") || strings.Contains(v, "loading thread") {
		t.Fatalf("after the resume:\n%s", v)
	}
	if n := strings.Count(v, "answer 99"); n != 1 {
		t.Fatalf("the newest answer drawn %d times:\n%s", n, v)
	}
	if f.turnCount() != 0 || !strings.Contains(m.composer.Value(), "hello") {
		t.Fatalf("the held message left the composer (%d turns, draft %q)", f.turnCount(), m.composer.Value())
	}
	press(t, m, tea.KeyEnter, 0)
	if f.turnCount() != 1 {
		t.Fatalf("Enter once the thread opened sent %d turns", f.turnCount())
	}
}

// Under --no-alt-screen nothing can go above the terminal's scrollback:
// a resumed thread is read back to turn.InlineHistory turns before it is
// drawn, and a thread longer than that says what is not shown.
func TestInlineResumeReadsHistoryFirst(t *testing.T) {
	for _, tc := range []struct {
		turns, items int
		marker       bool
	}{
		{200, 400, false},
		{turn.InlineHistory + 300, 2 * turn.InlineHistory, true},
	} {
		f := newFake()
		f.threads["t-big"] = bigThread("t-big", tc.turns)
		m := New(Options{NoAltScreen: true, NoColor: true})
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{ID: "t-big"}})
		settle(t, m, cmd)
		if n := len(m.panes.Thread().Items()); n != tc.items {
			t.Errorf("%d turns: %d items drawn, want %d", tc.turns, n, tc.items)
		}
		cells := m.State().Cells
		marker, _ := cells[0].(*ui.OlderCell)
		if got := marker != nil && marker.State == ui.OlderHidden; got != tc.marker {
			t.Errorf("%d turns: marker saying what is not shown: %v, want %v", tc.turns, got, tc.marker)
		}
	}
}

// A page of earlier turns that comes while the pager is open waits until
// it closes: the pager draws the transcript's cells by index.
func TestOlderTurnsWaitForThePager(t *testing.T) {
	f := newFake()
	m := resumeBig(t, f, 200, 100, 30)
	var cmd tea.Cmd
	for range 100 {
		if _, cmd = m.Update(tea.KeyPressMsg{Code: tea.KeyPgUp}); cmd != nil {
			break
		}
	}
	if cmd == nil {
		t.Fatal("no read at the top")
	}
	m.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	if !m.State().PagerOpen {
		t.Fatal("ctrl+t did not open the pager")
	}
	m.Update(cmd())
	if n := len(m.panes.Thread().Items()); n != 2*backend.ResumeTurns {
		t.Fatalf("%d items while the pager is open, want the %d there were", n, 2*backend.ResumeTurns)
	}
	m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if m.State().PagerOpen {
		t.Fatal("q did not close the pager")
	}
	if n := len(m.panes.Thread().Items()); n != 2*(backend.ResumeTurns+transcript.OlderPage) {
		t.Fatalf("%d items after the pager closed", n)
	}
}

// While a resumed thread's history goes into the scrollback, a print at a
// time, the live area leaves out what waits to be printed: it never
// grows tall only to shrink, which leaves the composer above blank rows.
func TestInlineHistoryKeepsTheLiveAreaShort(t *testing.T) {
	f := newFake()
	f.threads["t-big"] = bigThread("t-big", 200)
	var prints int
	m := New(Options{NoAltScreen: true, NoColor: true})
	m.panes.SetPrinter(func(string) tea.Cmd { prints++; return nil })
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{ID: "t-big"}})
	settle(t, m, cmd)
	bottom := len(m.bottom())
	tallest := 0
	for i := 0; i < 1000; i++ {
		ack, ok := m.panes.InFlight()
		if !ok {
			break
		}
		tallest = max(tallest, strings.Count(viewText(m), "\n")+1)
		m.Update(ack)
	}
	if prints < 10 {
		t.Fatalf("the history went out in %d prints: not a bulk", prints)
	}
	if tallest > bottom+4 {
		t.Fatalf("the live area grew to %d rows while printing (the bottom is %d)", tallest, bottom)
	}
	if m.panes.Printing() {
		t.Fatal("printing did not finish")
	}
}

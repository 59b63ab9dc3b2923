package deck

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// fakeHost records the actions the list asks for; New answers AddLane
// with a fake pane, Archive and Stop DropLane, Rename a failure; Threads
// the stored threads set (per scope), Resume AddLane of the thread;
// Merge and RemoveWorktree what merge and remove say (nil: success).
type fakeHost struct {
	calls  []string
	next   LaneID
	panes  []*fakePane
	stored map[bool][]StoredThread
	merge  func(LaneID) Result
	remove func(LaneID, bool) tea.Msg
}

func (h *fakeHost) New(prompt string, worktree bool) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("new %q worktree=%v", prompt, worktree))
	h.next++
	p := &fakePane{name: prompt}
	h.panes = append(h.panes, p)
	id := 100 + h.next
	return func() tea.Msg {
		return AddLane{Lane: Lane{ID: id, Model: p, Title: prompt, Branch: "tandem/x"}}
	}
}
func (h *fakeHost) Rename(id LaneID, name string) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("rename %d %q", id, name))
	return func() tea.Msg { return Result{Lane: id, Err: errors.New("rename refused: no server")} }
}
func (h *fakeHost) Archive(id LaneID) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("archive %d", id))
	return func() tea.Msg { return DropLane{Lane: id} }
}
func (h *fakeHost) Interrupt(id LaneID) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("interrupt %d", id))
	return nil
}
func (h *fakeHost) Stop(id LaneID) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("stop %d", id))
	return func() tea.Msg { return DropLane{Lane: id} }
}

func (h *fakeHost) Threads(all bool) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("threads all=%v", all))
	ts := h.stored[all]
	return func() tea.Msg { return Stored{All: all, Threads: ts} }
}
func (h *fakeHost) Resume(id string) tea.Cmd {
	h.calls = append(h.calls, "resume "+id)
	h.next++
	p := &fakePane{name: "resumed " + id}
	h.panes = append(h.panes, p)
	lid := 100 + h.next
	return func() tea.Msg { return AddLane{Lane: Lane{ID: lid, Model: p, Title: id, Thread: id}} }
}
func (h *fakeHost) Merge(id LaneID) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("merge %d", id))
	return func() tea.Msg {
		if h.merge != nil {
			return h.merge(id)
		}
		return Result{Lane: id, What: "merged"}
	}
}
func (h *fakeHost) RemoveWorktree(id LaneID, force bool) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("remove %d force=%v", id, force))
	return func() tea.Msg {
		if h.remove != nil {
			return h.remove(id, force)
		}
		return DropLane{Lane: id, What: "removed"}
	}
}

func (h *fakeHost) CommitMerge(id LaneID, message string, files []string) tea.Cmd {
	h.calls = append(h.calls, fmt.Sprintf("commit-merge %d %q %q", id, message, files))
	return func() tea.Msg { return Result{Lane: id, What: "committed and merged"} }
}

// feed sends msg and every message its commands give back.
func feed(d *Model, msg tea.Msg) {
	_, cmd := d.Update(msg)
	for _, m := range run(cmd) {
		feed(d, m)
	}
}

// The list's actions are the host's calls, on the selected thread; a new
// thread asks its prompt, and the lane the host adds is listed.
func TestActionsCallTheHost(t *testing.T) {
	h := &fakeHost{}
	d, _ := newFakeDeck(t, Options{Host: h}, "a", "b", "c")
	feed(d, keyOf(tea.KeyF4, 0))
	feed(d, keyOf(tea.KeyDown, 0)) // b
	feed(d, keyOf('i', tea.ModAlt))
	feed(d, keyOf('r', tea.ModAlt))
	feed(d, keyOf(tea.KeyBackspace, 0))
	for _, k := range text("ee") {
		feed(d, k)
	}
	feed(d, keyOf(tea.KeyEnter, 0))
	if s := screen(d); !strings.Contains(s, "rename refused: no server") {
		t.Errorf("the host's error is not shown:\n%s", s)
	}
	feed(d, keyOf('w', tea.ModAlt))
	for _, k := range text("fix it") {
		feed(d, k)
	}
	if s := screen(d); !strings.Contains(s, "prompt for a new thread in a worktree: fix it") {
		t.Errorf("the prompt asked is not shown:\n%s", s)
	}
	feed(d, keyOf(tea.KeyEnter, 0))
	if s := screen(d); !strings.Contains(s, "fix it") || !strings.Contains(s, "tandem/x") {
		t.Errorf("the new lane is not listed:\n%s", s)
	}
	feed(d, keyOf(tea.KeyUp, 0)) // from the new lane (selected) to c
	feed(d, keyOf('a', tea.ModAlt))
	feed(d, keyOf('x', tea.ModAlt)) // c is gone: the first row is selected
	// The stored threads are read when the list opens and after each
	// lane is dropped.
	want := []string{`threads all=false`, `interrupt 2`, `rename 2 "ee"`, `new "fix it" worktree=true`, `archive 3`, `threads all=false`, `stop 1`, `threads all=false`}
	if strings.Join(h.calls, "; ") != strings.Join(want, "; ") {
		t.Errorf("the host was called %q, want %q", h.calls, want)
	}
	if s := screen(d); strings.Contains(s, " c ") {
		t.Errorf("the archived c is still listed:\n%s", s)
	}
}

// The scope key shows other workspaces' threads too.
func TestScopeShowsAllThreads(t *testing.T) {
	d, _ := newFakeDeck(t, Options{}, "a")
	feed(d, AddLane{Lane: Lane{ID: 9, Model: &fakePane{name: "elsewhere"}, Title: "elsewhere", Elsewhere: true}})
	feed(d, keyOf(tea.KeyF4, 0))
	if s := screen(d); strings.Contains(s, "elsewhere") {
		t.Errorf("another workspace's thread is listed here:\n%s", s)
	}
	feed(d, keyOf('a', tea.ModCtrl))
	if s := screen(d); !strings.Contains(s, "elsewhere") || !strings.Contains(s, "all workspaces") {
		t.Errorf("all threads do not show:\n%s", s)
	}
}

// The overlap function is pluggable: the host's (worktree.Overlaps)
// names what two threads' worktrees share.
func TestConflictsFromThePluggedOverlaps(t *testing.T) {
	same := func(a, b Thread) []string {
		if a.Branch != "" && a.Branch == b.Branch {
			return []string{"/home/dev/src/x/go.mod"}
		}
		return nil
	}
	d, _ := newFakeDeck(t, Options{Overlaps: same}, "a", "b", "c")
	feed(d, AddLane{Lane: Lane{ID: 1, Branch: "main"}})
	feed(d, AddLane{Lane: Lane{ID: 3, Branch: "main"}})
	feed(d, keyOf(tea.KeyF4, 0))
	s := screen(d)
	for _, want := range []string{"same file: ~/src/x/go.mod (also c)", "same file: ~/src/x/go.mod (also a)"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "(also b)") {
		t.Errorf("b is marked:\n%s", s)
	}
}

// Ctrl+C in the command center quits tandem only when pressed twice in a
// row; a paste types into the filter.
func TestQuitTwiceAndPasteFilters(t *testing.T) {
	d, _ := newFakeDeck(t, Options{}, "alpha", "beta")
	feed(d, keyOf(tea.KeyF4, 0))
	quits := func(cmd tea.Cmd) bool {
		for _, m := range run(cmd) {
			if _, ok := m.(tea.QuitMsg); ok {
				return true
			}
		}
		return false
	}
	if _, cmd := d.Update(keyOf('c', tea.ModCtrl)); quits(cmd) {
		t.Fatal("one Ctrl+C quit")
	}
	if s := screen(d); !strings.Contains(s, "ctrl+c again to quit tandem") {
		t.Errorf("no warning:\n%s", s)
	}
	d.Update(keyOf(tea.KeyDown, 0)) // another key disarms
	if _, cmd := d.Update(keyOf('c', tea.ModCtrl)); quits(cmd) {
		t.Fatal("Ctrl+C after another key quit")
	}
	if _, cmd := d.Update(keyOf('c', tea.ModCtrl)); !quits(cmd) {
		t.Error("Ctrl+C twice did not quit")
	}
	d.Update(tea.PasteMsg{Content: "bet\n"})
	s := screen(d)
	if !strings.Contains(s, "filter: bet") || strings.Contains(s, "alpha") {
		t.Errorf("the paste did not filter:\n%s", s)
	}
}

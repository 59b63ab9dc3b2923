package deck

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/model"
)

// storedHost is a fake host whose server keeps, in this workspace, a
// copy of lane a's thread and an earlier thread in a worktree; in
// another workspace one more.
func storedHost() *fakeHost {
	here := []StoredThread{
		{ID: "th-a", Name: "dup-of-a", Cwd: "/home/dev/src/a"},
		{ID: "old-1", Name: "earlier task", Cwd: "/home/dev/src/x-wt/fix", Worktree: "/home/dev/src/x-wt/fix", Branch: "tandem/fix", Created: epoch.Add(-3 * time.Hour)},
	}
	all := append(slices.Clone(here), StoredThread{ID: "far", Name: "far away", Cwd: "/srv/other", Elsewhere: true, Created: epoch.Add(-50 * time.Hour)})
	return &fakeHost{stored: map[bool][]StoredThread{false: here, true: all}}
}

// rowsWith are the screen's lines that contain s.
func rowsWith(screen, s string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

// The stored threads of the scope are listed after the lanes, idle,
// with their age and checkout; a thread open as a lane is listed once
// (as the lane); the scope key reads the other scope's; Enter on one
// resumes it as a lane and shows it, and then it is listed as that lane.
func TestStoredThreadsListedAndOpened(t *testing.T) {
	h := storedHost()
	d, _ := newFakeDeck(t, Options{Host: h}, "a", "b")
	feed(d, keyOf(tea.KeyF4, 0))
	s := screen(d)
	row := rowsWith(s, "earlier task")
	if len(row) != 1 || !strings.Contains(row[0], "idle") || !strings.Contains(row[0], "3h") ||
		!strings.Contains(row[0], "tandem/fix") || !strings.Contains(row[0], "~/src/x-wt/fix") {
		t.Errorf("the stored thread's row is %q:\n%s", row, s)
	}
	if strings.Contains(s, "dup-of-a") || strings.Contains(s, "far away") {
		t.Errorf("a lane's thread is listed twice, or another workspace's here:\n%s", s)
	}
	if !strings.Contains(s, "3 threads") {
		t.Errorf("the title does not count the stored thread:\n%s", s)
	}
	feed(d, keyOf('a', tea.ModCtrl))
	if s := screen(d); len(rowsWith(s, "far away")) != 1 || !strings.Contains(s, "all workspaces") {
		t.Errorf("the scope key did not list every workspace's:\n%s", s)
	}
	feed(d, keyOf('a', tea.ModCtrl))
	for _, k := range text("earlier") {
		feed(d, k)
	}
	if s := screen(d); !strings.Contains(s, "Enter open (resume it)") {
		t.Errorf("the help does not say Enter resumes:\n%s", s)
	}
	feed(d, keyOf(tea.KeyEnter, 0))
	if s := screen(d); s != "the lane resumed old-1" {
		t.Fatalf("Enter did not show the resumed thread: %q", s)
	}
	want := []string{"threads all=false", "threads all=true", "threads all=false", "resume old-1"}
	if !slices.Equal(h.calls, want) {
		t.Errorf("the host was called %q, want %q", h.calls, want)
	}
	feed(d, keyOf(tea.KeyF4, 0))
	feed(d, keyOf(tea.KeyEscape, 0)) // the filter
	s = screen(d)
	row = rowsWith(s, "earlier task")
	if len(row) != 1 || !strings.Contains(s, "3 threads") || strings.Contains(row[0], "idle") {
		t.Errorf("the opened thread is not listed once, as its lane:\n%s", s)
	}
	if len(row) == 1 && !strings.Contains(row[0], "tandem/fix") {
		t.Errorf("the lane lost the stored thread's branch: %q", row[0])
	}
}

// An answer for a scope no longer shown, or of an older fetch, is
// dropped.
func TestStaleStoredThreadsDropped(t *testing.T) {
	h := storedHost()
	d, _ := newFakeDeck(t, Options{Host: h}, "a")
	_, first := d.Update(keyOf(tea.KeyF4, 0)) // fetch 1 (here), not run yet
	feed(d, keyOf('a', tea.ModCtrl))          // fetch 2 (all)
	h.stored[false] = nil                     // the server now keeps none
	feed(d, keyOf('a', tea.ModCtrl))          // fetch 3 (here)
	for _, m := range run(first) {
		feed(d, m)
	}
	if s := screen(d); strings.Contains(s, "earlier task") {
		t.Errorf("fetch 1's answer landed after fetch 3's:\n%s", s)
	}
}

// worktreeDeck is a deck of lanes a (in a worktree) and b (not), on the
// list, with a on the selected row.
func worktreeDeck(t *testing.T, h *fakeHost) (*Model, []*fakePane) {
	t.Helper()
	d, panes := newFakeDeck(t, Options{Host: h}, "a", "b")
	feed(d, Checkout{Lane: 1, Worktree: "/home/dev/src/x-wt/a", Branch: "tandem/a"})
	feed(d, Checkout{Lane: 2, Branch: "main"})
	feed(d, keyOf(tea.KeyF4, 0))
	h.calls = nil
	return d, panes
}

// Merge and remove act on a lane in a worktree tandem made; a lane in
// none, a stored thread and a lane whose turn runs are refused without
// asking the host, saying why.
func TestWorktreeActionsRefused(t *testing.T) {
	h := &fakeHost{stored: map[bool][]StoredThread{false: {{ID: "old", Name: "old one", Worktree: "/w"}}}}
	d, panes := worktreeDeck(t, h)
	if s := screen(d); len(rowsWith(s, "~/src/b ")) != 1 || !strings.Contains(rowsWith(s, "~/src/b ")[0], "main") {
		t.Errorf("b's checkout's branch is not shown:\n%s", s)
	}
	steps := []struct {
		name string
		prep func()
		key  tea.KeyPressMsg
		want string
	}{
		{"a runs", func() {
			panes[0].set(func(s *model.State) { s.Running, s.Summary.Phase = true, model.PhaseRunning })
			feed(d, LaneMsg{Lane: 1, Msg: ping(0)})
		}, keyOf('m', tea.ModAlt), "merge: a turn runs in a — wait for it to end, or interrupt it (Alt+I)"},
		{"a runs: remove", nil, keyOf('d', tea.ModAlt), "remove: a turn runs in a"},
		{"b has no worktree", func() { feed(d, keyOf(tea.KeyDown, 0)) }, keyOf('m', tea.ModAlt), "merge: b runs in no worktree tandem made"},
		{"a stored thread", func() { feed(d, keyOf(tea.KeyDown, 0)) }, keyOf('d', tea.ModAlt), "remove: open the thread first (Enter)"},
	}
	for _, st := range steps {
		if st.prep != nil {
			st.prep()
		}
		feed(d, st.key)
		if s := screen(d); !strings.Contains(s, st.want) {
			t.Errorf("%s: no %q:\n%s", st.name, st.want, s)
		}
	}
	if len(h.calls) > 0 {
		t.Errorf("the host was asked %q", h.calls)
	}
}

// A merge's outcome is the list's notice: what merged, or the refusal
// naming the files.
func TestMergeSaysWhatMerged(t *testing.T) {
	h := &fakeHost{}
	d, _ := worktreeDeck(t, h)
	h.merge = func(id LaneID) Result {
		return Result{Lane: id, Err: errors.New("merge: merging tandem/a into /home/dev/src/x would conflict in shared.txt; nothing was changed")}
	}
	feed(d, keyOf('m', tea.ModAlt))
	if s := screen(d); !strings.Contains(s, "would conflict in shared.txt; nothing was changed") {
		t.Errorf("the conflict is not shown:\n%s", s)
	}
	h.merge = func(id LaneID) Result { return Result{Lane: id, What: "merged tandem/a into main: a.go"} }
	feed(d, keyOf('m', tea.ModAlt))
	if s := screen(d); !strings.Contains(s, "merged tandem/a into main: a.go") {
		t.Errorf("the merge is not shown:\n%s", s)
	}
	if want := []string{"merge 1", "merge 1"}; !slices.Equal(h.calls, want) {
		t.Errorf("the host was called %q, want %q", h.calls, want)
	}
}

// dirtyRemove refuses a removal without force, naming two files, and
// drops the lane with force.
func dirtyRemove(id LaneID, force bool) tea.Msg {
	if !force {
		return Result{Lane: id, Confirm: true, Err: errors.New("remove: /home/dev/src/x-wt/a has uncommitted changes in notes.txt, src/a.go: remove with force to drop them; nothing was removed")}
	}
	return DropLane{Lane: id, What: "removed the worktree /home/dev/src/x-wt/a and its branch tandem/a"}
}

// A removal refused for uncommitted changes is shown with the files and
// asked about: only the remove key pressed after the refusal came forces
// it; any other key keeps everything. A key pressed before the refusal
// came (a double press) asks again without force.
func TestRemoveAsksBeforeForcing(t *testing.T) {
	h := &fakeHost{remove: dirtyRemove}
	d, _ := worktreeDeck(t, h)

	// Pressed twice before the host answers: both without force.
	_, c1 := d.Update(keyOf('d', tea.ModAlt))
	_, c2 := d.Update(keyOf('d', tea.ModAlt))
	for _, m := range append(run(c1), run(c2)...) {
		feed(d, m)
	}
	s := screen(d)
	for _, want := range []string{"notes.txt, src/a.go", "remove a's worktree anyway, losing what is below? Alt+D yes"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
	feed(d, keyOf(tea.KeyDown, 0)) // any other key: no
	if s := screen(d); !strings.Contains(s, "nothing removed") || len(rowsWith(s, "~/src/x-wt/a ")) != 1 {
		t.Errorf("another key did not keep it:\n%s", s)
	}
	feed(d, keyOf(tea.KeyUp, 0))
	feed(d, keyOf('d', tea.ModAlt)) // refused again, asked again
	feed(d, keyOf('d', tea.ModAlt)) // seen: yes
	want := []string{"remove 1 force=false", "remove 1 force=false", "remove 1 force=false", "remove 1 force=true", "threads all=false"}
	if !slices.Equal(h.calls, want) {
		t.Errorf("the host was called %q, want %q", h.calls, want)
	}
	s = screen(d)
	if !strings.Contains(s, "removed the worktree /home/dev/src/x-wt/a") || len(rowsWith(s, "~/src/x-wt/a ")) != 0 {
		t.Errorf("the lane is still listed, or the removal not told:\n%s", s)
	}
}

// The list with a stored thread, asking whether to force a refused
// removal: the refusal wraps to name every file.
func TestGoldenCommandCenterRemoveAsked(t *testing.T) {
	h := storedHost()
	h.remove = dirtyRemove
	d, _ := newFakeDeck(t, Options{Host: h}, "a", "b")
	feed(d, tea.WindowSizeMsg{Width: 80, Height: 12})
	feed(d, Checkout{Lane: 1, Worktree: "/home/dev/src/x-wt/a", Branch: "tandem/a"})
	feed(d, keyOf(tea.KeyF4, 0))
	feed(d, keyOf('d', tea.ModAlt))
	teatest.RequireEqualOutput(t, []byte(screen(d)))
}

// "making a worktree…" stays until the new lane has its worktree, then
// gives the help line back.
func TestMakingNoticeGoesWithTheWorktree(t *testing.T) {
	h := &fakeHost{}
	d, _ := newFakeDeck(t, Options{Host: h}, "a")
	feed(d, keyOf(tea.KeyF4, 0))
	feed(d, keyOf('w', tea.ModAlt))
	for _, k := range text("go") {
		feed(d, k)
	}
	feed(d, keyOf(tea.KeyEnter, 0)) // the lane comes, its worktree not yet
	if s := screen(d); !strings.Contains(s, "making a worktree…") {
		t.Errorf("the notice went before the worktree came:\n%s", s)
	}
	feed(d, AddLane{Lane: Lane{ID: 101, Title: "go", Worktree: "/home/dev/src/x-wt/go", Branch: "tandem/go"}})
	if s := screen(d); strings.Contains(s, "making a worktree…") || !strings.Contains(s, "Alt+M merge back") {
		t.Errorf("the notice stays once the worktree came:\n%s", s)
	}
}

// What the lane on screen showed until the command center opened is
// read, even when its state changed without a message the deck saw.
func TestLeavingALaneReadsIt(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a", "b")
	panes[0].set(func(s *model.State) { s.Summary.Turns = 3 })
	feed(d, keyOf(tea.KeyF4, 0))
	if row := rowsWith(screen(d), "~/src/a "); len(row) != 1 || strings.Contains(row[0], "unread") {
		t.Errorf("the lane just left is unread: %q", row)
	}
}

// The history a lane's thread opens with (a resumed thread, in the
// background) is no news; a turn ending after it is.
func TestOpenedHistoryIsNotUnread(t *testing.T) {
	h := &fakeHost{}
	d, _ := newFakeDeck(t, Options{Host: h}, "a")
	feed(d, keyOf(tea.KeyF4, 0))
	feed(d, h.Resume("old")())
	p := h.panes[0]
	state := func() string {
		row := rowsWith(screen(d), "resumed") // nothing else is named so
		if len(row) != 1 {
			t.Fatalf("no one row of the resumed lane:\n%s", screen(d))
		}
		return row[0]
	}
	p.set(func(s *model.State) {
		s.Summary.ThreadID, s.Summary.Name, s.Summary.Phase, s.Summary.Turns = "old", "resumed", model.PhaseIdle, 3
	})
	feed(d, LaneMsg{Lane: 101, Msg: ping(0)})
	if r := state(); strings.Contains(r, "unread") {
		t.Errorf("the history is unread: %q", r)
	}
	p.set(func(s *model.State) { s.Summary.Turns = 4 })
	feed(d, LaneMsg{Lane: 101, Msg: ping(1)})
	if r := state(); !strings.Contains(r, "done · unread") {
		t.Errorf("a turn ended after is not unread: %q", r)
	}
}

// The inbox shows no question: a refusal that comes while the inbox is
// open is not forced by the remove key there.
func TestRemoveNotForcedFromTheInbox(t *testing.T) {
	h := &fakeHost{remove: dirtyRemove}
	d, _ := worktreeDeck(t, h)
	_, cmd := d.Update(keyOf('d', tea.ModAlt))
	feed(d, keyOf(tea.KeyTab, 0)) // the inbox, before the refusal comes
	for _, m := range run(cmd) {
		feed(d, m)
	}
	feed(d, keyOf('d', tea.ModAlt))
	if want := []string{"remove 1 force=false"}; !slices.Equal(h.calls, want) {
		t.Errorf("the host was called %q, want %q", h.calls, want)
	}
	if s := screen(d); !strings.Contains(s, "nothing removed") {
		t.Errorf("no notice:\n%s", s)
	}
}

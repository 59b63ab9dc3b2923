package deck

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// dirtyMerge is a host's merge refused for n uncommitted files of the
// worktree, named in the Result's Commit.
func dirtyMerge(n int) func(LaneID) Result {
	files := make([]string, n)
	for i := range files {
		files[i] = fmt.Sprintf("src/file%02d.go", i+1)
	}
	return func(id LaneID) Result {
		return Result{Lane: id, Commit: files, Err: errors.New("merge: /home/dev/src/x-wt/a has uncommitted changes in " + strings.Join(files, ", "))}
	}
}

// A merge refused for the worktree's uncommitted changes asks whether to
// commit them and merge, on a page listing every file with the commit's
// message, which names the thread. Any other key commits nothing; the
// merge key pressed after the question came commits exactly the files
// shown, with that message; pressed twice before the refusal came it is
// two plain merges.
func TestMergeAsksToCommit(t *testing.T) {
	h := &fakeHost{merge: dirtyMerge(2)}
	d, _ := worktreeDeck(t, h)
	feed(d, tea.WindowSizeMsg{Width: 100, Height: 12})
	_, c1 := d.Update(keyOf('m', tea.ModAlt))
	_, c2 := d.Update(keyOf('m', tea.ModAlt)) // before the refusal came
	for _, m := range append(run(c1), run(c2)...) {
		feed(d, m)
	}
	s := screen(d)
	for _, want := range []string{"commit and merge a's worktree? the agent left 2 files uncommitted", "src/file01.go", "src/file02.go",
		"tandem: a (what the thread left uncommitted)", "Alt+M commit and merge"} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
	feed(d, keyOf(tea.KeyEnter, 0)) // any other key: no
	if s := screen(d); !strings.Contains(s, "nothing committed or merged") || strings.Contains(s, "commit and merge a's") {
		t.Errorf("another key did not keep it:\n%s", s)
	}
	feed(d, keyOf('m', tea.ModAlt)) // refused again, asked again
	feed(d, keyOf('m', tea.ModAlt)) // yes
	want := []string{"merge 1", "merge 1", "merge 1",
		`commit-merge 1 "tandem: a (what the thread left uncommitted)" ["src/file01.go" "src/file02.go"]`}
	if !slices.Equal(h.calls, want) {
		t.Errorf("the host was called %q, want %q", h.calls, want)
	}
	if s := screen(d); !strings.Contains(s, "committed and merged") {
		t.Errorf("the outcome is not told:\n%s", s)
	}
}

// More files than the page holds: the merge key does not commit until
// the last file has been on screen (↓), and says so.
func TestMergeCommitsOnlyWhatWasSeen(t *testing.T) {
	h := &fakeHost{merge: dirtyMerge(20)}
	d, _ := worktreeDeck(t, h)
	feed(d, tea.WindowSizeMsg{Width: 100, Height: 12}) // 8 files a page
	feed(d, keyOf('m', tea.ModAlt))
	if s := screen(d); !strings.Contains(s, "src/file08.go") || strings.Contains(s, "src/file09.go") || !strings.Contains(s, "12 more below") {
		t.Fatalf("the first page:\n%s", s)
	}
	feed(d, keyOf('m', tea.ModAlt))
	if s := screen(d); !strings.Contains(s, "read the whole list first") {
		t.Errorf("no notice:\n%s", s)
	}
	for range 12 {
		feed(d, keyOf(tea.KeyDown, 0))
	}
	if s := screen(d); !strings.Contains(s, "src/file20.go") || !strings.Contains(s, "Alt+M commit and merge") {
		t.Fatalf("the last page:\n%s", s)
	}
	feed(d, keyOf('m', tea.ModAlt))
	if n := len(h.calls); n != 2 || !strings.HasPrefix(h.calls[1], "commit-merge 1 ") || !strings.Contains(h.calls[1], `"src/file20.go"`) {
		t.Errorf("the host was called %q", h.calls)
	}
}

// The question, its files and message.
func TestGoldenCommandCenterCommitAsked(t *testing.T) {
	h := &fakeHost{merge: dirtyMerge(3)}
	d, _ := worktreeDeck(t, h)
	feed(d, tea.WindowSizeMsg{Width: 80, Height: 10})
	feed(d, keyOf('m', tea.ModAlt))
	teatest.RequireEqualOutput(t, []byte(screen(d)))
}

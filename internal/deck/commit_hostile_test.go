package deck

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// File names holding a terminal's escapes or line breaks (an agent's
// files are the agent's to name) are listed on one line each, as text:
// none of them acts on the terminal or hides another.
func TestCommitAskHostileFileNames(t *testing.T) {
	files := []string{"a\x1b]0;PWN\x07.go", "b\nline2.go", "c\x1b[2J\x1b[H.go", "d\r.go"}
	h := &fakeHost{merge: func(id LaneID) Result {
		return Result{Lane: id, Commit: files, Err: errors.New("merge: uncommitted " + strings.Join(files, ", "))}
	}}
	d, _ := worktreeDeck(t, h)
	feed(d, tea.WindowSizeMsg{Width: 100, Height: 14})
	_, c := d.Update(keyOf('m', tea.ModAlt))
	for _, m := range run(c) {
		feed(d, m)
	}
	raw := d.View().Content
	if strings.Contains(raw, "\x1b]") || strings.Contains(raw, "\x07") || strings.Contains(raw, "\x1b[2J") || strings.Contains(raw, "\r") {
		t.Fatalf("a file name's control sequence reached the screen: %q", raw)
	}
	s := screen(d)
	for _, want := range []string{`"a\x1b]0;PWN\a.go"`, `"b\nline2.go"`, `"c\x1b[2J\x1b[H.go"`, `"d\r.go"`} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q:\n%s", want, s)
		}
	}
}

package transcript

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/keys"
	"tandem/ui"
)

// findPanes are panes of w×h holding items (each completed), drawn once.
func findPanes(t *testing.T, items ...backend.Item) *Panes {
	t.Helper()
	p, _ := testPanes(t, 80, 20)
	for _, it := range items {
		p.Fold(backend.ItemCompletedEvent{Item: it}, FoldFacts{})
	}
	p.Window(19)
	return p
}

// typeFind opens the search line and types term.
func typeFind(p *Panes, term string) {
	km := keys.Default()
	p.OpenFind(19)
	for _, r := range term {
		p.FindKey(tea.KeyPressMsg{Code: r, Text: string(r)}, km, FindFacts{Height: 19})
	}
}

// screen is the shown window with the search line, plain.
func screen(p *Panes) string { return ansi.Strip(strings.Join(p.Window(19), "\n")) }

func out(s string) *string { return &s }

// A match inside a collapsed cell (a command's output past its head and
// tail, a reasoning summary drawn as its heading, a tool call's detail
// past six lines, a diff past the lines shown) opens the cell and is on
// screen, marked.
func TestFindOpensCollapsedCells(t *testing.T) {
	var long []string
	for i := range 300 {
		long = append(long, fmt.Sprintf("line %d", i))
	}
	long[150] = "the needle in the output"
	var diff strings.Builder
	diff.WriteString("@@ -1,80 +1,80 @@\n")
	for i := range 80 {
		if i == 70 {
			diff.WriteString("+a needle in the diff\n")
			continue
		}
		diff.WriteString(fmt.Sprintf(" context %d\n", i))
	}
	tests := []struct {
		name string
		item backend.Item
		want string
	}{
		{"command output", backend.Item{Type: "commandExecution", ID: "c", Command: "seq 300", Status: "completed", AggregatedOutput: out(strings.Join(long, "\n"))}, "the needle in the output"},
		{"reasoning", backend.Item{Type: "reasoning", ID: "r", Summary: []string{"**Planning**\n\nfirst a haystack, then the needle of reasoning"}}, "the needle of reasoning"},
		{"tool detail", backend.Item{Type: "mcpToolCall", ID: "m", Server: "s", Tool: "t", Status: "completed", Arguments: []byte(`{"a":1}`),
			Result: []byte(`{"content":[{"type":"text","text":"1\n2\n3\n4\n5\n6\n7\n8\na needle in a tool"}]}`)}, "a needle in a tool"},
		{"diff", backend.Item{Type: "fileChange", ID: "f", Status: "completed", Changes: []backend.FileChange{{Path: "x.go", Kind: backend.PatchChangeKind{Type: "update"}, Diff: diff.String()}}}, "a needle in the diff"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := findPanes(t, tc.item)
			if s := screen(p); strings.Contains(s, tc.want) {
				t.Fatalf("%q is drawn before the search: the cell is not collapsed\n%s", tc.want, s)
			}
			typeFind(p, "needle")
			s := screen(p)
			if !strings.Contains(s, tc.want) {
				t.Fatalf("%q not on screen after the search:\n%s", tc.want, s)
			}
			if !strings.Contains(s, "1/1") {
				t.Fatalf("no 1/1 count:\n%s", s)
			}
			marked := false
			for _, l := range p.Window(19) {
				marked = marked || strings.Contains(l, "\x1b[7;4mneedle")
			}
			if !marked {
				t.Fatal("the current match is not marked")
			}
		})
	}
}

// Matching in the transcript: CJK and emoji are found where they are
// drawn, case is ignored for a lower-case query and kept for one with
// an upper-case letter; the count covers every cell.
func TestFindCounts(t *testing.T) {
	p := findPanes(t,
		backend.Item{Type: "agentMessage", ID: "a1", Text: "全文検索は便利 🚀 Rocket"},
		backend.Item{Type: "agentMessage", ID: "a2", Text: "rocket 🚀🚀 検索"},
	)
	tests := []struct{ term, count string }{
		{"検索", "2/2"},
		{"🚀", "3/3"},
		{"rocket", "2/2"},
		{"Rocket", "1/1"},
		{"nothing", "no match"},
	}
	km := keys.Default()
	for _, tc := range tests {
		typeFind(p, tc.term)
		if s := screen(p); !strings.Contains(s, "find: "+tc.term+"▏") || !strings.Contains(s, tc.count) {
			t.Errorf("%q: want %s:\n%s", tc.term, tc.count, s)
		}
		p.FindKey(tea.KeyPressMsg{Code: tea.KeyEscape}, km, FindFacts{Height: 19})
		if p.Finding() {
			t.Fatal("Esc left the search line open")
		}
	}
}

// The pager's / searches its lines: the count, n and N stepping, Esc
// back where it began.
func TestPagerFind(t *testing.T) {
	p := historyPanes(t, 60)
	p.OpenPager(PagerTail{})
	for p.pager != nil && !p.pager.filled {
		p.onPagerFill(pagerFillMsg{seq: p.pager.seq})
	}
	km := keys.Default()
	top := p.pager.top
	press := func(k tea.KeyPressMsg) { p.PagerKey(k, km) }
	press(tea.KeyPressMsg{Code: '/', Text: "/"})
	for _, r := range "question 1" {
		press(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	// question 1, 10…19: eleven, the nearest above the bottom is 19
	if v := ansi.Strip(p.PagerView(keys.Default())); !strings.Contains(v, "11/11") || !strings.Contains(v, "question 19") {
		t.Fatalf("pager search:\n%s", v)
	}
	press(tea.KeyPressMsg{Code: tea.KeyTab})
	press(tea.KeyPressMsg{Code: 'n', Text: "n"})
	press(tea.KeyPressMsg{Code: 'n', Text: "n"})
	if v := ansi.Strip(p.PagerView(keys.Default())); !strings.Contains(v, "9/11") || !strings.Contains(v, "n older") {
		t.Fatalf("after n n:\n%s", v)
	}
	press(tea.KeyPressMsg{Code: 'N', Text: "N"})
	if v := ansi.Strip(p.PagerView(keys.Default())); !strings.Contains(v, "10/11") {
		t.Fatalf("after N:\n%s", v)
	}
	top = p.pager.top
	press(tea.KeyPressMsg{Code: '/', Text: "/"})
	for _, r := range "question 3" {
		press(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if p.pager.top == top {
		t.Fatal("the second search did not move")
	}
	press(tea.KeyPressMsg{Code: tea.KeyEscape})
	if p.pager == nil || p.pager.top != top || p.pager.find != nil {
		t.Fatalf("Esc: the pager closed or is not back at %d", top)
	}
}

// With --no-alt-screen the transcript is the terminal's scrollback:
// Ctrl+F opens no search line (its keys would go nowhere drawn) and
// says where to search instead.
func TestFindInlineSaysWhy(t *testing.T) {
	out := &act.Out{}
	env := act.Env{Out: out, Clock: act.RealClock{}, Role: act.NewRole(false, false, false)}
	p := New(env, Look{Styles: ui.NewStyles(true), Markdown: ui.NewMarkdown("dark")}, Options{NoAltScreen: true, NoColor: true})
	p.Resize(80, 20)
	p.OpenFind(19)
	if p.Finding() {
		t.Fatal("a search line opened in the scrollback")
	}
	if len(out.Intents) != 1 || out.Intents[0] != (act.SetNotice{Kind: act.NoticeInfo, Text: FindInlineHint(keys.Default())}) {
		t.Fatalf("asked %v, want the hint", out.Intents)
	}
}

// A search that jumps far up a long thread draws what comes into view,
// not every cell between there and the bottom: neither the jump nor a
// scroll after it redraws the turns far below the screen.
func TestFindFarJumpDrawsOnlyTheView(t *testing.T) {
	p := historyPanes(t, 2000)
	tr := &p.shown.v.transcript
	r0 := tr.Renders
	typeFind(p, "question 1000")
	p.Window(37)
	p.FindKey(tea.KeyPressMsg{Code: tea.KeyTab}, keys.Default(), FindFacts{Height: 37})
	if s := ansi.Strip(strings.Join(p.Window(37), "\n")); !strings.Contains(s, "question 1000") {
		t.Fatalf("the match is not on screen:\n%s", s)
	}
	p.Scroll(0, -1, 37, false)
	p.Window(37)
	if n := tr.Renders - r0; n > 400 {
		t.Fatalf("%d cells drawn for a jump 1,000 turns up and a page: the turns below were redrawn", n)
	}
}

// ScrollToItem brings a drawn turn on screen; a turn not drawn moves
// nothing.
func TestScrollToItem(t *testing.T) {
	p := historyPanes(t, 200)
	if !p.ScrollToItem("42", "", 37) {
		t.Fatal("turn 42 is drawn, but ScrollToItem found nothing")
	}
	if s := ansi.Strip(strings.Join(p.Window(37), "\n")); !strings.Contains(s, "question 42\n") && !strings.Contains(s, "question 42 ") {
		t.Fatalf("turn 42 not on screen:\n%s", s)
	}
	top := p.shown.v.top
	if p.ScrollToItem("no such turn", "", 37) || p.shown.v.top != top {
		t.Fatal("a turn not drawn moved the view")
	}
}

// An answer that grows while the search line is open (a turn streams)
// is counted again when stepping: its new matches are reachable, not
// "no later match" while they are marked on screen.
func TestFindCountsTextStreamedSince(t *testing.T) {
	p, _ := testPanes(t, 80, 20)
	p.Fold(backend.ItemStartedEvent{Item: backend.Item{Type: "agentMessage", ID: "a1"}}, FoldFacts{})
	p.Fold(backend.AgentMessageDeltaEvent{ItemID: "a1", Delta: "gamma one\n"}, FoldFacts{})
	p.Window(19)
	typeFind(p, "gamma")
	if s := screen(p); !strings.Contains(s, "1/1") {
		t.Fatalf("before: want 1/1:\n%s", s)
	}
	p.Fold(backend.AgentMessageDeltaEvent{ItemID: "a1", Delta: "gamma two\ngamma three\n"}, FoldFacts{})
	p.Window(19)
	p.FindKey(tea.KeyPressMsg{Code: tea.KeyDown}, keys.Default(), FindFacts{Height: 19})
	if s := screen(p); !strings.Contains(s, "2/3") {
		t.Errorf("after two more streamed and ↓: want 2/3:\n%s", s)
	}
}

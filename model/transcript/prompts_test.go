package transcript

import (
	"fmt"
	"regexp"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/model/keys"
)

var questionRe = regexp.MustCompile(`question \d+`)

// topQuestion is the prompt drawn on the second of lines (the first is
// the blank above a prompt), "" when none is.
func topQuestion(lines []string) string {
	if len(lines) < 2 {
		return ""
	}
	return questionRe.FindString(ansi.Strip(lines[1]))
}

// The jump keys walk the transcript's prompts: each to the top of the
// screen, the one before the top line or the one after it; past the last
// one, the bottom (followed again); before the first, the top.
func TestPromptJumpWalksThePrompts(t *testing.T) {
	const h = 37
	p := historyPanes(t, 12)
	jump := func(dir int) (string, bool) {
		d, ok := p.PromptJump(dir, h)
		p.Scroll(d, 0, h, false)
		return topQuestion(p.Window(h)), ok
	}
	// From the bottom: the last prompt above the screen's top line.
	first, ok := jump(-1)
	if !ok || first == "" || first == "question 11" {
		t.Fatalf("the first jump up shows %q (ok %v), want a prompt above the screen", first, ok)
	}
	var n int
	if _, err := fmt.Sscanf(first, "question %d", &n); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		dir  int
		want string
	}{
		{-1, qn(n - 1)}, {-1, qn(n - 2)}, {1, qn(n - 1)}, {1, qn(n)},
	}
	for i, s := range steps {
		if got, ok := jump(s.dir); got != s.want || !ok {
			t.Fatalf("step %d (dir %d): top prompt %q ok %v, want %q", i, s.dir, got, ok, s.want)
		}
	}
	// Down past the last prompt that can be on top: the bottom, followed.
	for range 12 {
		jump(1)
	}
	if !p.shown.v.follow {
		t.Fatal("jumping down past the last prompt does not follow the bottom")
	}
	// Up past the first: the top.
	for range 20 {
		jump(-1)
	}
	if got, ok := jump(-1); got != "question 0" || ok || p.shown.v.top != 0 {
		t.Fatalf("up past the first prompt: %q ok %v top %d", got, ok, p.shown.v.top)
	}
}

// In the pager, [ and ] walk the prompts the same way.
func TestPagerPromptJump(t *testing.T) {
	p := historyPanes(t, 12)
	for cmd := p.OpenPager(PagerTail{}); cmd != nil; {
		cmd = p.Update(cmd().(Msg), PrintFacts{})
	}
	km := keys.Default()
	press := func(r rune) string {
		p.PagerKey(tea.KeyPressMsg{Code: r, Text: string(r)}, km)
		return topQuestion(p.pager.lines[p.pager.top:])
	}
	first := press('[')
	var n int
	if _, err := fmt.Sscanf(first, "question %d", &n); err != nil || n == 11 {
		t.Fatalf("[ from the bottom shows %q", first)
	}
	for i, s := range []struct {
		key  rune
		want string
	}{{'[', qn(n - 1)}, {'[', qn(n - 2)}, {']', qn(n - 1)}} {
		if got := press(s.key); got != s.want {
			t.Fatalf("step %d (%c): %q, want %q", i, s.key, got, s.want)
		}
	}
	// From the top, [ stays; ] goes down to a prompt.
	p.PagerKey(tea.KeyPressMsg{Code: tea.KeyHome}, km)
	if press('['); p.pager.top != 0 {
		t.Fatalf("[ at the top moved the pager to %d", p.pager.top)
	}
	if got := press(']'); got != "question 0" && got != "question 1" {
		t.Fatalf("] from the top: %q", got)
	}
}

// qn is the n-th question's text.
func qn(n int) string { return fmt.Sprintf("question %d", n) }

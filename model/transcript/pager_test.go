package transcript

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/model/keys"
	"tandem/ui"
)

// Ctrl+T on a huge answer opens at once with the newest lines, keeps
// taking keys while it fills the rest in, and ends with exactly the
// lines a whole, blocking render gives (#17).
func TestPagerFillsWithoutBlocking(t *testing.T) {
	defer func(b time.Duration) { pagerBudget = b }(pagerBudget)
	pagerBudget = time.Millisecond
	p := bigAnswerPanes(t, 300<<10)

	cmd := p.OpenPager(PagerTail{})
	if p.pager == nil || cmd == nil {
		t.Fatal("Ctrl+T did not open a pager that fills in steps")
	}
	if p.pager.filled {
		t.Fatal("a 300 KB answer was drawn whole in one 1 ms step")
	}
	if v := ansi.Strip(p.PagerView(keys.Default())); !strings.Contains(v, "drawing earlier turns") {
		t.Fatalf("the footer does not say the pager is still filling:\n%s", v)
	}
	bottom := p.pager.lines[len(p.pager.lines)-1]
	steps := 0
	for cmd != nil {
		msg := cmd()
		if steps == 2 {
			p.PagerKey(tea.KeyPressMsg{Code: 'k', Text: "k"}, keys.Default()) // a key between steps is handled
		}
		cmd = p.Update(msg.(Msg), PrintFacts{})
		steps++
	}
	if !p.pager.filled || steps < 2 {
		t.Fatalf("filled %v after %d steps", p.pager.filled, steps)
	}
	if got := p.pager.lines[len(p.pager.lines)-1]; got != bottom {
		t.Errorf("the last line changed while filling: %q → %q", bottom, got)
	}
	// The scroll up by one line held: the view is one line above the end.
	if h := p.h - 1; p.pager.top != len(p.pager.lines)-h-1 {
		t.Errorf("top %d, want %d (one line up from the bottom)", p.pager.top, len(p.pager.lines)-h-1)
	}
	ctx := p.renderContext(0)
	ctx.Expanded = true
	var want []string
	for _, c := range p.shown.v.transcript.Cells {
		want = append(want, ui.RenderFitted(c, ctx, p.width())...)
	}
	if !slices.Equal(p.pager.lines, want) {
		t.Fatalf("filled pager has %d lines, a whole render %d; they differ", len(p.pager.lines), len(want))
	}
	if v := ansi.Strip(p.PagerView(keys.Default())); strings.Contains(v, "drawing earlier turns") {
		t.Fatal("the footer still says filling")
	}
}

// The pager's footer names its keys as the keymap binds them: the
// search and your prompts' jumps too (not on a page of text, which has
// no prompts), rebound keys as rebound.
func TestPagerFooterKeys(t *testing.T) {
	for _, tc := range []struct {
		name    string
		rebind  map[string][]string
		page    *page
		want    []string
		notWant []string
	}{
		{name: "default", want: []string{"↑↓ PgUp/PgDn Home/End", "/ find", "[ ] prompts", "o output", "q/Esc close"}},
		{name: "rebound", rebind: map[string][]string{"pager_find": {"ctrl+s"}, "pager_prompt_prev": {"p"}, "pager_prompt_next": {"alt+n"}},
			want: []string{"Ctrl+S find", "p Alt+N prompts"}, notWant: []string{"/ find", "[ ]"}},
		{name: "page", page: &page{title: "the recap"}, want: []string{" the recap · ", "/ find", "q/Esc close"}, notWant: []string{"prompts", " output"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			km := keys.Default()
			if err := km.Rebind(tc.rebind); err != nil {
				t.Fatal(err)
			}
			got := pagerFoot(km, tc.page, "100%")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("footer %q lacks %q", got, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w) {
					t.Errorf("footer %q holds %q", got, w)
				}
			}
		})
	}
}

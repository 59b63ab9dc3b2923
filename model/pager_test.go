package model

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

// Ctrl+T on a huge answer opens at once with the newest lines, keeps
// taking keys while it fills the rest in, and ends with exactly the
// lines a whole, blocking render gives (#17).
func TestPagerFillsWithoutBlocking(t *testing.T) {
	defer func(b time.Duration) { pagerBudget = b }(pagerBudget)
	pagerBudget = time.Millisecond
	m := bigAnswerModel(t, 300<<10)

	_, cmd := m.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	if m.pager == nil || cmd == nil {
		t.Fatal("Ctrl+T did not open a pager that fills in steps")
	}
	if m.pager.filled {
		t.Fatal("a 300 KB answer was drawn whole in one 1 ms step")
	}
	if v := plain(m); !strings.Contains(v, "drawing earlier turns") {
		t.Fatalf("the footer does not say the pager is still filling:\n%s", v)
	}
	bottom := m.pager.lines[len(m.pager.lines)-1]
	steps := 0
	for cmd != nil {
		msg := cmd()
		if steps == 2 {
			hitKey(t, m, 'k', 0) // a key between steps is handled
		}
		_, cmd = m.Update(msg)
		steps++
	}
	if !m.pager.filled || steps < 2 {
		t.Fatalf("filled %v after %d steps", m.pager.filled, steps)
	}
	if got := m.pager.lines[len(m.pager.lines)-1]; got != bottom {
		t.Errorf("the last line changed while filling: %q → %q", bottom, got)
	}
	// The scroll up by one line held: the view is one line above the end.
	if h := m.height - 1; m.pager.top != len(m.pager.lines)-h-1 {
		t.Errorf("top %d, want %d (one line up from the bottom)", m.pager.top, len(m.pager.lines)-h-1)
	}
	ctx := m.renderContext(0)
	ctx.Expanded = true
	var want []string
	for _, c := range m.view.transcript.Cells {
		want = append(want, ui.RenderFitted(c, ctx, m.contentWidth())...)
	}
	if !slices.Equal(m.pager.lines, want) {
		t.Fatalf("filled pager has %d lines, a whole render %d; they differ", len(m.pager.lines), len(want))
	}
	if v := plain(m); strings.Contains(v, "drawing earlier turns") {
		t.Fatal("the footer still says filling")
	}
}

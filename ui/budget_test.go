package ui

import (
	"strings"
	"testing"
)

// A streaming answer styles at most LiveBudget bytes of its finished
// blocks a render, newest first (at least one): the rest stay plain and
// the cell Partial until later renders or its end style them. Each block
// here is ~600 bytes, the budget 1,000: one block a render.
func TestLiveBudgetStylesNewestBlocksFirst(t *testing.T) {
	block := func(i int) string {
		return "Part " + string(rune('A'+i)) + ": " + strings.Repeat("word ", 120) + "\n\n"
	}
	src := ""
	for i := range 4 {
		src += block(i)
	}
	src += "open tail"
	c := newTestAgent()
	c.Append(src)
	ctx := testCtx()
	ctx.LiveBudget = 1000
	c.Render(ctx, 80)
	n := len(c.segs)
	if n < 4 {
		t.Fatalf("%d finished blocks, want at least 4", n)
	}
	styled := func() (out []bool) {
		for _, b := range c.segs {
			out = append(out, b.styled)
		}
		return out
	}
	if !c.segs[n-1].styled || c.segs[n-2].styled || !c.Partial() {
		t.Fatalf("after one render styled %v (partial %v), want only the newest block", styled(), c.Partial())
	}
	for range n - 1 {
		c.Render(ctx, 80)
	}
	for i, s := range styled() {
		if !s {
			t.Fatalf("after %d renders block %d is still plain: %v", n, i, styled())
		}
	}

	// Without a budget one render styles them all; a completed answer
	// ignores the budget.
	for _, final := range []bool{false, true} {
		c := newTestAgent()
		c.Append(src)
		ctx := testCtx()
		if final {
			c.SetFinal(src)
			ctx.LiveBudget = 1000
		}
		c.Render(ctx, 80)
		for i, b := range c.segs {
			if !b.styled {
				t.Errorf("final %v: block %d plain after one render", final, i)
			}
		}
	}
}

package ui

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The shared cache renders a block once per style and width, gives each
// caller a slice of its own, waits for a render in flight instead of
// doing it twice, and keeps within its byte budget, dropping the least
// recently used.
func TestMarkdownCache(t *testing.T) {
	c := &mdCache{}
	var renders atomic.Int32
	render := func(s string) func() []string {
		return func() []string { renders.Add(1); return []string{s, s} }
	}
	k := mdKey{style: "dark", width: 80, src: "# title"}
	a := c.get(k, render("A"))
	a[0] = "changed by the caller"
	if b := c.get(k, render("B")); !slices.Equal(b, []string{"A", "A"}) || renders.Load() != 1 {
		t.Fatalf("second get = %q after %d renders", b, renders.Load())
	}
	for _, other := range []mdKey{{"light", 80, "# title"}, {"dark", 81, "# title"}} {
		c.get(other, render("C"))
	}
	if renders.Load() != 3 {
		t.Fatalf("another style or width was not rendered on its own (%d renders)", renders.Load())
	}

	// Concurrent viewers of the same block: one render.
	gate := make(chan struct{})
	slow := mdKey{"dark", 80, "slow"}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.get(slow, func() []string { <-gate; renders.Add(1); return []string{"slow"} })
		}()
	}
	close(gate)
	wg.Wait()
	if renders.Load() != 4 {
		t.Fatalf("20 concurrent gets of one block rendered %d times", renders.Load()-3)
	}

	// The budget: old entries go first, a recently used one stays.
	old := MarkdownCacheBytes
	MarkdownCacheBytes = 10_000
	defer func() { MarkdownCacheBytes = old }()
	c = &mdCache{}
	line := strings.Repeat("x", 100)
	keep := mdKey{"dark", 80, "keep"}
	c.get(keep, func() []string { return []string{line} })
	for i := range 200 {
		c.get(mdKey{"dark", 80, fmt.Sprint(i)}, func() []string { return []string{line} })
		c.get(keep, func() []string { t.Fatal("a recently used entry was dropped"); return nil })
	}
	bytes, entries, _, _ := c.stats()
	if bytes > MarkdownCacheBytes || entries > 60 {
		t.Fatalf("cache holds %d bytes in %d entries, budget %d", bytes, entries, MarkdownCacheBytes)
	}
	if _, ok := c.entries[mdKey{"dark", 80, "0"}]; ok {
		t.Fatal("the oldest entry is still there")
	}
	// An entry of over a quarter of the budget is rendered, not kept.
	huge := mdKey{"dark", 80, strings.Repeat("y", 3000)}
	c.get(huge, func() []string { return []string{"h"} })
	if _, ok := c.entries[huge]; ok {
		t.Fatal("an oversized entry was kept")
	}
}

// A render that panics leaves no block in flight: the next viewer renders
// it itself instead of waiting forever.
func TestMarkdownCachePanicLeavesNothingInFlight(t *testing.T) {
	c := &mdCache{}
	k := mdKey{"dark", 80, "boom"}
	func() {
		defer func() { _ = recover() }()
		c.get(k, func() []string { panic("glamour") })
	}()
	done := make(chan []string, 1)
	go func() { done <- c.get(k, func() []string { return []string{"ok"} }) }()
	select {
	case got := <-done:
		if !slices.Equal(got, []string{"ok"}) {
			t.Fatalf("got %q", got)
		}
	case <-time.After(patience):
		t.Fatal("a get after a panicking render hangs")
	}
}

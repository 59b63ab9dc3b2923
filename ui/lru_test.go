package ui

import (
	"fmt"
	"slices"
	"testing"
)

// Past TranscriptCacheBytes the transcript drops the drawings of the
// cells least recently on screen — its own lines and an answer's styled
// blocks — and draws them again, the same, when they come back into view.
func TestTranscriptCacheIsBounded(t *testing.T) {
	old := TranscriptCacheBytes
	TranscriptCacheBytes = 40 << 10
	defer func() { TranscriptCacheBytes = old }()

	build := func() (*Transcript, []*testAgent) {
		tr := &Transcript{}
		var agents []*testAgent
		for i := range 400 {
			a := newTestAgent()
			a.SetFinal(fmt.Sprintf("## Answer %d\n\nSome **bold** words and `code` in a paragraph long enough to wrap at least once on a narrow screen.\n\n- one\n- two\n", i))
			tr.Append(a)
			agents = append(agents, a)
		}
		return tr, agents
	}
	const w, h = 80, 30
	ctx := testCtx()
	tr, agents := build()
	// Read it all from the top down, a screen at a time, as a user paging.
	total := tr.Sync(ctx, w)
	if tr.bytes < 2*TranscriptCacheBytes {
		t.Fatalf("the whole transcript drawn is %d bytes: not well over the budget of %d", tr.bytes, TranscriptCacheBytes)
	}
	seen := map[int][]string{}
	for top := 0; top < total; top += h {
		c := *ctx
		c.Tail = total - top + h
		tr.Sync(&c, w)
		seen[top] = tr.Window(top, h, w)
		if tr.bytes > TranscriptCacheBytes {
			t.Fatalf("at line %d the cache holds %d bytes, budget %d", top, tr.bytes, TranscriptCacheBytes)
		}
	}
	if tr.Evicted == 0 {
		t.Fatal("nothing was evicted from a transcript well over its budget")
	}
	if agents[0].segs != nil {
		t.Fatal("the first answer kept its styled blocks once its lines were dropped")
	}
	// Back at the top: the same lines as on the way down, drawn again.
	before := tr.Renders
	c := *ctx
	c.Tail = total + h
	tr.Sync(&c, w)
	if got := tr.Window(0, h, w); !slices.Equal(got, seen[0]) {
		t.Fatalf("the top drawn again differs:\n%q\nwant\n%q", got, seen[0])
	}
	if tr.Renders == before {
		t.Fatal("the evicted top was not drawn again")
	}
	// And a transcript that never evicted draws the same screens.
	ref, _ := build()
	TranscriptCacheBytes = 1 << 30
	ref.Sync(ctx, w)
	for top, want := range seen {
		if got := ref.Window(top, h, w); !slices.Equal(got, want) {
			t.Fatalf("screen at %d differs from an unbounded transcript's", top)
		}
	}
}

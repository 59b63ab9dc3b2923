package ui

import "sort"

// TranscriptCacheBytes bounds the drawn lines one Transcript keeps, in
// bytes (8 MiB: some 60,000 lines of styled text). A variable for tests.
var TranscriptCacheBytes = 8 << 20

// Evictable is implemented by cells that keep drawings of their own
// (an answer's styled Markdown blocks): Evict drops them all, without
// marking the cell changed. The transcript calls it when it drops the
// cell's lines; the next Render draws what is asked for again.
type Evictable interface {
	Evict()
}

// linesSize is what lines cost the cache, in bytes: the text and a
// string header each.
func linesSize(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 16
	}
	return n
}

// revive draws again the evicted cells that overlap lines [top, top+h),
// as they would have been drawn at the last Sync, and lays the lines out
// again when a cell's line count changed.
func (t *Transcript) revive(top, h int) {
	if t.lastCtx.Styles == nil {
		return // never synced
	}
	for pass := 0; pass < 3; pass++ {
		changed := false
		for i := t.cellAt(top); i < len(t.Cells) && t.starts[i] < top+h; i++ {
			e := &t.cache[i]
			if !e.evicted {
				continue
			}
			c := t.lastCtx
			if c.Tail > 0 {
				c.Tail = max(1, t.starts[i]+e.n-top+10) // the window's part, and a margin
			}
			old := e.n
			t.syncCell(&c, i, e.width, true, true)
			changed = changed || e.n != old
		}
		if !changed {
			return
		}
		t.restart()
	}
}

// evict drops the drawings of the cells least recently in a window until
// the cache holds three quarters of TranscriptCacheBytes, when it holds
// more. The cells within a screen of lines [top, top+h), and live or
// changed ones, are kept.
func (t *Transcript) evict(top, h int) {
	if t.bytes <= max(TranscriptCacheBytes, t.evictFloor) {
		return
	}
	lo, hi := t.cellAt(max(0, top-h)), t.cellAt(top+2*h)
	var cand []int
	for i := range t.Cells {
		e := &t.cache[i]
		if (i >= lo && i <= hi) || e.evicted || !e.ok || e.lines == nil || t.isDirty[i] {
			continue
		}
		if l, ok := t.Cells[i].(Live); ok && l.Live() {
			continue
		}
		cand = append(cand, i)
	}
	sort.Slice(cand, func(a, b int) bool { return t.cache[cand[a]].used < t.cache[cand[b]].used })
	for _, i := range cand {
		if t.bytes <= TranscriptCacheBytes*3/4 {
			break
		}
		e := &t.cache[i]
		t.bytes -= e.size
		e.lines, e.size, e.evicted = nil, 0, true
		if ev, ok := t.Cells[i].(Evictable); ok {
			ev.Evict()
		}
		t.Evicted++
	}
	// What must be kept (a screen of a huge answer) may hold more than the
	// budget: scan again only once the cache grew by an eighth of it.
	t.evictFloor = 0
	if t.bytes > TranscriptCacheBytes {
		t.evictFloor = t.bytes + TranscriptCacheBytes/8
	}
}

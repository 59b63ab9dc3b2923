package ui

import (
	"slices"
	"sort"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Live is implemented by cells that stream (an agent answer being typed, a
// command still printing). While Live reports true, the transcript
// re-renders the cell only when Flush was called since its last render, so
// a burst of deltas costs one render per frame.
type Live interface {
	Live() bool
}

// Lazy is implemented by cells that may draw off-screen parts cheaply when
// RenderContext.Tail > 0; Partial reports that the last render did. The
// transcript re-renders such a cell fully once its lines come into view or
// a full drawing is asked for (Tail == 0).
type Lazy interface {
	Partial() bool
}

// Shedder is implemented by cells that keep costly drawings of parts
// the live view does not show: Shed(keep) drops those beyond their last
// keep lines (see Transcript.Shed).
type Shedder interface {
	Shed(keep int)
}

// Fitted is implemented by cells whose Render already cuts every line to
// the width, so the transcript need not measure them again.
type Fitted interface {
	FitsWidth()
}

// Transcript is the ordered list of cells with a per-cell render cache
// keyed by (version, width), so a finished cell renders once per width.
// It keeps each cell's line count and start line, so a frame slices out
// only the visible lines, and it learns from Touch which cells changed, so
// a frame costs O(changed + visible), not O(history). The cache is
// bounded by TranscriptCacheBytes: past it, the drawings of the cells
// least recently on screen are dropped (their line counts are kept) and
// drawn again when they come back into view (lru.go).
type Transcript struct {
	Cells []Cell
	cache []cachedLines
	// starts[i] is the first line of cell i; valid for i < validStarts.
	starts      []int
	validStarts int
	total       int
	flushDue    bool
	width       int  // width of the last full pass
	full        bool // next Sync must check every cell
	dirty       []int
	isDirty     []bool
	unowned     []int       // cells that don't report Touch: checked every Sync
	partial     map[int]int // Lazy cells last drawn partially → the Tail used
	lastRenders int         // Renders and Tail at the end of the last Sync
	lastTail    int
	// The LRU (lru.go): bytes held by the cached lines, the stamp of
	// the current Window, and the context of the last Sync, which an
	// evicted cell coming back into view is drawn with.
	bytes      int
	evictFloor int // evict waits until bytes pass it (lru.go)
	stamp      int64
	lastCtx    RenderContext
	Evicted    int // cells whose drawing was dropped so far (tests)
	// Renders counts cell renders (for tests and benchmarks).
	Renders int
}

// attachable cells report their changes to the transcript (versioned).
type attachable interface{ attach(t *Transcript, i int) }

type cachedLines struct {
	version, width int
	lines          []string
	ok             bool
	// n is the line count (kept when the lines are evicted), size the
	// bytes they hold, used the Window stamp they were last shown at.
	n, size int
	used    int64
	evicted bool
}

// Append adds a cell at the end.
func (t *Transcript) Append(c Cell) {
	i := len(t.Cells)
	t.Cells = append(t.Cells, c)
	t.isDirty = append(t.isDirty, false)
	if a, ok := c.(attachable); ok {
		a.attach(t, i)
	} else {
		t.unowned = append(t.unowned, i)
	}
	t.markDirty(i)
}

// Insert puts cells before cell at (0 ≤ at ≤ len(Cells)): the older
// turns of a resumed thread, read as the user scrolls up. The cells after
// them keep their cached lines; Start(at+len(cells)) after the next Sync
// says how far they moved down.
func (t *Transcript) Insert(at int, cells ...Cell) {
	n := len(cells)
	if n == 0 {
		return
	}
	at = min(max(at, 0), len(t.Cells))
	t.adoptAppended()
	t.Cells = slices.Insert(t.Cells, at, cells...)
	t.isDirty = slices.Insert(t.isDirty, at, make([]bool, n)...)
	if at < len(t.cache) {
		t.cache = slices.Insert(t.cache, at, make([]cachedLines, n)...)
		t.starts = slices.Insert(t.starts, at, make([]int, n)...)
	}
	shift := func(xs []int) {
		for k, i := range xs {
			if i >= at {
				xs[k] = i + n
			}
		}
	}
	shift(t.dirty)
	shift(t.unowned)
	if len(t.partial) > 0 {
		moved := make(map[int]int, len(t.partial))
		for i, tail := range t.partial {
			if i >= at {
				i += n
			}
			moved[i] = tail
		}
		t.partial = moved
	}
	for i := at; i < len(t.Cells); i++ {
		c := t.Cells[i]
		if a, ok := c.(attachable); ok {
			a.attach(t, i)
		} else if i < at+n {
			t.unowned = append(t.unowned, i)
		}
	}
	for i := at; i < at+n; i++ {
		t.markDirty(i)
	}
	t.validStarts = min(t.validStarts, at)
}

// adoptAppended takes in the cells appended to Cells directly (not with
// Append): they cannot report changes, so they are checked every Sync.
func (t *Transcript) adoptAppended() {
	for i := len(t.isDirty); i < len(t.Cells); i++ {
		t.isDirty = append(t.isDirty, false)
		t.unowned = append(t.unowned, i)
		t.markDirty(i)
	}
}

func (t *Transcript) markDirty(i int) {
	if i < len(t.isDirty) && !t.isDirty[i] {
		t.isDirty[i] = true
		t.dirty = append(t.dirty, i)
	}
}

// Reset removes every cell.
func (t *Transcript) Reset() {
	for _, c := range t.Cells {
		if a, ok := c.(attachable); ok {
			a.attach(nil, 0)
		}
	}
	*t = Transcript{Renders: t.Renders}
}

// Invalidate drops every cached render (after a theme change).
func (t *Transcript) Invalidate() {
	for i := range t.cache {
		t.cache[i].ok = false
	}
	t.full = true
	t.flushDue = true
}

// Flush lets live cells re-render at the next Sync. The model calls it on
// its frame tick (about 30 times a second while a turn runs) and on every
// message that is not a streaming delta.
func (t *Transcript) Flush() { t.flushDue = true }

// Sync brings the cached lines up to date at width (live cells only when
// a flush is due) and returns the total line count. It checks only the
// cells touched since the last Sync, unless the width changed.
func (t *Transcript) Sync(ctx *RenderContext, width int) int {
	t.adoptAppended()
	if n := len(t.Cells) - len(t.cache); n > 0 {
		t.cache = append(t.cache, make([]cachedLines, n)...)
		t.starts = append(t.starts, make([]int, n)...)
	}
	flush := t.flushDue
	t.flushDue = false
	t.lastCtx = *ctx
	t.lastCtx.Deadline = time.Time{}
	if width != t.width || t.full {
		t.width, t.full = width, false
		after := 0
		for i := len(t.Cells) - 1; i >= 0; i-- {
			t.syncCell(t.tailCtx(ctx, after), i, width, true, false)
			after += t.cache[i].n
		}
		for _, i := range t.dirty {
			t.isDirty[i] = false
		}
		t.dirty = t.dirty[:0]
	} else {
		// bottom up, so each cell knows how many lines follow it
		sort.Sort(sort.Reverse(sort.IntSlice(t.dirty)))
		keep := t.dirty[:0]
		after, next := 0, len(t.Cells)-1
		for _, i := range t.dirty {
			t.isDirty[i] = false
			for ; next > i; next-- {
				after += t.cache[next].n
			}
			if !t.syncCell(t.tailCtx(ctx, after), i, width, flush, false) {
				keep = append(keep, i) // throttled: check again next frame
			}
		}
		t.dirty = keep
		for _, i := range t.dirty {
			t.isDirty[i] = true
		}
		for _, i := range t.unowned {
			t.syncCell(ctx, i, width, flush, false)
		}
	}
	t.restart()
	// Cells drawn partially get their full drawing once they are on
	// screen, or when everything is asked for.
	// (Only when something was drawn or the screen moved: otherwise the
	// partial cells are as they were.)
	if t.Renders == t.lastRenders && ctx.Tail == t.lastTail {
		return t.total
	}
	defer func() { t.lastRenders, t.lastTail = t.Renders, ctx.Tail }()
	for pass := 0; pass < 3 && len(t.partial) > 0; pass++ {
		redrawn := false
		if ctx.Tail <= 0 {
			for i := range t.partial {
				c2 := *ctx
				c2.Tail = 0 // full drawing
				t.syncCell(&c2, i, width, true, true)
				redrawn = true
			}
		} else {
			// only the cells from the top of the screen down can be on it
			top := t.total - ctx.Tail
			for i := t.cellAt(top); i < len(t.Cells); i++ {
				if ctx.Rows > 0 && t.starts[i] > top+2*ctx.Rows {
					break // far below the screen: drawn once it comes into view
				}
				last, ok := t.partial[i]
				if !ok {
					continue
				}
				end := t.starts[i] + t.cache[i].n
				if end <= top {
					continue
				}
				tail := end - top + 10
				if last > 0 && tail <= last {
					continue // drawn with at least this much already
				}
				c2 := *ctx
				c2.Tail = tail
				t.syncCell(&c2, i, width, true, true)
				redrawn = true
			}
		}
		if !redrawn {
			break
		}
		t.restart()
	}
	return t.total
}

// cellAt returns the index of the cell holding line (as of the last
// restart): the last cell starting at or before it, 0 if none does.
func (t *Transcript) cellAt(line int) int {
	lo, hi := 0, len(t.Cells)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.starts[mid] <= line {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// tailCtx is ctx with Tail reduced by the lines drawn after a cell (-1 when
// the cell is wholly above the screen).
func (t *Transcript) tailCtx(ctx *RenderContext, after int) *RenderContext {
	if ctx.Tail <= 0 || after == 0 {
		return ctx
	}
	c2 := *ctx
	c2.Tail = ctx.Tail - after
	if c2.Tail <= 0 {
		c2.Tail = -1
	}
	return &c2
}

// restart recomputes the start lines from the first changed cell.
func (t *Transcript) restart() {
	for i := t.validStarts; i < len(t.Cells); i++ {
		if i == 0 {
			t.starts[0] = 0
		} else {
			t.starts[i] = t.starts[i-1] + t.cache[i-1].n
		}
	}
	t.validStarts = len(t.Cells)
	t.total = 0
	if n := len(t.Cells); n > 0 {
		t.total = t.starts[n-1] + t.cache[n-1].n
	}
}

// syncCell re-renders cell i if it changed; a live cell already drawn at
// this width waits for a flush. It reports false when it was held back.
func (t *Transcript) syncCell(ctx *RenderContext, i, width int, flush, force bool) bool {
	c := t.Cells[i]
	e := &t.cache[i]
	if !force && e.ok && e.width == width && e.version == c.Version() {
		return true
	}
	if e.ok && e.width == width && !flush {
		if l, ok := c.(Live); ok && l.Live() {
			return false
		}
	}
	old := e.n
	lines := RenderFitted(c, ctx, width)
	t.Renders++
	size := linesSize(lines)
	t.bytes += size - e.size
	*e = cachedLines{version: c.Version(), width: width, lines: lines, ok: true, n: len(lines), size: size, used: t.stamp}
	if l, ok := c.(Lazy); ok {
		if l.Partial() {
			if t.partial == nil {
				t.partial = map[int]int{}
			}
			t.partial[i] = ctx.Tail
		} else {
			delete(t.partial, i)
		}
	}
	if len(lines) != old && i < t.validStarts {
		t.validStarts = i
	}
	return true
}

// Pending reports whether the next Sync would draw something: a flush is
// due, or a cell was appended since the last Sync. Touched live cells
// alone don't count: they wait for the flush.
func (t *Transcript) Pending() bool {
	if t.flushDue || len(t.cache) < len(t.Cells) {
		return true
	}
	for _, i := range t.dirty {
		if l, ok := t.Cells[i].(Live); !ok || !l.Live() || !t.cache[i].ok {
			return true
		}
	}
	return false
}

// Total returns the line count as of the last Sync.
func (t *Transcript) Total() int { return t.total }

// Window returns lines [top, top+h) of the transcript as of the last Sync,
// cut to width. Only the cells that overlap the window are touched: one
// whose drawing was evicted is drawn again first (with the last Sync's
// context), and once the window is cut the cache is brought back within
// TranscriptCacheBytes, the window and a screen around it kept.
func (t *Transcript) Window(top, h, width int) []string {
	if top < 0 {
		top = 0
	}
	out := make([]string, 0, h)
	n := len(t.Cells)
	if n == 0 || h <= 0 || len(t.cache) < n {
		return out
	}
	t.revive(top, h)
	defer t.evict(top, h)
	var m ansi.Method
	if t.lastCtx.Styles != nil {
		m = t.lastCtx.Styles.Width
	}
	t.stamp++
	for i := t.cellAt(top); i < n && len(out) < h; i++ {
		t.cache[i].used = t.stamp
		lines := t.cache[i].lines
		skip := top + len(out) - t.starts[i]
		if skip < 0 {
			skip = 0
		}
		for j := skip; j < len(lines) && len(out) < h; j++ {
			l := lines[j]
			if t.cache[i].width > width && wider(l, width, m) {
				l = Cut(l, width, m) // drawn wider: the next Sync lays it out again
			}
			out = append(out, l)
		}
	}
	return out
}

// Lines renders the whole transcript at width and returns all its lines
// (for the pager, export and tests).
func (t *Transcript) Lines(ctx *RenderContext, width int) []string {
	t.Flush()
	total := t.Sync(ctx, width)
	return t.Window(0, total, width)
}

// Shed asks every Shedder cell to drop what it drew beyond its last
// keep lines, so memory goes back to what the live view needs after a
// whole-transcript render (the pager closed). A cell that shed anything
// is drawn again, cheaply, at the next Sync.
func (t *Transcript) Shed(keep int) {
	for _, c := range t.Cells {
		if s, ok := c.(Shedder); ok {
			s.Shed(keep)
		}
	}
}

// RenderFitted renders c at width with ctx and cuts each line to width
// cells, unless c is Fitted (its lines fit already): a cell's lines as
// the transcript draws them, without its cache.
func RenderFitted(c Cell, ctx *RenderContext, width int) []string {
	lines := c.Render(ctx, width)
	if _, ok := c.(Fitted); ok {
		return lines
	}
	return Fit(lines, width, ctx.Styles.Width)
}

// PartialCells returns the indexes of the cells last drawn partially (see
// Lazy), in no order.
func (t *Transcript) PartialCells() []int {
	out := make([]int, 0, len(t.partial))
	for i := range t.partial {
		out = append(out, i)
	}
	return out
}

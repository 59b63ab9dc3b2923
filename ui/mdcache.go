package ui

import (
	"container/list"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// MarkdownCacheBytes bounds the Markdown block cache shared by every
// renderer of the process, in bytes of source and rendered lines.
// A variable for tests.
var MarkdownCacheBytes = 32 << 20

// mdCache is a least-recently-used cache of rendered Markdown, keyed by
// style, width and source and bounded by bytes. It is shared by every
// Markdown of the process: the viewers of a paired session (one model
// per SSH client) render the same answer at the same widths, and each
// block is then rendered once, not once per viewer (#17). A source that
// is being rendered is waited for, not rendered again alongside.
type mdCache struct {
	mu       sync.Mutex
	entries  map[mdKey]*list.Element
	order    list.List // front: most recently used; values *mdEntry
	bytes    int
	inflight map[mdKey]chan struct{}
	// hits and misses count lookups (for tests and benchmarks).
	hits, misses int
}

type mdKey struct {
	style string
	width int
	src   string
}

type mdEntry struct {
	key   mdKey
	lines []string
	size  int
}

var (
	sharedMD = &mdCache{}
	shareMD  atomic.Bool
)

// ShareMarkdown turns the shared Markdown cache on or off for the whole
// process. The pairing server turns it on: its viewers render the same
// answers. A lone viewer leaves it off; its cells keep their own
// drawings, and the cache would only hold memory (after the pager, say).
func ShareMarkdown(on bool) { shareMD.Store(on) }

// get returns the lines for key, calling render on a miss (without the
// lock held). Callers get their own slice: its elements may be replaced.
func (c *mdCache) get(key mdKey, render func() []string) []string {
	c.mu.Lock()
	for {
		if e, ok := c.entries[key]; ok {
			c.order.MoveToFront(e)
			c.hits++
			lines := e.Value.(*mdEntry).lines
			c.mu.Unlock()
			return slices.Clone(lines)
		}
		wait, busy := c.inflight[key]
		if !busy {
			break
		}
		c.mu.Unlock()
		<-wait
		c.mu.Lock()
		if _, ok := c.entries[key]; !ok {
			break // too big to keep, or dropped at once: render it here
		}
	}
	c.misses++
	if c.inflight == nil {
		c.inflight = map[mdKey]chan struct{}{}
	}
	done := make(chan struct{})
	c.inflight[key] = done
	c.mu.Unlock()

	var lines []string
	defer func() {
		// Also when render panics: who waits renders the block itself.
		c.mu.Lock()
		delete(c.inflight, key)
		close(done)
		if lines != nil {
			c.put(key, lines)
		}
		c.mu.Unlock()
	}()
	lines = render()
	return slices.Clone(lines)
}

// put stores lines for key and drops the least recently used entries
// beyond MarkdownCacheBytes; an entry bigger than a quarter of the
// budget is not kept.
func (c *mdCache) put(key mdKey, lines []string) {
	size := len(key.src) + 64 + linesSize(lines)
	if size > MarkdownCacheBytes/4 {
		return
	}
	// The source is a block of a cell's whole text: kept as it is, it
	// would keep all of that text alive, uncounted.
	key.src = strings.Clone(key.src)
	if c.entries == nil {
		c.entries = map[mdKey]*list.Element{}
	}
	if e, ok := c.entries[key]; ok {
		c.bytes -= e.Value.(*mdEntry).size
		c.order.Remove(e)
	}
	c.entries[key] = c.order.PushFront(&mdEntry{key: key, lines: lines, size: size})
	c.bytes += size
	for c.bytes > MarkdownCacheBytes {
		e := c.order.Back()
		old := e.Value.(*mdEntry)
		c.order.Remove(e)
		delete(c.entries, old.key)
		c.bytes -= old.size
	}
}

// stats returns the cache's size in bytes and entries, and its hits and
// misses so far.
func (c *mdCache) stats() (bytes, entries, hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes, len(c.entries), c.hits, c.misses
}

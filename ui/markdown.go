package ui

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"
)

// Markdown renders Markdown with glamour at a given width. It keeps one
// renderer per width behind a mutex (glamour renderers are not safe for
// concurrent use) and never queries the terminal. Style is "dark",
// "light" or "notty".
type Markdown struct {
	mu        sync.Mutex
	style     string
	renderers map[int]*glamour.TermRenderer
}

// NewMarkdown returns a renderer using the named glamour standard style.
func NewMarkdown(style string) *Markdown {
	return &Markdown{style: style, renderers: map[int]*glamour.TermRenderer{}}
}

// Render returns md rendered to lines no wider than width. On a glamour
// error the source is returned wrapped, so nothing is ever lost. With
// ShareMarkdown on, what was rendered is kept in a cache shared by every
// Markdown of the process (mdcache.go), so the same block at the same
// width and style is rendered once; the slice returned is the caller's
// own either way.
func (m *Markdown) Render(md string, width int) []string {
	if width < 10 {
		width = 10
	}
	if !shareMD.Load() {
		return m.render(md, width)
	}
	return sharedMD.get(mdKey{style: m.style, width: width, src: md}, func() []string { return m.render(md, width) })
}

// render is Render without the cache.
func (m *Markdown) render(md string, width int) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.renderers[width]
	if !ok {
		var err error
		r, err = glamour.NewTermRenderer(
			glamour.WithStandardStyle(m.style),
			glamour.WithWordWrap(width-2),
			glamour.WithEmoji(),
			// Code is highlighted in its own colours, downsampled by the
			// program for the terminal: chroma's 256-colour formatter
			// breaks ties between two nearest colours by map order, so
			// the same comment came out #626262 or #6c6c6c run to run.
			glamour.WithChromaFormatter("terminal16m"),
		)
		if err != nil {
			return Wrap(md, width)
		}
		m.renderers[width] = r
	}
	out, err := r.Render(ExpandTabs(md))
	if err != nil {
		return Wrap(md, width)
	}
	out = strings.Trim(out, "\n")
	lines := strings.Split(out, "\n")
	// glamour pads lines with trailing spaces to the wrap width; trim them
	// so narrow terminals don't wrap again.
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

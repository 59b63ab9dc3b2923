package transcript

import "tandem/ui"

// A page is a text the pager shows in place of the transcript: a side
// question's answer (act.ShowPage, /side and /recap). It has the pager's
// keys, view and Esc, is drawn at once (one Markdown text, no fill over
// frames) and touches no cell of the transcript.
type page struct {
	title, markdown string
}

// OpenPage shows markdown full screen in the pager, from its top, with
// title in the footer; an open pager (the transcript's, or another page)
// gives way to it.
func (p *Panes) OpenPage(title, markdown string) {
	seq := 1
	if old := p.pager; old != nil {
		seq = old.seq + 1
	}
	p.pager = &pager{page: &page{title: title, markdown: markdown}, seq: seq, filled: true}
	p.layOutPage(0)
}

// layOutPage draws the open page at the window's width, its first line
// top.
func (p *Panes) layOutPage(top int) {
	pg := p.pager
	pg.width = p.width()
	pg.lines = p.look.Markdown.Render(ui.Sanitize(pg.page.markdown), pg.width)
	pg.top = top
	pg.scroll(0, p.h)
}

// PageOpen reports whether the pager shows a page (OpenPage), not the
// transcript.
func (p *Panes) PageOpen() bool { return p.pager != nil && p.pager.page != nil }

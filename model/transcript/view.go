package transcript

import (
	"strings"
	"time"

	"tandem/thread"
	"tandem/ui"
)

// view is one pane's drawing of its thread: the cells (one per item
// drawn, plus this viewer's banners), the scroll position, and the
// caches that keep a frame cheap.
type view struct {
	transcript ui.Transcript
	// cells maps the thread's items to the cells drawing them.
	cells map[*thread.Item]ui.Cell
	// follow the bottom unless the user scrolled up; top is the first
	// visible transcript line when not following.
	follow bool
	top    int
	// header is the status line's "working" header: the reasoning
	// summary's latest bold heading.
	header string
	// awaiting are the command cells labelled "awaiting approval".
	awaiting map[*ui.CommandCell]bool
	// frame is the last screen drawn, at frameW×frameH (frameAt, by the
	// clock): a streaming delta that changes nothing drawn yet reuses it.
	frame          string
	frameOK        bool
	frameW, frameH int
	frameAt        time.Time
	// authors are the drivers of a shared session whose prompts were
	// sent but are not drawn yet (hub.ActionEvent), oldest first; the
	// user message with the same text takes its author.
	authors []authorNote
}

// touchable cells are told when what they draw changed.
type touchable interface{ Touch() }

// add appends a cell of this viewer's own (a banner, an echoed prompt).
func (v *view) add(c ui.Cell) { v.transcript.Append(c) }

// addItem appends the cell that draws it; cwd is the thread's workspace
// (file changes under it are shown relative to it).
func (v *view) addItem(it *thread.Item, cwd string) {
	v.transcript.Append(v.newCell(it, cwd, true))
}

// newCell returns the cell that draws it, known from then on to cell and
// touch (addItem appends it; the earlier turns go above). A new user
// message takes the author of the prompt it was; an older one, read from
// the thread's history, has none to take.
func (v *view) newCell(it *thread.Item, cwd string, isNew bool) ui.Cell {
	var c ui.Cell
	switch it.Kind {
	case thread.User:
		author := ""
		if isNew {
			author = v.takeAuthor(it.Text())
		}
		c = &ui.UserCell{Text: it.Text(), Images: ItemImages(it.Images), Author: author}
	case thread.Agent:
		c = ui.NewAgentCell(it)
	case thread.Reasoning:
		c = &ui.ReasoningCell{Item: it}
	case thread.Command:
		c = &ui.CommandCell{Item: it}
	case thread.FileChange:
		c = &ui.FileChangeCell{Item: it, Cwd: cwd}
	case thread.Plan:
		c = &ui.PlanCell{Item: it}
	default:
		c = &ui.ToolCell{Item: it}
	}
	if v.cells == nil {
		v.cells = map[*thread.Item]ui.Cell{}
	}
	v.cells[it] = c
	return c
}

// ItemImages names a user message's images as its cell lists them.
func ItemImages(refs []string) []string {
	if len(refs) == 0 {
		return nil
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = ui.ImageLabel(r, -1)
	}
	return out
}

// touch redraws the cell of it, if it has one.
func (v *view) touch(it *thread.Item) {
	if c, ok := v.cells[it].(touchable); ok {
		c.Touch()
	}
}

// cell returns the cell drawing it (nil when none).
func (v *view) cell(it *thread.Item) ui.Cell { return v.cells[it] }

// reset removes every cell (a new thread).
func (v *view) reset() {
	v.transcript.Reset()
	v.cells, v.awaiting = nil, nil
	v.follow = true
	v.frameOK = false
}

// authorNote is a driver's prompt waiting for its user message.
type authorNote struct{ who, text string }

// maxAuthors bounds the prompts waiting for their messages: one that
// never comes back (a refused turn) must not hold the list for good.
const maxAuthors = 32

// noteAuthor remembers who sent text.
func (v *view) noteAuthor(who, text string) {
	v.authors = append(v.authors, authorNote{who, strings.TrimSpace(text)})
	if len(v.authors) > maxAuthors {
		v.authors = v.authors[len(v.authors)-maxAuthors:]
	}
}

// takeAuthor returns who sent the message text (the oldest waiting prompt
// with that text) and forgets it; "" when nobody is noted for it.
func (v *view) takeAuthor(text string) string {
	text = strings.TrimSpace(text)
	for i, a := range v.authors {
		if a.text == text {
			v.authors = append(v.authors[:i:i], v.authors[i+1:]...)
			return a.who
		}
	}
	return ""
}

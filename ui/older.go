package ui

// OlderState is what an OlderCell says about a thread's earlier turns.
type OlderState int

// The states of an OlderCell.
const (
	// OlderMore: earlier turns exist and are read when the view reaches
	// the top.
	OlderMore OlderState = iota
	// OlderLoading: they are being read (`thread/turns/list`).
	OlderLoading
	// OlderFailed: the last read failed (Err says why); reaching the top
	// again retries.
	OlderFailed
	// OlderHidden: they exist but this view cannot read them; Err says
	// why (--no-alt-screen prints the transcript into the terminal's
	// scrollback, where nothing can be put above what is there).
	OlderHidden
	// OlderNone: every turn is read; the cell draws nothing.
	OlderNone
)

// OlderCell stands first in the transcript of a thread resumed with only
// its newest turns (#17): it says that earlier turns exist and how to read
// them, that they are being read, or why reading them failed. Once every
// turn is read it draws nothing.
type OlderCell struct {
	versioned
	State OlderState
	Err   string
}

// Set changes what the cell says (err for OlderFailed and OlderHidden).
func (c *OlderCell) Set(st OlderState, err string) {
	if st != c.State || err != c.Err {
		c.State, c.Err = st, err
		c.Touch()
	}
}

// Render implements Cell.
func (c *OlderCell) Render(ctx *RenderContext, width int) []string {
	var text string
	sty := ctx.Styles.Dim
	switch c.State {
	case OlderNone:
		return nil
	case OlderMore:
		text = "↑ earlier turns of this thread: scroll up to read them"
		if ctx.Expanded {
			text = "↑ earlier turns of this thread are not read yet: close the pager and scroll to the top to read them"
		}
	case OlderLoading:
		text = "↑ reading earlier turns…"
	case OlderFailed:
		text, sty = "⚠ could not read earlier turns: "+c.Err+" (scroll up to try again)", ctx.Styles.Warn
	case OlderHidden:
		text = "↑ earlier turns of this thread are not shown: " + c.Err
	}
	lines := Wrap(Sanitize(text), width)
	for i := range lines {
		lines[i] = sty.Render(lines[i])
	}
	return lines
}

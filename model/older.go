package model

// inlineHistory is how many turns a thread resumed under --no-alt-screen
// is printed with: nothing can be put above what the terminal's
// scrollback holds, so its earlier turns are read before it is drawn.
const inlineHistory = 1000

// resumeHow is what a resume reads besides the thread's newest page:
// fill is how many turns to read before it is drawn (resumeNow), peek
// whether to draw the newest page while it runs (peekCmd).
type resumeHow struct {
	fill int
	peek bool
}

// resumeHow is how to resume now. Under --no-alt-screen nothing can go
// above the scrollback: inlineHistory turns are read first, and nothing
// is drawn before. Otherwise the newest page is drawn at once, when
// nothing else is on screen yet (`tandem resume`).
func (m *Model) resumeHow() resumeHow {
	if m.panes.Inline() { // the inline terminal, whether or not the pager is up
		return resumeHow{fill: inlineHistory}
	}
	return resumeHow{peek: m.panes.Empty()}
}

package act

import "tandem/backend"

// Asked by /search's picker (model/commands) of the turn machine and the
// panes.

// ResumeAt opens Thread, chosen in /search's picker, scrolled to its
// turn TurnID ("" not known: at its end, as a resume is) (turn).
type ResumeAt struct {
	Thread backend.Thread
	TurnID string
}

// ScrollToTurn scrolls the thread's pane so turn ID's first line is at
// the top, reading earlier pages of the thread until the turn is loaded
// (panes: model/transcript's ScrollToTurn).
type ScrollToTurn struct{ ID string }

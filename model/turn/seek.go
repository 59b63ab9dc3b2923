package turn

import "tandem/model/act"

// Resuming a thread at a turn: /search's choice (act.ResumeAt) opens the
// thread as a resume does, then asks the panes to scroll to the turn
// (act.ScrollToTurn) once its history is in.

// resumeAt resumes i.Thread and remembers the turn to scroll to.
func (t *Turns) resumeAt(i act.ResumeAt) {
	if t.client == nil {
		return
	}
	t.t.seek = i.TurnID
	t.openingThread(i.Thread.ID)
	t.resume(i.Thread, t.resumeHow())
}

// seekOpened asks for the scroll to the remembered turn, once the thread
// opened by a resume has its history in; any other opening forgets it.
func (t *Turns) seekOpened(how string) {
	id := t.t.seek
	t.t.seek = ""
	if id != "" && how == act.HowResumed {
		t.out().Want(act.ScrollToTurn{ID: id})
	}
}

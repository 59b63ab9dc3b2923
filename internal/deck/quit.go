package deck

import (
	"tandem/model"
	"tandem/model/status"
)

// busyBut counts the lanes but id (noLane: every lane) whose turn runs
// and that do not wait, and those that wait for an answer: quitting
// leaves them, so the first quit key names them (model/status Busy).
func (d *Model) busyBut(id LaneID) (running, waiting int) {
	for _, l := range d.lanes {
		switch {
		case l.ID == id:
		case l.waiting():
			waiting++
		case l.running || l.sum.Phase == model.PhaseRunning:
			running++
		}
	}
	return running, waiting
}

// quitNote is the list's notice after the first quit key: the threads
// still running or waiting (none is on screen), and the key to press
// again.
func (d *Model) quitNote() string {
	again := d.keys.DeckQuit.Help().Key + " again to quit tandem"
	running, waiting := d.busyBut(noLane)
	d.list.quitBusy = [2]int{running, waiting}
	if b := status.Busy(running, waiting, false); b != "" {
		return b + " — " + again
	}
	return again
}

// quitAgain reports whether more threads run or wait now than the quit
// warning named: a request that came after it would be left unseen, so
// the quit key warns again instead of quitting.
func (d *Model) quitAgain() bool {
	running, waiting := d.busyBut(noLane)
	return waiting > d.list.quitBusy[1] || running+waiting > d.list.quitBusy[0]+d.list.quitBusy[1]
}

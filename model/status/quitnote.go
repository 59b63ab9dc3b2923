package status

import "fmt"

// Busy says how many threads still have a turn running and how many wait
// for the person ("2 other threads still running, 1 waiting for you";
// others: the threads besides the one on screen), "" for none: the
// warning before quitting leaves them.
func Busy(running, waiting int, others bool) string {
	other := ""
	if others {
		other = "other "
	}
	threads := func(n int) string {
		if n == 1 {
			return fmt.Sprintf("1 %sthread", other)
		}
		return fmt.Sprintf("%d %sthreads", n, other)
	}
	switch {
	case running > 0 && waiting > 0:
		return fmt.Sprintf("%s still running, %d waiting for you", threads(running), waiting)
	case running > 0:
		return threads(running) + " still running"
	case waiting > 0:
		return threads(waiting) + " waiting for you"
	}
	return ""
}

// OthersBusy reports whether another thread of the command center has a
// turn running or waits for an answer (model.DeckInfo): quitting asks
// twice.
func (s *Status) OthersBusy() bool { return s.othersRunning > 0 || s.info.OthersWaiting > 0 }

// QuitNote is the notice of an armed quit: with other threads busy it
// names them, then "press KEY again to quit" (key as the keymap displays
// it); hint is the notice without them.
func (s *Status) QuitNote(key, hint string) string {
	if b := Busy(s.othersRunning, s.info.OthersWaiting, true); b != "" {
		return b + " — press " + key + " again to quit"
	}
	return hint
}

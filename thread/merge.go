package thread

import (
	"strings"

	"tandem/backend"
)

// Merge folds a thread's history into a state that already holds part of
// it (a re-attach: the turns of `thread/resume` after the link to the
// daemon dropped). Items are matched by (turn id, item id), so nothing is
// added twice: an item already known is completed with the history's
// content (changed), one completed while tandem was away is added
// (added), in history order.
func (s *State) Merge(turns []backend.Turn) (added, changed []*Item) {
	for _, t := range turns {
		for _, it := range t.Items {
			ch := s.upsert(t.ID, it, true)
			switch {
			case ch.Item == nil:
			case ch.Added:
				added = append(added, ch.Item)
			default:
				changed = append(changed, ch.Item)
			}
		}
	}
	return added, changed
}

// GapMark is appended to a message still streaming when the link to the
// daemon dropped: what streamed meanwhile is not sent again, and the
// whole text replaces the mark once the item completes.
const GapMark = "\n\n… (streamed while disconnected: the whole message shows once it completes)\n\n"

// MarkGaps appends GapMark to every agent message and reasoning summary
// that has not completed, and returns them. Call it when the link drops:
// what streams after the re-attach follows the mark, and Merge (or the
// item's completion) replaces it with the whole text.
func (s *State) MarkGaps() []*Item {
	var out []*Item
	for _, it := range s.items {
		if it.Done || (it.Kind != Agent && it.Kind != Reasoning) {
			continue
		}
		it.appendText(GapMark)
		it.Rev++
		out = append(out, it)
	}
	return out
}

// GapEnd replaces GapMark in a message the turn ended without
// completing (the daemon restarted while tandem was away): the rest never
// comes.
const GapEnd = "\n\n… (the rest was lost: the turn ended while disconnected)"

// EndGaps turns the gap marks still open (their item never completed:
// its turn is over) into GapEnd, marks those items done, and returns
// them. Call it after Merge when the thread's last turn is not running.
func (s *State) EndGaps() []*Item {
	var out []*Item
	for _, it := range s.items {
		text := it.Text()
		if it.Done || !strings.HasSuffix(text, GapMark) {
			continue
		}
		it.setText(strings.TrimSuffix(text, GapMark) + GapEnd)
		it.Done = true
		it.Rev++
		out = append(out, it)
	}
	return out
}

// The statuses EndOpen gives items that will never complete.
const (
	// StatusInterrupted: the turn was interrupted or abandoned while the
	// item ran (or waited for its approval).
	StatusInterrupted = "interrupted"
	// StatusUnknown: the app-server went away while the item ran; what
	// became of it is not known.
	StatusUnknown = "unknown"
)

// EndOpen ends every command, file change and tool call of turn ("" for
// every turn) that has not completed — running, or waiting for its
// approval — with status (StatusInterrupted, StatusUnknown), marks them
// done, and returns them. Call it when the server that runs them is gone
// or their turn ended: nothing will complete them, and they must not
// read "running". Messages and reasoning are left as they are.
func (s *State) EndOpen(turn, status string) []*Item {
	var out []*Item
	for _, it := range s.items {
		if it.Done || (turn != "" && it.Key.Turn != turn) {
			continue
		}
		switch it.Kind {
		case Command, FileChange, Tool:
		default:
			continue
		}
		if it.Status != "" && it.Status != "inProgress" {
			continue // the server said how it ended
		}
		it.Status, it.Done = status, true
		it.Rev++
		out = append(out, it)
	}
	return out
}

package sessions

import (
	"encoding/json"

	"tandem/backend"
)

// Lane says that a thread of the recording is another lane of the
// command center (internal/deck), not the session's own thread: every
// lane runs on the one app-server connection the recording traces, so
// its events are in the recording, tagged by its threadId. The recorder
// writes it with Mark("lane", …) once the lane's thread is open, as the
// notification "tandem/lane". Lane is the deck's lane number, Thread the
// thread's id, Title what the command center called it (its first
// prompt, or the thread's id).
//
// A recording without lanes (every recording before them) reads as
// before: one thread, switched by /new, /resume, /fork or a rewind.
type Lane struct {
	Lane   int    `json:"lane"`
	Thread string `json:"thread"`
	Title  string `json:"title,omitempty"`
}

// laneMethod is the recorded notification of a Lane.
const laneMethod = "tandem/lane"

// Lanes returns the recording's lanes past the first, in the order they
// were noted, once each.
func (r *Recording) Lanes() []Lane {
	var out []Lane
	seen := map[string]bool{}
	for _, e := range r.Entries {
		if e.Dir != backend.Sent || len(e.Msg) == 0 {
			continue
		}
		m, ok := e.Message()
		if !ok || m.Method != laneMethod {
			continue
		}
		var l Lane
		if json.Unmarshal(m.Params, &l) != nil || l.Thread == "" || seen[l.Thread] {
			continue
		}
		seen[l.Thread] = true
		out = append(out, l)
	}
	return out
}

// laneThreads is the set of the lanes' threads.
func laneThreads(ls []Lane) map[string]bool {
	out := make(map[string]bool, len(ls))
	for _, l := range ls {
		out[l.Thread] = true
	}
	return out
}

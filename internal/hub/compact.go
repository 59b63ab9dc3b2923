package hub

import (
	"strings"

	"tandem/backend"
)

// The log is compacted as it grows, so that it holds the transcript, not
// every event of the session: a late joiner's replay, and the hub's
// memory, are then O(transcript) rather than O(events).
//
// compact rewrites the part of the log every connected viewer has read
// (the log below the lowest cursor); the rest stays as it came, so a slow
// viewer still gets every event it has not seen. Within that part:
//   - the deltas of an item that completed are dropped: the completed
//     item carries its final text, summary or output (a command whose
//     completion has no aggregated output keeps its output deltas);
//   - the deltas of a live item are merged into one delta per item and
//     kind, at the place of the first;
//   - of a turn's diff updates, and of token usage and rate limits, only
//     the last is kept;
//   - answered server requests and their RequestResolvedEvent go.
//
// Everything else — turns, item starts and completions, presence, plans,
// warnings, the caller's own values — stays in order.

// compactMin is the log length below which compaction is not worth it.
const compactMin = 4096

// deltaKey names the stream one delta belongs to.
type deltaKey struct {
	kind               int // 1 agent text, 2 reasoning summary, 3 command output, 4 patch
	sub                bool
	thread, turn, item string
	summaryIndex       int
}

// itemKey names an item across threads.
type itemKey struct {
	sub                bool
	thread, turn, item string
}

func (k deltaKey) itemKey() itemKey { return itemKey{k.sub, k.thread, k.turn, k.item} }

// deltaOf returns the stream key of a delta event (wrapped in a
// SubAgentEvent or not), or ok=false for any other value.
func deltaOf(v any) (deltaKey, bool) {
	sub := false
	if s, isSub := v.(backend.SubAgentEvent); isSub {
		sub, v = true, s.Event
	}
	switch e := v.(type) {
	case backend.AgentMessageDeltaEvent:
		return deltaKey{1, sub, e.ThreadID, e.TurnID, e.ItemID, 0}, true
	case backend.ReasoningSummaryDeltaEvent:
		return deltaKey{2, sub, e.ThreadID, e.TurnID, e.ItemID, e.SummaryIndex}, true
	case backend.CommandOutputDeltaEvent:
		return deltaKey{3, sub, e.ThreadID, e.TurnID, e.ItemID, 0}, true
	case backend.PatchUpdatedEvent:
		return deltaKey{4, sub, e.ThreadID, e.TurnID, e.ItemID, 0}, true
	}
	return deltaKey{}, false
}

// completion returns the key of an ItemCompletedEvent and which delta
// kinds its item makes redundant (bit 1<<kind).
func completion(v any) (itemKey, uint8, bool) {
	sub := false
	if s, isSub := v.(backend.SubAgentEvent); isSub {
		sub, v = true, s.Event
	}
	e, ok := v.(backend.ItemCompletedEvent)
	if !ok {
		return itemKey{}, 0, false
	}
	it := e.Item
	covers := uint8(1 << 4) // the completed item has its final changes
	if it.Text != "" {
		covers |= 1 << 1
	}
	if len(it.Summary) > 0 {
		covers |= 1 << 2
	}
	if it.AggregatedOutput != nil {
		covers |= 1 << 3
	}
	return itemKey{sub, e.ThreadID, e.TurnID, it.ID}, covers, true
}

// deltaText is the text a streaming delta adds.
func deltaText(v any) string {
	switch e := v.(type) {
	case backend.SubAgentEvent:
		return deltaText(e.Event)
	case backend.AgentMessageDeltaEvent:
		return e.Delta
	case backend.ReasoningSummaryDeltaEvent:
		return e.Delta
	case backend.CommandOutputDeltaEvent:
		return e.Delta
	}
	return ""
}

// withDelta returns delta v adding text instead of its own.
func withDelta(v any, text string) any {
	switch e := v.(type) {
	case backend.SubAgentEvent:
		return backend.SubAgentEvent{Event: withDelta(e.Event, text).(backend.Event)}
	case backend.AgentMessageDeltaEvent:
		e.Delta = text
		return e
	case backend.ReasoningSummaryDeltaEvent:
		e.Delta = text
		return e
	case backend.CommandOutputDeltaEvent:
		e.Delta = text
		return e
	}
	return v
}

// lastOnlyKey returns a key for values of which only the last matters
// (a turn's diff so far, token usage, rate limits), or "" for others.
func lastOnlyKey(v any) string {
	switch e := v.(type) {
	case backend.TurnDiffUpdatedEvent:
		return "diff\x00" + e.ThreadID + "\x00" + e.TurnID
	case backend.TokenUsageEvent:
		return "usage\x00" + e.ThreadID
	case backend.RateLimitsEvent:
		return "limits"
	}
	return ""
}

// compactLog returns the compacted form of entries, all of which every
// connected viewer has read; answered reports whether a server request or
// its resolution is for an answered request.
func compactLog(entries []any, answered func(backend.RequestID) bool) []any {
	done := map[itemKey]uint8{}
	last := map[string]int{}
	for i, v := range entries {
		if k, covers, ok := completion(v); ok {
			done[k] = covers
		}
		if k := lastOnlyKey(v); k != "" {
			last[k] = i
		}
	}
	out := make([]any, 0, len(entries)/4)
	merged := map[deltaKey]int{} // a live item's delta → its index in out
	// The text merged into out[j], built once at the end: adding each
	// delta to a string would copy it again every time.
	texts := map[int]*strings.Builder{}
	for i, v := range entries {
		if k, ok := deltaOf(v); ok {
			if done[k.itemKey()]&(1<<k.kind) != 0 {
				continue
			}
			if j, seen := merged[k]; seen {
				if k.kind == 4 {
					out[j] = v // the latest changes replace the earlier ones
					continue
				}
				b := texts[j]
				if b == nil {
					b = &strings.Builder{}
					b.WriteString(deltaText(out[j]))
					texts[j] = b
				}
				b.WriteString(deltaText(v))
				continue
			}
			merged[k] = len(out)
			out = append(out, v)
			continue
		}
		if k := lastOnlyKey(v); k != "" && last[k] != i {
			continue
		}
		switch r := v.(type) {
		case backend.ServerRequest:
			if answered(r.ID()) {
				continue
			}
		case backend.RequestResolvedEvent:
			if answered(r.RequestID) {
				continue
			}
		}
		out = append(out, v)
	}
	for j, b := range texts {
		out[j] = withDelta(out[j], b.String())
	}
	return out
}

// Compact compacts the part of the log every viewer has read now; the hub
// also does so by itself as the log grows.
func (h *Hub) Compact() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.compactLocked()
}

// Compactions returns how many times the log was compacted.
func (h *Hub) Compactions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.compactions
}

// maybeCompactLocked compacts the read part of the log once the log has
// doubled since the last compaction (and is at least compactMin long), so
// the work is O(1) a value over time. h.mu must be held.
func (h *Hub) maybeCompactLocked() {
	if len(h.log) >= max(compactMin, 2*h.compacted) {
		h.compactLocked()
	}
}

func (h *Hub) compactLocked() {
	k := len(h.log)
	for _, v := range h.roster {
		k = min(k, v.next)
	}
	if k == 0 {
		return
	}
	answered := func(id backend.RequestID) bool {
		s, ok := h.reqs[id.String()]
		return ok && s.answered
	}
	head := compactLog(h.log[:k], answered)
	shift := k - len(head)
	log := make([]any, 0, len(head)+len(h.log)-k)
	log = append(append(log, head...), h.log[k:]...)
	h.log = log
	for _, v := range h.roster {
		v.next -= shift
	}
	h.compacted = len(h.log)
	h.compactions++
}

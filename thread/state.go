package thread

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"tandem/backend"
)

// State is one thread as the fold knows it: its items in the order they
// first appeared, and the thread-level values the status line and /diff
// show. The zero value is an empty state for any thread; use Reset to
// name one. It is not safe for concurrent use: one viewer's model owns it.
type State struct {
	threadID string
	items    []*Item
	index    map[Key]*Item
	// latest is the most recent item with each id, for events that name no
	// turn.
	latest map[string]*Item
	last   map[Kind]*Item

	// Usage is the thread's token use (`thread/tokenUsage/updated`).
	Usage Usage
	// RateLimits are the account's windows (`account/rateLimits/updated`),
	// primary first; nil until reported.
	RateLimits []RateLimit
	// Diff is the last turn's whole unified diff (`turn/diff/updated`);
	// "" when no turn changed files yet.
	Diff string
}

// Usage is a thread's token use: the total so far, the last request's
// input, and the model's context window (0 when unknown), in tokens.
type Usage struct {
	Total, LastInput, ContextWindow int64
}

// RateLimit is one rate-limit window: its length in minutes (0 when
// unknown) and the percentage of it used (0–100).
type RateLimit struct {
	WindowMins  int64
	UsedPercent float64
}

// Change says what one Apply did: Item is the item added or changed (nil
// when none was), Added that it is new (append it to the transcript),
// Status that thread-level values changed (usage, rate limits, diff), and
// Cut the streaming items the event cut (Item.Cut: redraw them too).
type Change struct {
	Item   *Item
	Added  bool
	Status bool
	Cut    []*Item
}

// Reset empties the state and makes it the state of thread id; events of
// other threads are ignored from then on ("" accepts every thread).
func (s *State) Reset(id string) {
	*s = State{threadID: id}
}

// SetThread makes the state follow thread id from now on, keeping its
// items (a restarted app-server resumes the same thread; a session that
// names its thread late).
func (s *State) SetThread(id string) { s.threadID = id }

// ThreadID returns the thread the state is of ("" when any).
func (s *State) ThreadID() string { return s.threadID }

// Items returns every item, in the order they first appeared. The slice
// is the state's own: read it, don't keep it across Apply.
func (s *State) Items() []*Item { return s.items }

// Find returns the item of turn with id: the exact key, else, when turn
// is "" (an event that names no turn), the latest item with that id, else
// an item keyed without a turn. It returns nil when there is none.
func (s *State) Find(turn, id string) *Item {
	if it := s.index[Key{turn, id}]; it != nil {
		return it
	}
	if turn == "" {
		return s.latest[id]
	}
	return s.index[Key{"", id}]
}

// LastTurn returns the id of the newest turn that has an item here ("":
// none): how far back a re-attach must read the thread's history.
func (s *State) LastTurn() string {
	for i := len(s.items) - 1; i >= 0; i-- {
		if t := s.items[i].Key.Turn; t != "" {
			return t
		}
	}
	return ""
}

// Last returns the last item of kind to appear, or nil.
func (s *State) Last(kind Kind) *Item { return s.last[kind] }

func (s *State) add(key Key, kind Kind, typ string) *Item {
	if s.index == nil {
		s.index, s.latest, s.last = map[Key]*Item{}, map[string]*Item{}, map[Kind]*Item{}
	}
	it := &Item{Key: key, Kind: kind, Type: typ}
	if kind == Command {
		it.Output = &Output{}
	}
	s.items = append(s.items, it)
	s.index[key] = it
	s.latest[key.Item] = it
	s.last[kind] = it
	return it
}

// Apply folds one event into the state and says what changed. Events of
// another thread than the state's, and kinds the fold does not keep
// (turn and thread status, requests, the connection), change nothing.
func (s *State) Apply(ev backend.Event) Change {
	if t := ev.Thread(); t != "" && s.threadID != "" && t != s.threadID {
		return Change{}
	}
	switch e := ev.(type) {
	case backend.ItemStartedEvent:
		var cut []*Item
		if e.Item.Type == "userMessage" {
			// The user steered the turn: what streamed until now is all
			// there will be of it.
			cut = s.cutOpen(e.TurnID)
		}
		ch := s.upsert(e.TurnID, e.Item, false)
		ch.Cut = cut
		return ch
	case backend.TurnCompletedEvent:
		return Change{Cut: s.cutOpen(e.Turn.ID)}
	case backend.ItemCompletedEvent:
		return s.upsert(e.TurnID, e.Item, true)
	case backend.AgentMessageDeltaEvent:
		return s.stream(Key{e.TurnID, e.ItemID}, Agent, "agentMessage", func(it *Item) { it.appendText(e.Delta) })
	case backend.ReasoningSummaryDeltaEvent:
		return s.stream(Key{e.TurnID, e.ItemID}, Reasoning, "reasoning", func(it *Item) { it.appendText(e.Delta) })
	case backend.CommandOutputDeltaEvent:
		return s.stream(Key{e.TurnID, e.ItemID}, Command, "commandExecution", func(it *Item) {
			if it.Status == "" {
				it.Status = "inProgress"
			}
			it.Output.Append(e.Delta)
		})
	case backend.PatchUpdatedEvent:
		it := s.Find(e.TurnID, e.ItemID)
		if it == nil || it.Kind != FileChange {
			return Change{}
		}
		it.Files = files(e.Changes)
		it.Rev++
		return Change{Item: it}
	case backend.PlanUpdatedEvent:
		key := Key{e.TurnID, "plan"}
		ch := Change{Item: s.index[key]}
		if ch.Item == nil {
			ch.Item, ch.Added = s.add(key, Plan, ""), true
		}
		steps := make([]PlanStep, 0, len(e.Plan))
		for _, p := range e.Plan {
			steps = append(steps, PlanStep{Step: p.Step, Status: p.Status})
		}
		expl := ""
		if e.Explanation != nil {
			expl = *e.Explanation
		}
		ch.Item.Steps = steps
		ch.Item.setText(expl)
		ch.Item.Rev++
		return ch
	case backend.HookStartedEvent:
		return s.hook(e.TurnID, e.Run)
	case backend.HookCompletedEvent:
		return s.hook(e.TurnID, e.Run)
	case backend.McpProgressEvent:
		it := s.Find(e.TurnID, e.ItemID)
		if it == nil || it.Kind != Tool || it.Done {
			return Change{}
		}
		it.Progress = e.Message
		it.Rev++
		return Change{Item: it}
	case backend.TerminalInteractionEvent:
		it := s.Find(e.TurnID, e.ItemID)
		if it == nil || it.Kind != Command {
			return Change{}
		}
		it.Stdin = e.Stdin
		it.Rev++
		return Change{Item: it}
	case backend.TurnDiffUpdatedEvent:
		s.Diff = e.Diff
		return Change{Status: true}
	case backend.TokenUsageEvent:
		s.Usage.Total = e.TokenUsage.Total.TotalTokens
		s.Usage.LastInput = e.TokenUsage.Last.InputTokens
		if e.TokenUsage.ModelContextWindow != nil {
			s.Usage.ContextWindow = *e.TokenUsage.ModelContextWindow
		}
		return Change{Status: true}
	case backend.RateLimitsEvent:
		var rl []RateLimit
		for _, w := range []*backend.RateLimitWindow{e.RateLimits.Primary, e.RateLimits.Secondary} {
			if w == nil {
				continue
			}
			var mins int64
			if w.WindowDurationMins != nil {
				mins = *w.WindowDurationMins
			}
			rl = append(rl, RateLimit{WindowMins: mins, UsedPercent: w.UsedPercent})
		}
		if len(rl) == 0 {
			return Change{}
		}
		s.RateLimits = rl
		return Change{Status: true}
	}
	return Change{}
}

// hook folds a hook run (hook/started, hook/completed) into a quiet Tool
// item of its turn ("" for the thread's own hooks), keyed by the run.
func (s *State) hook(turn *string, run backend.HookRun) Change {
	t := ""
	if turn != nil {
		t = *turn
	}
	key := Key{t, "hook:" + run.ID}
	ch := Change{Item: s.index[key]}
	if ch.Item == nil {
		ch.Item, ch.Added = s.add(key, Tool, "hook"), true
	}
	x := ch.Item
	x.Quiet = true
	x.Status = run.Status
	x.Done = run.Status != "running"
	what := run.HandlerType
	if run.SourcePath != "" {
		what += " " + run.SourcePath
	}
	x.Title = fmt.Sprintf("hook %s (%s): %s", run.EventName, what, run.Status)
	if run.DurationMs != nil && x.Done {
		x.Title += fmt.Sprintf(" in %s", (time.Duration(*run.DurationMs) * time.Millisecond).Round(time.Millisecond))
	}
	var lines []string
	if run.StatusMessage != nil && *run.StatusMessage != "" {
		lines = append(lines, *run.StatusMessage)
	}
	for _, e := range run.Entries {
		lines = append(lines, e.Kind+": "+e.Text)
	}
	x.Detail = strings.Join(lines, "\n")
	x.Rev++
	return ch
}

// Load folds a thread's history (the turns of `thread/resume` or
// `thread/fork`) as completed items and returns the items added, in
// order.
func (s *State) Load(turns []backend.Turn) []*Item {
	var out []*Item
	for _, t := range turns {
		for _, it := range t.Items {
			if ch := s.upsert(t.ID, it, true); ch.Added {
				out = append(out, ch.Item)
			}
		}
	}
	return out
}

// Prepend folds turns that came before every item of the state (the
// older turns of a resumed thread, read as the user scrolls up) as
// completed items, puts them in front, and returns the items added, in
// order. What Last and Find give for the newer items is kept; an item the
// state has already is left as it is.
func (s *State) Prepend(turns []backend.Turn) []*Item {
	newer := s.items
	last := make(map[Kind]*Item, len(s.last))
	for k, it := range s.last {
		last[k] = it
	}
	var latest map[string]*Item
	s.items = nil
	var out []*Item
	for _, t := range turns {
		for _, it := range t.Items {
			if s.index[Key{t.ID, it.ID}] != nil {
				continue
			}
			if old := s.latest[it.ID]; old != nil {
				if latest == nil {
					latest = map[string]*Item{}
				}
				if _, ok := latest[it.ID]; !ok {
					latest[it.ID] = old
				}
			}
			if ch := s.upsert(t.ID, it, true); ch.Added {
				out = append(out, ch.Item)
			}
		}
	}
	s.items = append(s.items, newer...)
	for k, it := range last {
		s.last[k] = it
	}
	for id, it := range latest {
		s.latest[id] = it
	}
	return out
}

// cutOpen marks the agent messages and reasoning summaries of turn that
// are still streaming as cut (done, Cut) and returns them: the turn ended
// or was steered before they completed.
func (s *State) cutOpen(turn string) []*Item {
	if turn == "" {
		return nil
	}
	var out []*Item
	for _, it := range s.items {
		if it.Done || it.Key.Turn != turn || (it.Kind != Agent && it.Kind != Reasoning) {
			continue
		}
		it.Done, it.Cut = true, true
		it.Rev++
		out = append(out, it)
	}
	return out
}

// stream applies a delta to the item at key, creating it (of kind) when
// the delta comes first.
func (s *State) stream(key Key, kind Kind, typ string, apply func(*Item)) Change {
	ch := Change{Item: s.Find(key.Turn, key.Item)}
	if ch.Item == nil || ch.Item.Kind != kind {
		ch.Item, ch.Added = s.add(key, kind, typ), true
	}
	apply(ch.Item)
	ch.Item.Rev++
	return ch
}

// upsert creates or updates the item for a thread item. final marks
// item/completed (or history), whose content replaces what streamed; a
// start that comes after the item completed changes nothing.
func (s *State) upsert(turn string, it backend.Item, final bool) Change {
	key := Key{turn, it.ID}
	kind, ok := kindOf(it.Type)
	var title, detail string
	quiet := false
	if !ok {
		if title, detail = describe(it); title == "" {
			// A kind tandem does not know: one quiet line, never dropped.
			title, quiet = "item of a kind tandem does not show: "+it.Type, true
		}
	}
	ch := Change{Item: s.Find(turn, it.ID)}
	if ch.Item != nil && ch.Item.Done && !final {
		if sameWork(ch.Item, it) {
			return Change{} // a late start of the item that completed
		}
		// A start for another item under an id that completed: the model
		// reused a call_id within the turn. It is an item of its own —
		// what it does must never be drawn, or approved, as the old one
		// did — and the id names it from now on.
		ch.Item = nil
	}
	if ch.Item == nil || ch.Item.Type != it.Type {
		if kind == User && !final {
			return Change{} // a user message shows once it is complete
		}
		ch.Item, ch.Added = s.add(key, kind, it.Type), true
	}
	x := ch.Item
	x.Done = x.Done || final
	x.Cut = x.Cut && !final
	switch kind {
	case User:
		x.setText(it.UserText())
		x.Images = it.UserImages()
	case Agent:
		if final && it.Text != "" {
			x.setText(it.Text)
		}
	case Reasoning:
		if final && len(it.Summary) > 0 {
			x.setText(strings.Join(it.Summary, "\n\n"))
		}
	case Command:
		x.Command, x.Cwd, x.Status, x.ExitCode, x.Source = it.Command, it.Cwd, it.Status, it.ExitCode, it.Source
		if it.DurationMs != nil {
			x.Duration = time.Duration(*it.DurationMs) * time.Millisecond
		}
		// Streamed output is kept (and bounded); the aggregate is used
		// only when nothing streamed (history, or a silent server).
		if final && it.AggregatedOutput != nil && x.Output.Bytes() == 0 {
			x.Output.Set(*it.AggregatedOutput)
		}
	case FileChange:
		x.Status = it.Status
		if len(it.Changes) > 0 {
			x.Files = files(it.Changes)
		}
	case Tool:
		x.Status = it.Status
		if final && x.Status == "" {
			x.Status = "completed"
		}
		x.Title, x.Detail, x.Markdown, x.Quiet = title, detail, it.Type == "plan", quiet || it.Type == "hookPrompt"
	}
	x.Rev++
	s.last[kind] = x
	return ch
}

// kindOf maps a protocol item type to its Kind; ok is false for the
// tool-like types (see describe).
func kindOf(typ string) (Kind, bool) {
	switch typ {
	case "userMessage":
		return User, true
	case "agentMessage":
		return Agent, true
	case "reasoning":
		return Reasoning, true
	case "commandExecution":
		return Command, true
	case "fileChange":
		return FileChange, true
	}
	return Tool, false
}

// sameWork reports whether it, starting under the key of x, which
// completed, is x's own late start: the same kind and, for what runs or
// changes files, the same command or changes. A start that differs is
// another item reusing the id.
func sameWork(x *Item, it backend.Item) bool {
	if x.Type != it.Type {
		return false
	}
	switch x.Kind {
	case Command:
		return it.Command == "" || it.Command == x.Command
	case FileChange:
		return len(it.Changes) == 0 || slices.Equal(files(it.Changes), x.Files)
	}
	return true
}

func files(changes []backend.FileChange) []FileDiff {
	out := make([]FileDiff, 0, len(changes))
	for _, c := range changes {
		d := FileDiff{Path: c.Path, Kind: c.Kind.Type, Diff: c.Diff}
		if c.Kind.MovePath != nil {
			d.MovePath = *c.Kind.MovePath
			// codex ends a move's diff with a note, not diff lines.
			if i := strings.LastIndex(d.Diff, "\n\nMoved to: "); i >= 0 && !strings.Contains(d.Diff[i+2:], "\n@@") {
				d.Diff = d.Diff[:i+1]
			}
		}
		out = append(out, d)
	}
	return out
}

// Close removes the spill files of the state's command output; the state
// can still be read (and drawn) afterwards.
func (s *State) Close() {
	for _, it := range s.items {
		if it.Output != nil {
			it.Output.Close()
		}
	}
}

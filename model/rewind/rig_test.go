package rewind

import (
	"testing"
	"time"

	"tandem/backend"
	"tandem/model/act"
	"tandem/thread"
)

// world is a World the test sets: the thread, its workspace, the facts.
type world struct {
	thread thread.State
	cwd    string
	facts  Facts
}

func (w *world) Thread() *thread.State { return &w.thread }
func (w *world) ThreadCwd() string     { return w.cwd }
func (w *world) Facts() Facts          { return w.facts }

// rig drives a rewind as the root does and keeps what it asked for.
type rig struct {
	t   *testing.T
	r   *Rewind
	w   *world
	out act.Out
	now time.Time
}

// newRig is a host's rewind, ready to start, on thread t-first in /w
// holding turns.
func newRig(t *testing.T, role act.Role, turns []backend.Turn) *rig {
	t.Helper()
	g := &rig{t: t, w: &world{cwd: "/w", facts: Facts{Thread: "t-first", Ready: true}},
		now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	g.w.thread.SetThread("t-first")
	g.w.thread.Load(turns)
	g.r = New(act.Env{Out: &g.out, Clock: act.FuncClock(func() time.Time { return g.now }), Role: role}, Options{World: g.w})
	return g
}

// take returns what the rewind asked for since the last take; it asks
// no commands of its own.
func (g *rig) take() []act.Intent {
	g.t.Helper()
	if len(g.out.Cmds) > 0 {
		g.t.Fatalf("the rewind asked for %d commands of its own", len(g.out.Cmds))
	}
	in := g.out.Intents
	g.out.Intents = nil
	return in
}

// choose asks for item's Choose as the overlay does, and returns what
// the rewind asked for then.
func (g *rig) choose(item act.PickItem) []act.Intent {
	g.t.Helper()
	if item.Choose != nil && !g.r.Apply(item.Choose) {
		g.t.Fatalf("the rewind does not take its own choice %#v", item.Choose)
	}
	return g.take()
}

// of returns the intents of type T in in.
func of[T any](in []act.Intent) []T {
	var out []T
	for _, i := range in {
		if v, ok := i.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// notice is the text of the last notice in in ("" if none).
func notice(in []act.Intent) string {
	n := of[act.SetNotice](in)
	if len(n) == 0 {
		return ""
	}
	return n[len(n)-1].Text
}

// pick is the one picker in in.
func pick(t *testing.T, in []act.Intent) act.Pick {
	t.Helper()
	p := of[act.Pick](in)
	if len(p) != 1 {
		t.Fatalf("%d pickers asked for; want 1: %#v", len(p), in)
	}
	return p[0]
}

// rewindCall is the one rewind call in in.
func rewindCall(t *testing.T, in []act.Intent) act.RewindThread {
	t.Helper()
	var calls []act.RewindThread
	for _, r := range of[act.Request](in) {
		if c, ok := r.Do.(act.RewindThread); ok && r.For == act.ToRewind {
			calls = append(calls, c)
		}
	}
	if len(calls) != 1 {
		t.Fatalf("%d rewind calls; want 1: %#v", len(calls), in)
	}
	return calls[0]
}

const greetDiff = "@@ -1,2 +1,2 @@\n #!/bin/sh\n-echo \"Hello\"\n+echo \"Ahoy\"\n"

func user(id, text string) backend.Item {
	return backend.Item{Type: "userMessage", ID: id, Content: []backend.UserContent{{Type: "text", Text: text}}}
}

// threeTurns: "first" (an answer), "second" (edits greet.sh and runs a
// command), "third" (creates notes.md).
func threeTurns() []backend.Turn {
	return []backend.Turn{
		{ID: "turn-1", Status: "completed", Items: []backend.Item{user("u1", "first"), {Type: "agentMessage", ID: "a1", Text: "one"}}},
		{ID: "turn-2", Status: "completed", Items: []backend.Item{user("u2", "second"),
			{Type: "fileChange", ID: "f2", Status: "completed", Changes: []backend.FileChange{{Path: "/w/greet.sh", Kind: backend.PatchChangeKind{Type: "update"}, Diff: greetDiff}}},
			{Type: "commandExecution", ID: "c2", Command: "sh greet.sh", Status: "completed"}}},
		{ID: "turn-3", Status: "completed", Items: []backend.Item{user("u3", "third"),
			{Type: "fileChange", ID: "f3", Status: "completed", Changes: []backend.FileChange{{Path: "/w/notes.md", Kind: backend.PatchChangeKind{Type: "add"}, Diff: "# notes\n"}}}}},
	}
}

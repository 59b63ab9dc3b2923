package deck

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/reqtest"
	"tandem/model"
)

// fakeDriver starts turns without a server; the test feeds the events.
type fakeDriver struct{ backend.Unavailable }

func (fakeDriver) StartTurn(context.Context, backend.TurnInput) (backend.Turn, error) {
	return backend.Turn{ID: "turn-1", Status: backend.TurnInProgress}, nil
}
func (fakeDriver) Interrupt(context.Context) error { return nil }

// program runs a deck over real models named names (lanes 1, 2, …), each
// with a ready session, in a headless 100×30 program.
func program(t *testing.T, names ...string) *teatest.TestModel {
	t.Helper()
	var lanes []Lane
	for i, n := range names {
		m := model.New(model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond, NoColor: true})
		lanes = append(lanes, Lane{ID: LaneID(i + 1), Model: m, Title: n})
	}
	d := New(Options{Now: func() time.Time { return epoch }, Home: "/home/dev"}, lanes...)
	tm := teatest.NewTestModel(t, e2e.Probe{Model: d, Freeze: true}, teatest.WithInitialTermSize(100, 30),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { _ = tm.Quit() })
	for i := range names {
		tm.Send(LaneMsg{Lane: LaneID(i + 1), Msg: model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "~/src/" + names[i],
			Approval: "on-request", Sandbox: "workspace-write", Peer: "local"}})
	}
	return tm
}

// waitScreen polls the deck's screen until cond holds (failing after
// e2e.Patience, a hang).
func waitScreen(t *testing.T, tm *teatest.TestModel, what string, cond func(string) bool) string {
	t.Helper()
	var s string
	for deadline := time.Now().Add(e2e.Patience); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		reply := make(chan string, 1)
		tm.Send(e2e.ScreenMsg{Reply: reply})
		s = <-reply
		if cond(s) {
			return s
		}
	}
	t.Fatalf("waiting for %s; the screen:\n%s", what, s)
	return ""
}

func notification(t testing.TB, method string, params any) backend.Event {
	t.Helper()
	b, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := backend.DecodeNotification(method, b)
	if err != nil || ev == nil {
		t.Fatalf("%s: %v", method, err)
	}
	return ev
}

// A turn of lane streams while another lane is on screen.
func streamTurn(t *testing.T, tm *teatest.TestModel, lane LaneID, answer string) {
	send := func(method string, params any) { tm.Send(LaneMsg{Lane: lane, Msg: notification(t, method, params)}) }
	send("turn/started", map[string]any{"threadId": "", "turn": map[string]any{"id": "turn-1", "items": []any{}, "status": "inProgress"}})
	send("item/started", map[string]any{"threadId": "", "turnId": "turn-1", "item": map[string]any{"type": "agentMessage", "id": "msg-1", "text": ""}})
	for _, w := range strings.SplitAfter(answer, " ") {
		send("item/agentMessage/delta", map[string]any{"threadId": "", "turnId": "turn-1", "itemId": "msg-1", "delta": w})
	}
	send("item/completed", map[string]any{"threadId": "", "turnId": "turn-1", "item": map[string]any{"type": "agentMessage", "id": "msg-1", "text": answer}})
	send("turn/completed", map[string]any{"threadId": "", "turn": map[string]any{"id": "turn-1", "items": []any{}, "status": "completed"}})
}

// Keys go to the focused lane's composer; another lane streams a turn
// meanwhile, not drawn; opening it shows the whole answer at once, and
// coming back shows the first lane's draft as it was.
func TestSwitchingShowsWhatTheLaneFoldedMeanwhile(t *testing.T) {
	tm := program(t, "alpha", "beta")
	waitScreen(t, tm, "lane alpha ready", e2e.Contains("Ask Codex to do anything", "~/src/alpha"))
	tm.Type("draft of alpha")
	waitScreen(t, tm, "the draft in alpha", e2e.Contains("draft of alpha"))
	streamTurn(t, tm, 2, "Beta folded this while alpha was on screen.")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF4})
	waitScreen(t, tm, "the list", e2e.Contains("tandem agents", "beta"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	s := waitScreen(t, tm, "lane beta with its answer", e2e.Contains("Beta folded this while alpha was on screen.", "~/src/beta"))
	if strings.Contains(s, "draft of alpha") {
		t.Errorf("alpha's draft shows in beta:\n%s", s)
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF4})
	waitScreen(t, tm, "the list", e2e.Contains("tandem agents"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitScreen(t, tm, "alpha's draft kept", e2e.Contains("draft of alpha", "~/src/alpha"))
}

// An approval of each of two lanes waits in the inbox; the second is
// answered from there, in its lane's own form, and the answer goes to
// that lane's request only; the inbox comes back with one request.
func TestInboxAnswerGoesToItsLane(t *testing.T) {
	tm := program(t, "alpha", "beta")
	waitScreen(t, tm, "lane alpha ready", e2e.Contains("Ask Codex to do anything"))
	reps := []*reqtest.Replies{{}, {}}
	for i, cmd := range []string{"git push alpha", "git push beta"} {
		params := strings.Replace(strings.Replace(reqtest.CmdReq, `"threadId":"th"`, `"threadId":""`, 1), "git add x", cmd, 1)
		tm.Send(LaneMsg{Lane: LaneID(i + 1), Msg: reqtest.Decode(t, backend.MethodCommandApproval, `"r`+cmd+`"`, params, reps[i])})
	}
	waitScreen(t, tm, "alpha's own form", e2e.Contains("git push alpha"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyF4})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyTab})
	waitScreen(t, tm, "the inbox", e2e.Contains("inbox · 2 requests waiting", "run git push alpha?", "run git push beta?"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitScreen(t, tm, "beta's form, peeked", e2e.Contains("answering beta from the inbox", "git push beta"))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitScreen(t, tm, "back in the inbox", e2e.Contains("inbox · 1 request waiting", "run git push alpha?"))
	if got := reps[1].All(); len(got) != 1 {
		t.Errorf("beta's request got replies %v, want one", got)
	}
	if got := reps[0].All(); len(got) != 0 {
		t.Errorf("alpha's request got replies %v", got)
	}
}

// A lane that opens another thread (/resume, /search) drops the title it
// was started with: the row named the new thread with the old prompt.
func TestLaneTitleGoesWithItsThread(t *testing.T) {
	d, panes := newFakeDeck(t, Options{}, "a")
	panes[0].set(func(s *model.State) { s.Summary.Name = "" })
	feed(d, AddLane{Lane: Lane{ID: 2, Model: panes[0], Title: "plan the check"}})
	feed(d, LaneMsg{Lane: 2, Msg: "ready"})
	feed(d, keyOf(tea.KeyF4, 0))
	if got := stripped(screen(d)); !strings.Contains(got, "plan the check") {
		t.Fatalf("the lane's title is not in the list:\n%s", got)
	}
	panes[0].set(func(s *model.State) { s.Summary.ThreadID = "th-other" })
	feed(d, LaneMsg{Lane: 2, Msg: "resumed"})
	if got := stripped(screen(d)); strings.Contains(got, "plan the check") {
		t.Fatalf("the lane shows another thread but keeps its old title:\n%s", got)
	}
}

package cli

import (
	"fmt"
	"strings"
	"syscall"
	"testing"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

// Prompts queued with Tab during a turn survive an app-server crash: after
// F5 resumes the thread they are sent, in order, before anything typed
// later (real codex, mock model, tandem in a pty).
func TestQueuedPromptsSentAfterRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		slowAnswer(),
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Answer one.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Answer two.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Answer three.")}},
	)
	lt := startTandem(t, env)
	lt.waitReady()
	lt.keys("long question\r")
	lt.waitScreen("slowly streaming", patience)
	for _, q := range []string{"queued one", "queued two"} {
		lt.keys(q)
		lt.waitScreen("› "+q, patience)
		lt.keys("\t")
		lt.waitScreen("queued", patience)
	}
	if err := syscall.Kill(lt.appServerPid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	lt.waitScreen("press F5 or type /restart", patience)
	lt.keys(keyF5)
	lt.waitScreen("Answer one.", patience)
	// Typed once the queue has drained (earlier, Enter would steer the
	// running queued turn — a different path, tested in model).
	lt.waitScreen("Answer two.", patience)
	lt.waitGone("esc to interrupt", patience)
	lt.keys("typed later\r")
	lt.waitScreen("Answer three.", patience)
	var got []string
	for _, r := range env.Mock.Requests() {
		got = append(got, r.LastUserText())
	}
	if want := []string{"long question", "queued one", "queued two", "typed later"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("model saw prompts %q, want %q", got, want)
	}
	lt.keys(keyCtrlD)
	lt.waitExit(patience)
}

// A bracketed paste of 11,000 lines shows as one placeholder and reaches
// the model byte for byte.
func TestLargePasteReachesModelWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Got the paste.")}})
	lt := startTandem(t, env)
	lt.waitReady()
	var b strings.Builder
	for i := range 11000 {
		fmt.Fprintf(&b, "pasted line %05d\n", i)
	}
	paste := b.String() + "end of paste"
	lt.keys("\x1b[200~" + paste + "\x1b[201~")
	lt.waitScreen("[Pasted text #1 · 11001 lines", patience)
	lt.keys("\r")
	lt.waitScreen("Got the paste.", patience)
	reqs := env.Mock.Requests()
	if got := reqs[len(reqs)-1].LastUserText(); got != paste {
		t.Fatalf("model got %d bytes, want the %d-byte paste", len(got), len(paste))
	}
	lt.keys(keyCtrlD)
	lt.waitExit(patience)
}

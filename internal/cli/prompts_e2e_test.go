package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// keyCtrlR is Ctrl+R as a terminal sends it.
const keyCtrlR = "\x12"

// Ctrl+R end to end (#29, "your prompts"): the tandem binary, the real
// app-server, the mock model. A prompt sent in one run comes back in the
// next run in the same workspace (the state file) with Ctrl+R: Esc
// leaves the draft, Enter puts the prompt in it. A prompt of codex's own
// history.jsonl in the shared CODEX_HOME is listed too, named codex.
func TestCtrlRBringsBackAnEarlierRunsPrompt(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Noted the parser bug.")}})
	state := "XDG_STATE_HOME=" + t.TempDir() // both runs' (startTandemEnv's own comes first)
	const prompt = "remember the parser bug with CRLF line ends"

	first := startTandemEnv(t, env, []string{state})
	first.waitReady()
	first.keys(prompt + "\r")
	first.waitScreen("Noted the parser bug.", patience)
	first.keys(keyCtrlD)
	first.waitExitStatus(patience, 0)

	codex := `{"session_id":"s","ts":1700000000,"text":"a prompt typed in codex itself"}` + "\n"
	if err := os.WriteFile(filepath.Join(env.Home, "history.jsonl"), []byte(codex), 0o600); err != nil {
		t.Fatal(err)
	}
	next := startTandemEnv(t, env, []string{state})
	next.waitReady()
	next.keys(keyCtrlR)
	next.waitScreen("Your prompts", patience)
	next.waitScreen(prompt, patience)
	next.waitScreen("a prompt typed in codex itself", patience)
	for _, l := range strings.Split(next.screen(), "\n") {
		if strings.Contains(l, "typed in codex itself") && !strings.HasSuffix(strings.TrimSpace(l), "codex") {
			t.Fatalf("codex's prompt is not named codex's: %q", l)
		}
	}
	next.keys("crlf\r") // filters to the earlier run's prompt; Enter uses it
	next.waitGone("Your prompts", patience)
	if s := next.screen(); !strings.Contains(s, "› "+prompt) {
		t.Fatalf("Enter did not put the prompt in the draft:\n%s", s)
	}
	// Esc leaves the draft as it was.
	next.keys(keyCtrlC) // clears the draft
	next.waitGone(prompt, patience)
	next.keys("my draft")
	next.waitScreen("› my draft", patience)
	time.Sleep(model.PasteBurstLinesIdle + 100*time.Millisecond) // the keys' burst is over
	next.keys(keyCtrlR)
	next.waitScreen("search: my draft", patience)
	next.keys("\x1b")
	next.waitGone("Your prompts", patience)
	if s := next.screen(); !strings.Contains(s, "› my draft") || strings.Contains(s, prompt) {
		t.Fatalf("Esc did not keep the draft:\n%s", s)
	}
}

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// /search, then the chosen thread is gone (its rollout deleted, archived
// elsewhere) before Enter: on the real app-server the resume fails; the
// thread open before stays open, with its transcript, and takes the next
// prompt — no new thread is started in its place.
func TestSearchChoiceGoneKeepsTheThread(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("the walrusword is here")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("answer of mine")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("answer after")}})
	s, ch := env.Session(t, "never", "read-only")
	if _, err := s.StartTurn(context.Background(), backend.TurnInput{Text: "the first thread"}); err != nil {
		t.Fatal(err)
	}
	e2e.Await[backend.TurnCompletedEvent](t, ch, e2e.Patience, nil)
	s.Close()
	rollouts, err := filepath.Glob(filepath.Join(env.Home, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	if err != nil || len(rollouts) != 1 {
		t.Fatalf("rollouts %v %v", rollouts, err)
	}

	find := searchPlace{root: filepath.Join(env.Home, "sessions"), cwd: env.Dir}.finder()
	u := e2e.NewTUI(t, model.Options{Workspace: env.Dir, FindThreads: find}, 100, 30)
	u.Connect(t, env, "never", "read-only")
	u.Submit("my own prompt")
	u.WaitScreen(t, e2e.Patience, "my thread's answer", e2e.Contains("answer of mine"))
	u.Submit("/search walrusword")
	u.WaitScreen(t, e2e.Patience, "the picker", e2e.Contains(`Threads holding "walrusword"`, "»walrusword«"))
	if err := os.Remove(rollouts[0]); err != nil {
		t.Fatal(err)
	}
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	screen := u.WaitScreen(t, e2e.Patience, "the failed resume", e2e.Contains("could not open a thread"))
	if strings.Contains(screen, "started a new thread") || !strings.Contains(screen, "answer of mine") {
		t.Fatalf("the open thread was left:\n%s", screen)
	}
	u.Submit("one more")
	u.WaitScreen(t, e2e.Patience, "the same thread goes on", e2e.Contains("answer of mine", "answer after"))
}

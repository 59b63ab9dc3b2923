package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// /search end to end on the real app-server: a thread of 36 turns (more
// than a resume's first page, backend.ResumeTurns) whose second answer
// holds a word; in a new tandem, /search WORD lists the thread with the
// turn, and Enter resumes it scrolled to that turn: the turn is read from
// an earlier page and is on screen, the last turn is not.
func TestSearchPickerResumesAtTheTurn(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	const turns, target = 36, 2
	var rs []mockapi.Response
	for k := 1; k <= turns; k++ {
		text := fmt.Sprintf("answer #%02d", k)
		if k == target {
			text = "the walrusword is here"
		}
		rs = append(rs, mockapi.Response{Items: []mockapi.Item{mockapi.Text(text)}})
	}
	env := e2e.NewEnv(t, rs...)
	s, ch := env.Session(t, "never", "read-only")
	for k := 1; k <= turns; k++ {
		if _, err := s.StartTurn(context.Background(), backend.TurnInput{Text: fmt.Sprintf("prompt #%02d", k)}); err != nil {
			t.Fatal(err)
		}
		e2e.Await[backend.TurnCompletedEvent](t, ch, e2e.Patience, nil)
	}
	s.Close() // its app-server writes the thread: another may resume it only then

	find := searchPlace{root: filepath.Join(env.Home, "sessions"), cwd: env.Dir}.finder()
	u := e2e.NewTUI(t, model.Options{Workspace: env.Dir, FindThreads: find}, 100, 30)
	u.Connect(t, env, "never", "read-only")
	u.Submit("/search walrusword")
	u.WaitScreen(t, e2e.Patience, "the picker", e2e.Contains(`Threads holding "walrusword"`, "prompt #01", fmt.Sprintf("turn %d · answer", target), "»walrusword«"))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	screen := u.WaitScreen(t, e2e.Patience, "the thread at the turn", func(s string) bool {
		return strings.Contains(s, "prompt #02") && strings.Contains(s, "the walrusword is here") && !strings.Contains(s, "loading")
	})
	if strings.Contains(screen, "answer #36") || strings.Contains(screen, "prompt #36") {
		t.Fatalf("the last turn is on screen: not scrolled to turn %d\n%s", target, screen)
	}
}

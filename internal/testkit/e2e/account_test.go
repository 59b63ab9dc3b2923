package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// /init on the real app-server: with no AGENTS.md in the workspace,
// Codex's /init prompt goes out as a turn and reaches the provider (the
// mock answers by writing the file, as the agent would); /init again
// finds it and sends nothing.
func TestInitOnRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("printf '# Repository Guidelines\\n' > AGENTS.md")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Wrote AGENTS.md.")}},
	)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("/init")
	u.WaitScreen(t, Patience, "the /init turn", Contains("Wrote AGENTS.md."))
	reqs, err := e.Mock.WaitRequests(1, Patience)
	if err != nil {
		t.Fatal(err)
	}
	if got := reqs[0].LastUserText(); !strings.HasPrefix(got, "Generate a file named AGENTS.md that serves as a contributor guide") {
		t.Errorf("the provider got %q, not Codex's /init prompt", got)
	}
	if b, err := os.ReadFile(filepath.Join(e.Dir, "AGENTS.md")); err != nil || !strings.Contains(string(b), "Repository Guidelines") {
		t.Fatalf("AGENTS.md: %q, %v", b, err)
	}
	u.WaitScreen(t, Patience, "the turn's end", func(s string) bool { return !strings.Contains(s, "esc to interrupt") })
	u.Submit("/init")
	u.WaitScreen(t, Patience, "the refusal", Contains("AGENTS.md already exists here"))
	time.Sleep(300 * time.Millisecond)
	if n := len(e.Mock.Requests()); n != 2 {
		t.Errorf("%d provider requests after the second /init; want 2 (no new turn)", n)
	}
}

// /logout on the real app-server: account/logout is sent and answered,
// and the screen says so.
func TestLogoutOnRealServer(t *testing.T) {
	e := NewEnv(t)
	var mu sync.Mutex
	var answered bool
	var logoutID json.RawMessage
	trace := func(dir backend.Direction, line []byte) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
		}
		_ = json.Unmarshal(line, &m)
		mu.Lock()
		defer mu.Unlock()
		if m.Method == "account/logout" {
			logoutID = m.ID
		} else if logoutID != nil && string(m.ID) == string(logoutID) && m.Result != nil {
			answered = true
		}
	}
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.ConnectTraced(t, e, "never", "workspace-write", trace)
	u.Submit("/logout")
	u.WaitScreen(t, Patience, "the logout", Contains("Logged out", "logged out"))
	mu.Lock()
	defer mu.Unlock()
	if !answered {
		t.Errorf("account/logout was not sent and answered (id %s)", logoutID)
	}
}

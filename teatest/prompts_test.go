package teatest

import (
	"os"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/e2e"
	"tandem/model"
	"tandem/sessions"
)

// Ctrl+R: this workspace's prompts newest first (a multi-line one on a
// row, shown as written under the list), then the other workspaces',
// each named.
func TestGoldenPromptSearch(t *testing.T) {
	store := sessions.Open(t.TempDir())
	file := `{
  "/src/tandem": {"history": ["why does the pager flicker?", "fix the flaky resume test", "add a test for the parser:\n- empty input\n- a BOM\n- CRLF line ends"], "sent": [100, 200, 300]},
  "/srv/api": {"history": ["bump the Go version", "why does the pager flicker?"], "sent": [250, 260]},
  "/srv/docs": {"history": ["proofread CONFIG.md"], "sent": [150]}
}`
	if err := os.WriteFile(store.Path(), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, State: store, Workspace: "/src/tandem"}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: fakeDriver{}, Model: "gpt-test", Cwd: "/src/tandem", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	u.WaitScreen(t, e2e.Patience, "the composer", e2e.Contains("Ask Codex to do anything"))
	u.Key(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	goldenAll(t, u, "Your prompts", "- CRLF line ends", "/srv/docs")
}

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// Hooks configured in the codex home: /hooks lists them as untrusted;
// once trusted (their hash in config.toml, as codex's own review writes
// it), their runs show as quiet cells with event, handler and status.
func TestHooksOnRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo hooked > out.txt")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Ran it.")}},
	)
	appendConfig := func(s string) {
		f, err := os.OpenFile(filepath.Join(e.Home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
	}
	appendConfig("\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"true\"\n" +
		"\n[[hooks.PostToolUse]]\nmatcher = \"Bash\"\n[[hooks.PostToolUse.hooks]]\ntype = \"command\"\ncommand = \"true\"\n")
	first := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	first.Connect(t, e, "never", "workspace-write")
	first.Submit("/hooks")
	first.WaitScreen(t, Patience, "the hooks list", Contains("Hooks (2)", "untrusted", "untrusted hooks don't run"))
	hooks, err := first.Session.ListHooks(ctxT(t))
	if err != nil || len(hooks) != 2 {
		t.Fatalf("hooks/list: %v, %v", hooks, err)
	}
	for _, h := range hooks {
		appendConfig(fmt.Sprintf("\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, h.CurrentHash))
	}
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.Connect(t, e, "never", "workspace-write") // a new app-server reads the trust
	u.Submit("run it")
	u.WaitScreen(t, Patience, "the hook cells", func(s string) bool {
		return strings.Contains(s, "Ran it.") && strings.Contains(s, "· hook preToolUse (command") && strings.Contains(s, "· hook postToolUse (command") &&
			strings.Contains(s, "): completed")
	})
}

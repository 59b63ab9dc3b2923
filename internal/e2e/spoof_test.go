package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/mockapi"
	"tandem/model"
)

// A command with a carriage return, from the real app-server, shows in
// the approval form whole: the "\r" is drawn as ␍ and can't hide the part
// before it. The agent's message with a "\r" and escape sequences is
// drawn the same way, and no raw control reaches the screen.
func TestControlCharsDrawnVisibly(t *testing.T) {
	const cmdText = "echo PWNED > pwned.txt\r echo 'harmless listing'              "
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand(cmdText)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("rm -rf important\rsafe text here \x1b]0;pwned\x07 \x1b[2J done")}},
	)
	s, ch := e.Session(t, "untrusted", "workspace-write")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.StartTurn(ctx, backend.TurnInput{Text: "list files"}); err != nil {
		t.Fatal(err)
	}
	m := model.New(model.Options{NoColor: true, FormGrace: time.Millisecond})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	// Commands (frame ticks, the form's focus tick) are not run: only
	// what is drawn matters here.
	feed := func(v any) { m.Update(v) }
	req := Await[*backend.CommandApprovalRequest](t, ch, 60*time.Second, feed)
	feed(req)
	raw := m.View().Content
	v := ansi.Strip(raw)
	if !strings.Contains(v, "echo PWNED > pwned.txt␍ echo 'harmless listing'") {
		t.Fatalf("the form does not show the whole command:\n%s", v)
	}
	if strings.ContainsAny(raw, "\r\a") {
		t.Fatalf("a raw control reaches the screen: %q", raw)
	}
	if err := req.Answer(backend.Decline); err != nil {
		t.Fatal(err)
	}
	m.Update(backend.RequestResolvedEvent{RequestID: req.ID()})
	Await[backend.TurnCompletedEvent](t, ch, 60*time.Second, feed)
	raw = m.View().Content
	v = ansi.Strip(raw)
	if !strings.Contains(v, "rm -rf important␍safe text here") {
		t.Fatalf("the agent's message hides its start:\n%s", v)
	}
	for _, bad := range []string{"\r", "\a", "\x1b]0;", "\x1b[2J"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("%q reaches the screen: %q", bad, raw)
		}
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "pwned.txt")); !os.IsNotExist(err) {
		t.Fatalf("declined command ran (err=%v)", err)
	}
}

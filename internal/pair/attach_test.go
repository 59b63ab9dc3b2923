package pair

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/model"
)

// The host's attached view says how guests join (the terminal it was
// printed on is hidden under the TUI).
func TestServeAttachShowsHowGuestsJoin(t *testing.T) {
	ps := New(Options{Keys: &Keyring{}})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	const info = "sharing one session on 127.0.0.1:2222 — a guest runs: ssh -p 2222 localhost"
	var out bytes.Buffer
	done := make(chan tea.Model, 1)
	go func() {
		m, _ := ps.attachRun(ctx, "host", info, tea.WithInput(strings.NewReader("")), tea.WithOutput(&out),
			tea.WithWindowSize(120, 30), tea.WithoutSignals())
		done <- m
	}()
	time.Sleep(500 * time.Millisecond)
	cancel()
	final := <-done
	m, ok := final.(*model.Model)
	if !ok {
		t.Fatalf("final model %T", final)
	}
	v := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
	if !strings.Contains(v, info) {
		t.Fatalf("attached view lacks %q:\n%s", info, v)
	}
}

package pair

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/deck"
	"tandem/model"
)

// The host's attached view says how guests join (the terminal it was
// printed on is hidden under the TUI).
func TestServeAttachShowsHowGuestsJoin(t *testing.T) {
	ps := New(Options{Keys: &Keyring{}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const info = "sharing one session on 127.0.0.1:2222 — a guest runs: ssh -p 2222 localhost"
	var out bytes.Buffer
	// The program is ended once the banner and the window's size reached
	// it: the filter sees a message right before the model's Update takes
	// it, in the same turn of the program's loop.
	sent := make(chan struct{})
	var banner, sized, closed bool
	seen := func(_ tea.Model, msg tea.Msg) tea.Msg {
		switch msg.(type) {
		case model.InfoMsg:
			banner = true
		case tea.WindowSizeMsg:
			sized = true
		default:
			return msg
		}
		if banner && sized && !closed {
			closed = true
			close(sent)
		}
		return msg
	}
	done := make(chan tea.Model, 1)
	go func() {
		m, _ := ps.attachRun(ctx, "host", info, tea.WithInput(strings.NewReader("")), tea.WithOutput(&out),
			tea.WithWindowSize(120, 30), tea.WithoutSignals(), tea.WithFilter(seen))
		done <- m
	}()
	select {
	case <-sent:
	case <-time.After(patience):
		t.Fatal("the banner never reached the host's program")
	}
	cancel()
	final := <-done
	d, ok := final.(*deck.Model)
	if !ok {
		t.Fatalf("final model %T", final)
	}
	m, ok := d.Panes()[FirstLane].(*model.Model)
	if !ok {
		t.Fatalf("the first lane is %T", d.Panes()[FirstLane])
	}
	v := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
	if !strings.Contains(v, info) {
		t.Fatalf("attached view lacks %q:\n%s", info, v)
	}
}

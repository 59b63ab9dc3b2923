package hub_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/frames"
	"tandem/internal/hub"
	"tandem/model"
	"tandem/sessions"
)

// demoStream is the built-in demo session as the values a live session
// gives its sink, in order.
func demoStream(t *testing.T) []any {
	t.Helper()
	rec, err := sessions.LoadRecording("../../sessions/demo/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	p := sessions.NewPlayer(rec, sessions.PlayerOptions{Speed: 1e9, IdleLimit: time.Nanosecond})
	p.Run(context.Background(), func(v any) {
		switch x := v.(type) {
		case sessions.PlayerStatus:
		case sessions.ThreadReady:
			out = append(out, frames.Ready(x))
		default:
			out = append(out, v)
		}
	})
	return out
}

// screen is what a watcher's model shows after folding msgs.
func screen(msgs []any) string {
	now := time.Unix(1_800_000_000, 0)
	m := model.New(model.Options{NoColor: true, Shared: true, Now: func() time.Time { return now }})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 400})
	for _, v := range msgs {
		if r, ok := v.(model.SessionReadyMsg); ok {
			r.Client = nil // a watcher
			v = r
		}
		m.Update(v)
	}
	return ansi.Strip(m.View().Content)
}

// A client that saw the whole stream and a late joiner, who gets the
// compacted log, draw the same screen — for the whole demo, and cut in
// the middle of a streaming answer (a live item: its deltas merged) —
// and the late joiner gets far fewer values (#17).
func TestLateJoinerGetsCompactedLogAndSameScreen(t *testing.T) {
	all := demoStream(t)
	midAnswer := 0
	deltas := 0
	for i, v := range all {
		if _, ok := v.(backend.AgentMessageDeltaEvent); ok {
			if deltas++; deltas == 40 {
				midAnswer = i + 1
			}
		}
	}
	if deltas < 80 {
		t.Fatalf("the demo has %d answer deltas; the test needs a streamed answer", deltas)
	}
	for _, tc := range []struct {
		name string
		msgs []any
	}{{"whole session", all}, {"mid-answer", all[:midAnswer]}} {
		t.Run(tc.name, func(t *testing.T) {
			h := hub.New()
			early := h.Join("early", hub.Watcher)
			var seen []any
			for _, v := range tc.msgs {
				h.Publish(v)
			}
			batch, _ := early.Next()
			seen = append(seen, batch...)
			h.Compact()
			late := h.Join("late", hub.Watcher)
			got, _ := late.Next()
			batch, _ = early.Next() // "late joined as watcher"
			seen = append(seen, batch...)
			if h.Compactions() != 1 {
				t.Fatalf("%d compactions", h.Compactions())
			}
			if len(got) >= len(seen)/2 {
				t.Errorf("the late joiner got %d values of %d: not compacted", len(got), len(seen))
			}
			want, have := screen(seen), screen(got)
			if want != have {
				t.Fatalf("screens differ\n--- saw the whole stream:\n%s\n--- late joiner:\n%s", want, have)
			}
			if !strings.Contains(want, "›") {
				t.Fatalf("nothing drawn:\n%s", want)
			}
		})
	}
}

package sessions

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tandem/backend"
)

// laneTranscript is a recording of a command center with two threads on
// one connection: the session's own "th" and a lane "th2" started from
// the command center, their turns interleaved; marked says whether the
// recorder noted the lane (a recording from before lanes did not).
func laneTranscript(t *testing.T, marked bool) *Recording {
	t.Helper()
	var buf bytes.Buffer
	rec := NewRecorder(&buf, nil, Header{Tandem: "test", Width: 80, Height: 24, Cwd: "~/w"})
	send := func(dir backend.Direction, kv ...any) {
		out := map[string]any{"jsonrpc": "2.0"}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		rec.Trace(dir, b)
	}
	thread := func(id string) map[string]any {
		return map[string]any{"thread": map[string]any{"id": id}, "model": "mock-model", "cwd": "/w", "approvalPolicy": "never", "sandbox": map[string]any{"type": "readOnly"}}
	}
	prompt := func(id int, th, text string) {
		send(backend.Sent, "id", id, "method", "turn/start", "params", map[string]any{"threadId": th, "input": []any{map[string]any{"type": "text", "text": text}}})
	}
	answer := func(th, turn, text string) {
		send(backend.Received, "method", "turn/started", "params", map[string]any{"threadId": th, "turn": map[string]any{"id": turn, "status": "inProgress", "items": []any{}}})
		send(backend.Received, "method", "item/completed", "params", map[string]any{"threadId": th, "turnId": turn, "item": map[string]any{"type": "agentMessage", "id": turn + "-a", "text": text}})
		send(backend.Received, "method", "turn/completed", "params", map[string]any{"threadId": th, "turn": map[string]any{"id": turn, "status": "completed", "items": []any{}}})
	}
	send(backend.Sent, "id", 1, "method", "initialize", "params", map[string]any{})
	send(backend.Received, "id", 1, "result", map[string]any{"userAgent": "tandem/0.169.0 (Linux; x86_64)"})
	send(backend.Sent, "id", 2, "method", "thread/start", "params", map[string]any{})
	send(backend.Received, "id", 2, "result", thread("th"))
	prompt(3, "th", "first task")
	send(backend.Sent, "id", 4, "method", "thread/start", "params", map[string]any{})
	send(backend.Received, "id", 4, "result", thread("th2"))
	if marked {
		rec.Mark("lane", Lane{Lane: 1, Thread: "th2", Title: "second task"})
	}
	prompt(5, "th2", "second task")
	answer("th2", "t2", "Second thread's answer.")
	answer("th", "t1", "First thread's answer.")
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := ReadRecording(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// replayed is what a player of r yields, as text: "ready th", "switch
// th2", each answer and warning.
func replayed(t *testing.T, r *Recording) []string {
	t.Helper()
	p := NewPlayer(r, PlayerOptions{Speed: 16, IdleLimit: 10 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	var got []string
	p.Run(ctx, func(v any) {
		switch x := v.(type) {
		case ThreadReady:
			got = append(got, "ready "+x.ThreadID)
		case ThreadSwitch:
			got = append(got, "switch "+x.Response.Thread.ID)
		case backend.ItemCompletedEvent:
			if x.Item.Type == "agentMessage" {
				got = append(got, x.Item.Text)
			}
		case backend.WarningEvent:
			got = append(got, "warning: "+x.Message)
		}
	})
	return got
}

// A recording of several threads replays the session's own thread and
// says which others it holds; one from before lanes replays as before
// (the second thread/start is a switch).
func TestReplayOfLanes(t *testing.T) {
	tests := []struct {
		name   string
		marked bool
		want   []string
	}{
		{"lanes", true, []string{"ready th",
			`warning: this recording holds 1 more thread of the command center ("second task"): the replay shows the first thread; tandem export writes them all`,
			"First thread's answer."}},
		{"before lanes", false, []string{"ready th", "switch th2", "Second thread's answer."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := replayed(t, laneTranscript(t, tt.marked))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("replayed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// The export writes the session's own thread, then each lane in a
// section of its own with its turns numbered from 1.
func TestExportOfLanes(t *testing.T) {
	var b bytes.Buffer
	if err := ExportMarkdown(&b, laneTranscript(t, true)); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	own, lane, ok := strings.Cut(md, "# Thread 2: second task")
	if !ok {
		t.Fatalf("no section for the lane:\n%s", md)
	}
	for _, c := range []struct {
		section, in string
		want, not   []string
	}{
		{"own", own, []string{"## Turn 1", "> first task", "First thread's answer."}, []string{"second task", "Second thread's answer.", "## Turn 2"}},
		{"lane", lane, []string{"## Turn 1", "> second task", "Second thread's answer."}, []string{"first task", "First thread's answer."}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.in, w) {
				t.Errorf("the %s section lacks %q:\n%s", c.section, w, c.in)
			}
		}
		for _, n := range c.not {
			if strings.Contains(c.in, n) {
				t.Errorf("the %s section has %q:\n%s", c.section, n, c.in)
			}
		}
	}
}

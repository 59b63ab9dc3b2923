package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadCast(t *testing.T) {
	_, c, err := LoadSession("testdata/demo.cast")
	if err != nil {
		t.Fatal(err)
	}
	if c.Header.Width != 100 || c.Header.Height != 30 || len(c.Events) != 90 {
		t.Fatalf("header %+v, %d events; want 100×30, 90", c.Header, len(c.Events))
	}
	if e := c.Events[0]; e.Code != "o" || e.At != 41334*time.Microsecond || !strings.HasPrefix(e.Data, "\x1b[?2026$p") {
		t.Errorf("first event %+v", e)
	}
	bad := []struct{ name, in, want string }{
		{"empty", "", "empty file"},
		{"version 1", `{"version":1,"width":80,"height":24}`, "versions 2 and 3 are read"},
		{"not json", "hello", "line 1: not an asciicast header"},
		{"short event", "{\"version\":2,\"width\":80,\"height\":24}\n[1,\"o\"]", "line 2: not an asciicast event"},
		{"negative time", "{\"version\":2,\"width\":80,\"height\":24}\n[-1,\"o\",\"x\"]", "line 2"},
		{"data not a string", "{\"version\":2,\"width\":80,\"height\":24}\n[1,\"o\",3]", "line 2"},
		{"too long", "{\"version\":2,\"width\":80,\"height\":24}\n[1,\"o\",\"" + strings.Repeat("x", MaxCastLine) + "\"]", "line 2: longer than 16 MiB"},
	}
	for _, b := range bad {
		_, err := ReadCast(strings.NewReader(b.in))
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: %v; want an error with %q", b.name, err, b.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, ok := range map[string]bool{"80x24": true, "1x1": true, "0x5": false, "80": false, "ax2": false, "-1x3": false} {
		if _, _, got := ParseSize(in); got != ok {
			t.Errorf("ParseSize(%q) ok = %v; want %v", in, got, ok)
		}
	}
}

// Timeline starts with the thread, then the recorded events in order,
// timed as recorded (the wait for codex capped at a second).
func TestTimeline(t *testing.T) {
	rec, err := LoadRecording("demo/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tl := Timeline(rec, 0)
	if _, ok := tl[0].Value.(ThreadReady); !ok || len(tl) < 100 {
		t.Fatalf("timeline starts with %T, %d values", tl[0].Value, len(tl))
	}
	for i := 1; i < len(tl); i++ {
		if tl[i].At < tl[i-1].At {
			t.Fatalf("value %d at %v, before %v", i, tl[i].At, tl[i-1].At)
		}
	}
	if p := NewPlayer(rec, PlayerOptions{}); p.Steps() != len(tl) {
		t.Errorf("timeline %d values, player %d steps", len(tl), p.Steps())
	}
	capped := Timeline(rec, 500*time.Millisecond)
	for i := 1; i < len(capped); i++ {
		if gap := capped[i].At - capped[i-1].At; gap > time.Second || i > 2 && gap > 500*time.Millisecond {
			t.Fatalf("gap %v before value %d with pauses capped at 0.5 s", gap, i)
		}
	}
	if capped[len(capped)-1].At >= tl[len(tl)-1].At {
		t.Error("capping the pauses did not shorten the demo")
	}
}

// LoadSession tells a transcript from a cast by the first line, reading
// the file once (a FIFO works), and refuses endless or huge lines.
func TestLoadSession(t *testing.T) {
	rec, cast, err := LoadSession("demo/demo.jsonl")
	if err != nil || rec == nil || cast != nil || len(rec.Entries) < 100 {
		t.Fatalf("transcript: %v, %v, %v", rec != nil, cast != nil, err)
	}
	rec, cast, err = LoadSession("testdata/demo.cast")
	if err != nil || rec != nil || cast == nil || len(cast.Events) != 90 {
		t.Fatalf("cast: %v, %v, %v", rec != nil, cast != nil, err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile("testdata/demo.cast")
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			_, _ = f.Write(data)
			f.Close()
		}
	}()
	if _, cast, err = LoadSession(fifo); err != nil || cast == nil || len(cast.Events) != 90 {
		t.Fatalf("cast through a FIFO: %v", err)
	}
	for name, content := range map[string]string{
		"endless.jsonl": strings.Repeat("x", 2<<20),
		"wide.cast":     `{"version":2,"width":100000,"height":100000}` + "\n",
		"v1.cast":       `{"version":1,"width":80,"height":24}` + "\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := LoadSession(p)
		want := map[string]string{"endless.jsonl": "longer than 1 MiB", "wide.cast": "at most 500×500", "v1.cast": "versions 2 and 3 are read"}[name]
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v; want an error naming it with %q", name, err, want)
		}
	}
	// A resize beyond the cap is read as the cap.
	if c, r, ok := ParseSize("100000x3"); !ok || c != MaxCastSize || r != 3 {
		t.Errorf("ParseSize capped to %d×%d, %v", c, r, ok)
	}
}

package sessions

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestCastVersions: a CastWriter writes asciicast v3 (the term object,
// each event's time since the one before) or v2 (times since the start)
// as its header asks, and ReadCast reads both back to the same events.
func TestCastVersions(t *testing.T) {
	for _, tc := range []struct {
		version    int
		wantHeader string // a part of the header line
	}{
		{CastV3, `"term":{"cols":20,"rows":3,"type":"xterm-256color"}`},
		{CastV2, `"width":20,"height":3`},
	} {
		t.Run(strings.TrimSpace(string(rune('0'+tc.version))), func(t *testing.T) {
			var buf bytes.Buffer
			h := CastHeader{Version: tc.version, Width: 20, Height: 3, Title: "t", Env: map[string]string{"TERM": "xterm-256color", "SHELL": "/bin/sh"}}
			enc, err := newCastEncoder(&buf, h)
			if err != nil {
				t.Fatal(err)
			}
			enc.event(0.5, "o", "hello")
			enc.event(1.25, "m", "turn 1: hi")
			enc.event(1.0, "o", "earlier") // never before the last
			enc.event(4, "o", "bye")
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if !strings.Contains(lines[0], tc.wantHeader) || !strings.Contains(lines[0], `"version":`+string(rune('0'+tc.version))) {
				t.Errorf("header %s; want %s", lines[0], tc.wantHeader)
			}
			var first []any
			if err := json.Unmarshal([]byte(lines[2]), &first); err != nil {
				t.Fatal(err)
			}
			wantT := map[int]float64{CastV3: 0.75, CastV2: 1.25}[tc.version] // the marker
			if first[0].(float64) != wantT {
				t.Errorf("the marker's time %v; want %v in v%d", first[0], wantT, tc.version)
			}
			c, err := ReadCast(strings.NewReader(buf.String()))
			if err != nil {
				t.Fatal(err)
			}
			if c.Header.Version != tc.version || c.Header.Width != 20 || c.Header.Height != 3 || c.Header.Env["TERM"] != "xterm-256color" || c.Header.Title != "t" {
				t.Errorf("header read back %+v", c.Header)
			}
			var got []string
			for _, e := range c.Events {
				got = append(got, e.At.String()+" "+e.Code+" "+e.Data)
			}
			want := "500ms o hello|1.25s m turn 1: hi|1.25s o earlier|4s o bye"
			if strings.Join(got, "|") != want {
				t.Errorf("events %q; want %q", strings.Join(got, "|"), want)
			}
		})
	}
}

// TestReadCastV3: asciinema's own v3 example (comments, a resize, the
// exit event) reads with its intervals added up.
func TestReadCastV3(t *testing.T) {
	src := `{"version": 3, "term": {"cols": 80, "rows": 24, "type": "xterm-256color"}, "timestamp": 1504467315, "title": "Demo", "env": {"SHELL": "/bin/zsh"}}
# event stream follows the header
[0.248, "o", "Hello"]
[1.001, "o", "That was ok"]
[3.500, "m", ""]
# terminal window resized to 90 cols and 30 rows
[2.050, "r", "90x30"]
[0.887, "x", "0"]
`
	c, err := ReadCast(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Header.Width != 80 || c.Header.Height != 24 || c.Header.Env["SHELL"] != "/bin/zsh" {
		t.Errorf("header %+v", c.Header)
	}
	want := []time.Duration{248 * time.Millisecond, 1249 * time.Millisecond, 4749 * time.Millisecond, 6799 * time.Millisecond, 7686 * time.Millisecond}
	if len(c.Events) != len(want) {
		t.Fatalf("%d events; want %d", len(c.Events), len(want))
	}
	for i, e := range c.Events {
		if d := e.At - want[i]; d < -time.Microsecond || d > time.Microsecond {
			t.Errorf("event %d at %v; want %v", i, e.At, want[i])
		}
	}
	if _, err := ReadCast(strings.NewReader(`{"version":3,"width":80,"height":24}` + "\n")); err == nil || !strings.Contains(err.Error(), "term") {
		t.Errorf("a v3 header without term: %v", err)
	}
}

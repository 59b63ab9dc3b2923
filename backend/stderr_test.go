package backend

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestStderrReason(t *testing.T) {
	backtrace := []string{
		"Error: failed to load config: bad toml",
		"",
		"Stack backtrace:",
		"   0: anyhow::error::<impl anyhow::Error>::msg",
		"             at /cargo/anyhow/src/error.rs:83:36",
		"   8: <unknown>",
		"",
	}
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"rust backtrace", backtrace, "Error: failed to load config: bad toml"},
		{"trailing blank lines", []string{"config.toml: unknown field `x`", "", "  "}, "config.toml: unknown field `x`"},
		{"last error wins", []string{"error: first", "noise", "Error: second", "more noise"}, "Error: second"},
		{"frames only", []string{"   1: main", "      at src/main.rs:1"}, ""},
		{"plain last line", []string{"starting", "listening failed"}, "listening failed"},
		{"empty", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := StderrReason(tc.lines); got != tc.want {
				t.Errorf("StderrReason = %q; want %q", got, tc.want)
			}
		})
	}
	want := []string{"Error: failed to load config: bad toml"}
	if got := MeaningfulStderr(backtrace); !reflect.DeepEqual(got, want) {
		t.Errorf("MeaningfulStderr = %q; want %q", got, want)
	}
}

// A peer that exits during initialize is summed up by its meaningful
// stderr line, and its exit is not also fed to the sink; one that never
// answers is named as such. The peers that exit get a wait that only
// catches a hang (a slow machine may take long to start sh); the one
// that never answers, a short one: it can only time out.
func TestStartSessionFailureSummary(t *testing.T) {
	cases := []struct {
		name, script string
		wait         time.Duration
		want         string
	}{
		{"backtrace", `echo "Error: bad config" >&2; echo "Stack backtrace:" >&2; echo "   8: <unknown>" >&2; exit 1`, patience,
			"app-server exited with status 1: Error: bad config"},
		{"trailing blank lines", `echo "no such profile: work" >&2; echo >&2; echo >&2; exit 1`, patience,
			"app-server exited with status 1: no such profile: work"},
		{"never answers", `exec sleep 30`, 300 * time.Millisecond, "codex app-server did not answer initialize within 300ms"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []any
			_, err := StartSession(context.Background(), SessionOptions{
				Transport:   &ProcessTransport{Command: []string{"sh", "-c", tc.script}, Grace: 100 * time.Millisecond},
				InitTimeout: tc.wait,
				Sink:        func(msg any) { got = append(got, msg) },
			})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v; want %q", err, tc.want)
			}
			for _, m := range got {
				if _, ok := m.(ServerExitedEvent); ok {
					t.Errorf("the failed start was also fed as %#v", m)
				}
			}
			if strings.Contains(err.Error(), "deadline") {
				t.Errorf("error names the context, not the server: %v", err)
			}
		})
	}
}

package model

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

func notify(t *testing.T, m *Model, method, params string) {
	t.Helper()
	ev, err := backend.DecodeNotification(method, json.RawMessage(params))
	if err != nil || ev == nil {
		t.Fatalf("DecodeNotification(%s): %v %v", method, ev, err)
	}
	m.Update(ev) // ticks and spinners are not driven
}

// A failed turn's error is shown once, whether or not an `error`
// notification came before turn/completed.
func TestTurnErrorShownOnce(t *testing.T) {
	cases := []struct {
		name      string
		errorNote bool
		completed string
		want      string
		count     int
	}{
		{"error then failed", true, `{"message":"stream disconnected"}`, "stream disconnected", 1},
		{"error then failed without message", true, `null`, "stream disconnected", 1},
		{"failed alone", false, `{"message":"stream disconnected"}`, "Turn failed: stream disconnected", 1},
		{"different messages both shown", true, `{"message":"quota exceeded"}`, "Turn failed: quota exceeded", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newReqModel()
			notify(t, m, "turn/started", `{"threadId":"th","turn":{"id":"tu","items":[],"status":"inProgress","error":null}}`)
			if tc.errorNote {
				notify(t, m, "error", `{"threadId":"th","turnId":"tu","willRetry":false,"error":{"message":"stream disconnected","codexErrorInfo":null,"additionalDetails":null}}`)
			}
			notify(t, m, "turn/completed", `{"threadId":"th","turn":{"id":"tu","items":[],"status":"failed","error":`+tc.completed+`}}`)
			v := plain(m)
			if got := strings.Count(v, "stream disconnected"); tc.want == "stream disconnected" && got != 1 {
				t.Fatalf("error shown %d times; want once:\n%s", got, v)
			}
			if got := strings.Count(v, tc.want); got != tc.count {
				t.Fatalf("%q shown %d times; want %d:\n%s", tc.want, got, tc.count, v)
			}
		})
	}
}

// A command whose approval is pending reads "awaiting approval", not
// "running"; once answered it is running again.
func TestCommandAwaitingApprovalLabel(t *testing.T) {
	rep := &replies{}
	m := newReqModel()
	startTurn(m)
	notify(t, m, "item/started", `{"threadId":"th","turnId":"tu","item":{"type":"commandExecution","id":"call_1","command":"git add x","cwd":"/w","status":"inProgress","commandActions":[],"aggregatedOutput":null,"exitCode":null,"durationMs":null}}`)
	if v := plain(m); !strings.Contains(v, "running") {
		t.Fatalf("command not running before the request:\n%s", v)
	}
	deliver(t, m, decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
	v := plain(m)
	if !strings.Contains(v, "awaiting approval") || strings.Contains(v, "(running)") || strings.Contains(v, "· running") {
		t.Fatalf("want the cell awaiting approval:\n%s", v)
	}
	hitKey(t, m, tea.KeyEnter, 0)
	v = plain(m)
	if strings.Contains(v, "awaiting approval") || !strings.Contains(v, "running") {
		t.Fatalf("want the cell running after the answer:\n%s", v)
	}
}

// An elicitation without mode or server is declined with a notice that
// says what is missing.
func TestElicitationMissingFieldsNotice(t *testing.T) {
	cases := []struct{ params, want string }{
		{`{}`, "an MCP server (unnamed) sent an elicitation without a mode; declined"},
		{`{"threadId":"th","serverName":"srv","mode":"carrier-pigeon"}`, `srv sent an elicitation of unknown mode "carrier-pigeon"; declined`},
	}
	for _, tc := range cases {
		rep := &replies{}
		m := newReqModel()
		deliver(t, m, decodeReq(t, "mcpServer/elicitation/request", `1`, tc.params, rep))
		v := strings.Join(strings.Fields(plain(m)), " ")
		if !strings.Contains(v, tc.want) {
			t.Errorf("params %s: want %q in:\n%s", tc.params, tc.want, v)
		}
		if got := rep.All(); len(got) != 1 || !strings.Contains(got[0], "decline") {
			t.Errorf("params %s: replies %q; want one decline", tc.params, got)
		}
	}
}

// A failed first start is reported once, offers to try again (there is no
// thread to resume), and so does a failed retry; the dead server's last
// stderr lines are shown without blank lines and backtrace frames.
func TestStartFailureWording(t *testing.T) {
	m := New(Options{NoColor: true, FormGrace: time.Hour, Restart: func(string) (RestartInfo, error) {
		return RestartInfo{}, errors.New("still broken")
	}})
	m.Update(tea.WindowSizeMsg{Width: 150, Height: 40})
	m.Update(SessionFailedMsg{Err: errors.New("app-server exited with status 1: Error: bad config")})
	v := strings.Join(strings.Fields(plain(m)), " ")
	if strings.Count(v, "Error: bad config") != 1 || strings.Contains(v, "resume this thread") || !strings.Contains(v, "try again") {
		t.Fatalf("want one report offering to try again:\n%s", v)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyF5}) // the retry fails too
	settle(t, m, cmd)
	v = strings.Join(strings.Fields(plain(m)), " ")
	if !strings.Contains(v, "restart failed: still broken — press F5 or type /restart to try again") {
		t.Fatalf("retry failure wording:\n%s", v)
	}

	m = newReqModel()
	m.Update(backend.ServerExitedEvent{Status: "exited with status 1", Stderr: []string{"Error: boom", "", "Stack backtrace:", "   8: <unknown>", "      at src/x.rs:1", ""}})
	v = plain(m)
	if !strings.Contains(v, "Error: boom") || strings.Contains(v, "<unknown>") || strings.Contains(v, "backtrace") || strings.Contains(v, "src/x.rs") {
		t.Fatalf("stderr box keeps frames:\n%s", v)
	}
}

func TestServerVersion(t *testing.T) {
	cases := []struct{ ua, want string }{
		{"tandem/0.169.0 (Debian GNU/Linux 13.0.0; x86_64) xterm-256color (tandem; 0.1.0)", "codex 0.169.0"},
		{"codex_cli_rs/0.170.0-alpha.2 (Mac OS 15.1; arm64)", "codex 0.170.0-alpha.2"},
		{"something odd", "something odd"},
		{"", ""},
	}
	for _, tc := range cases {
		if got := serverVersion(tc.ua); got != tc.want {
			t.Errorf("serverVersion(%q) = %q; want %q", tc.ua, got, tc.want)
		}
	}
}

package model

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

func notify(t *testing.T, m *Model, method, params string) {
	t.Helper()
	ev, err := backend.DecodeNotification(method, json.RawMessage(params))
	if err != nil || ev == nil {
		t.Fatalf("DecodeNotification(%s): %v %v", method, ev, err)
	}
	_, cmd := m.Update(ev)
	drive(t, m, cmd)
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
			m.running = true
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
	m.running = true
	notify(t, m, "item/started", `{"threadId":"th","turnId":"tu","item":{"type":"commandExecution","id":"call_1","command":"git add x","cwd":"/w","status":"inProgress","commandActions":[],"aggregatedOutput":null,"exitCode":null,"durationMs":null}}`)
	if v := plain(m); !strings.Contains(v, "running") {
		t.Fatalf("command not running before the request:\n%s", v)
	}
	deliver(t, m, decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
	v := plain(m)
	if !strings.Contains(v, "awaiting approval") || strings.Contains(v, "(running)") || strings.Contains(v, "· running") {
		t.Fatalf("want the cell awaiting approval:\n%s", v)
	}
	key(t, m, tea.KeyEnter, 0)
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
		if got := rep.all(); len(got) != 1 || !strings.Contains(got[0], "decline") {
			t.Errorf("params %s: replies %q; want one decline", tc.params, got)
		}
	}
}

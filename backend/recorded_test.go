package backend

import (
	"encoding/json"
	"reflect"
	"testing"
)

// DecodeCall names the calls a recording's readers need, typed, and
// nothing else.
func TestDecodeCall(t *testing.T) {
	cases := []struct {
		method, params string
		want           Call
		err            bool
	}{
		{"turn/start", `{"threadId":"th","input":[{"type":"text","text":"hi"},{"type":"image","url":"x"},{"type":"text","text":"there"}]}`, PromptCall{Texts: []string{"hi", "there"}, Thread: "th"}, false},
		{"turn/steer", `{"threadId":"th","input":[{"type":"text","text":"also"}],"expectedTurnId":"tu"}`, PromptCall{Texts: []string{"also"}, Steer: true, Thread: "th"}, false},
		{"thread/shellCommand", `{"threadId":"th","command":"ls -la"}`, ShellCall{Command: "ls -la"}, false},
		{"thread/start", `{}`, ThreadOpenCall{}, false},
		{"thread/resume", `{"threadId":"th"}`, ThreadOpenCall{Resume: true}, false},
		{"initialize", `{}`, InitializeCall{}, false},
		{"model/list", `{}`, nil, false},
		{"turn/start", `{"input":"not a list"}`, nil, true},
	}
	for _, tc := range cases {
		got, err := DecodeCall(tc.method, json.RawMessage(tc.params))
		if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s = %#v, %v; want %#v (error %v)", tc.method, tc.params, got, err, tc.want, tc.err)
		}
	}
	r, err := ThreadOpenCall{}.DecodeResult(json.RawMessage(`{"thread":{"id":"th1"},"model":"m"}`))
	if err != nil || r.Thread.ID != "th1" || r.Model != "m" {
		t.Errorf("thread response = %+v, %v", r, err)
	}
}

func TestTurnBoundary(t *testing.T) {
	for _, tc := range []struct {
		line               string
		started, completed bool
	}{
		{`{"jsonrpc":"2.0","method":"turn/started","params":{}}`, true, false},
		{`{"jsonrpc":"2.0","method":"turn/completed","params":{}}`, false, true},
		{`{"jsonrpc":"2.0","method":"item/agentMessage/delta","params":{"delta":"turn/started"}}`, false, false},
	} {
		s, c := TurnBoundary([]byte(tc.line))
		if s != tc.started || c != tc.completed {
			t.Errorf("%s: %v %v", tc.line, s, c)
		}
	}
}

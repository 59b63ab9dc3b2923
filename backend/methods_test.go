package backend

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestMethodWire sends rows of the table through a real Conn and checks
// the line the server gets (method, params: None sends none, Empty sends
// {}) and what comes back of its answer (Call decodes R, Do decodes
// nothing, so an answer R could not hold is no error).
func TestMethodWire(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		send   func(c *Conn) (any, error)
		method string
		params string // the params as sent, "" for none
		answer string // the result the server answers
		want   any    // what the call returns
		err    string // its error, if any
	}{
		{
			name:   "no params, result not read",
			send:   func(c *Conn) (any, error) { return nil, AccountLogout.Do(ctx, c, nil) },
			method: "account/logout", answer: `{}`,
		},
		{
			name: "empty params, typed result",
			send: func(c *Conn) (any, error) {
				r, err := CollaborationModeList.Call(ctx, c, Empty{})
				if len(r.Data) == 0 {
					return nil, err
				}
				return r.Data[0].Name, err
			},
			method: "collaborationMode/list", params: `{}`,
			answer: `{"data":[{"name":"Plan","mode":"plan"}]}`, want: "Plan",
		},
		{
			name: "typed params and result",
			send: func(c *Conn) (any, error) {
				r, err := TurnSteer.Call(ctx, c, TurnSteerParams{ThreadID: "th", Input: []UserInput{{Type: "text", Text: "more"}}, ExpectedTurnID: "t1"})
				return r.TurnID, err
			},
			method: "turn/steer", params: `{"threadId":"th","input":[{"type":"text","text":"more","text_elements":[]}],"expectedTurnId":"t1"}`,
			answer: `{"turnId":"t1"}`, want: "t1",
		},
		{
			name: "Do reads nothing of the result",
			send: func(c *Conn) (any, error) {
				return nil, TurnInterrupt.Do(ctx, c, TurnInterruptParams{ThreadID: "th", TurnID: "t1"})
			},
			method: "turn/interrupt", params: `{"threadId":"th","turnId":"t1"}`, answer: `"not an object"`,
		},
		{
			name: "Call decodes the result",
			send: func(c *Conn) (any, error) {
				r, err := TurnSteer.Call(ctx, c, TurnSteerParams{ThreadID: "th", ExpectedTurnID: "t1"})
				return r.TurnID, err
			},
			method: "turn/steer", params: `{"threadId":"th","input":null,"expectedTurnId":"t1"}`, answer: `"not an object"`,
			want: "", err: "turn/steer: decoding result",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newPeer(t)
			type out struct {
				v   any
				err error
			}
			done := make(chan out, 1)
			go func() {
				v, err := tc.send(p.conn)
				done <- out{v, err}
			}()
			m := p.read(t)
			if m["method"] != tc.method {
				t.Errorf("method %v, want %q", m["method"], tc.method)
			}
			raw, has := m["params"]
			switch {
			case tc.params == "" && has:
				t.Errorf("params %s sent, want none", mustJSON(raw))
			case tc.params != "" && !has:
				t.Errorf("no params sent, want %s", tc.params)
			case tc.params != "" && string(mustJSON(raw)) != canonical(t, tc.params):
				t.Errorf("params %s, want %s", mustJSON(raw), tc.params)
			}
			p.send(t, `{"id":`+string(mustJSON(m["id"]))+`,"result":`+tc.answer+`}`)
			got := <-done
			if tc.err == "" && got.err != nil || tc.err != "" && (got.err == nil || !strings.Contains(got.err.Error(), tc.err)) {
				t.Fatalf("error %v, want %q", got.err, tc.err)
			}
			if !reflect.DeepEqual(got.v, tc.want) {
				t.Errorf("got %#v, want %#v", got.v, tc.want)
			}
		})
	}
}

// TestNotificationWire: a Notification with None params goes out with
// neither id nor params.
func TestNotificationWire(t *testing.T) {
	p := newPeer(t)
	errc := make(chan error, 1)
	go func() { errc <- Initialized.Send(p.conn, nil) }() // the pipe holds the write until it is read
	m := p.read(t)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if m["method"] != "initialized" {
		t.Errorf("method %v, want initialized", m["method"])
	}
	for _, k := range []string{"id", "params"} {
		if _, ok := m[k]; ok {
			t.Errorf("notification has %s: %v", k, m)
		}
	}
}

// canonical is s re-encoded the way p.read's map is, so the two compare.
func canonical(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return string(mustJSON(v))
}

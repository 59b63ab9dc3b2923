// Package reqtest is what tests of server requests share: typed requests
// decoded from JSON params, a recorder of the replies they send, and the
// params of one request of each kind. It imports only backend.
package reqtest

import (
	"encoding/json"
	"sync"
	"testing"

	"tandem/backend"
)

// Replies records what requests' reply functions send, as the JSON of
// the response's result or error member. Its zero value is ready; it is
// safe for the goroutines commands run in.
type Replies struct {
	mu  sync.Mutex
	got []string
}

// Reply is a backend reply function that records the reply.
func (r *Replies) Reply(result any, rpcErr *backend.RPCError) error {
	var b []byte
	var err error
	if rpcErr != nil {
		b, err = json.Marshal(map[string]any{"error": rpcErr})
	} else {
		b, err = json.Marshal(map[string]any{"result": result})
	}
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.got = append(r.got, string(b))
	r.mu.Unlock()
	return nil
}

// All returns the replies recorded, first sent first.
func (r *Replies) All() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

// Decode builds the typed request of method with id (JSON) and params
// (JSON) whose replies rep records; it fails the test when that can't be
// done.
func Decode(t testing.TB, method, id, params string, rep *Replies) backend.ServerRequest {
	t.Helper()
	req, err := backend.DecodeRequest(method, backend.RequestID(id), json.RawMessage(params), rep.Reply)
	if err != nil || req == nil {
		t.Fatalf("DecodeRequest(%s): %v, %v", method, req, err)
	}
	return req
}

// The params of one request of each kind with a form.
const (
	// CmdReq asks to run "git add x" in /w, proposing an execpolicy and a
	// network amendment.
	CmdReq = `{"threadId":"th","turnId":"tu","itemId":"call_1","kind":"command","startedAtMs":1,"environmentId":null,"command":"git add x","cwd":"/w",` +
		`"proposedExecpolicyAmendment":["git","add"],"proposedNetworkPolicyAmendments":[{"host":"example.com","action":"allow"}]}`
	// PermReq asks for network access and writes under /shared.
	PermReq = `{"threadId":"th","turnId":"tu","itemId":"p1","environmentId":null,"startedAtMs":1,"cwd":"/w","reason":"needs /shared",` +
		`"permissions":{"network":{"enabled":true},"fileSystem":{"read":null,"write":["/shared"]}}}`
	// InputReq asks two questions: an env (options, and other) and a
	// secret token.
	InputReq = `{"threadId":"th","turnId":"tu","itemId":"u1","isBlocking":true,"autoResolutionMs":null,"questions":[` +
		`{"id":"q1","header":"Env","question":"Which env?","isOther":true,"isSecret":false,"options":[{"label":"prod","description":"live"},{"label":"dev","description":""}]},` +
		`{"id":"q2","header":"Token","question":"API token?","isOther":false,"isSecret":true,"options":null}]}`
	// ElicitReq is an MCP server's form: a name (required), an age, a
	// flag, a colour and tags.
	ElicitReq = `{"threadId":"th","turnId":null,"serverName":"srv","mode":"form","_meta":null,"message":"Tell me about you",` +
		`"requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Name"},"age":{"type":"integer","minimum":0},` +
		`"ok":{"type":"boolean","default":true},"color":{"type":"string","enum":["red","green"],"default":"green"},` +
		`"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"default":["b"]}},"required":["name"]}}`
	// URLReq is an MCP server's link to open.
	URLReq = `{"threadId":"th","turnId":"tu","serverName":"srv","mode":"url","_meta":null,"message":"Sign in please","url":"https://example.com/auth","elicitationId":"e1"}`
	// ExecReq is the legacy approval of "git push".
	ExecReq = `{"conversationId":"th","callId":"c1","approvalId":null,"command":["git","push"],"cwd":"/w","reason":"push it","parsedCmd":[]}`
	// PatchReq is the legacy approval of adding a.txt.
	PatchReq = `{"conversationId":"th","callId":"c1","fileChanges":{"a.txt":{"type":"add","content":"hello\n"}},"reason":null,"grantRoot":null}`
)

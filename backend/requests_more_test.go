package backend

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"
)

// decodingHandler decodes every server request the way Session does and
// hands it to the test; unknown methods fall through to Conn (-32601).
type decodingHandler struct {
	reqs chan ServerRequest
	errs chan error
}

func (h *decodingHandler) HandleNotification(string, json.RawMessage) {}

func (h *decodingHandler) HandleRequest(in *IncomingRequest) bool {
	req, err := decodeIncoming(in)
	if err != nil {
		h.errs <- err
		_ = in.RespondError(CodeInvalidParams, err.Error())
		return true
	}
	if req == nil {
		return false
	}
	h.reqs <- req
	return true
}

// newDecodingPeer wires a Conn to an in-process scripted server.
func newDecodingPeer(t *testing.T) (*peer, *decodingHandler) {
	t.Helper()
	sr, sw := io.Pipe()
	cr, cw := io.Pipe()
	h := &decodingHandler{reqs: make(chan ServerRequest, 4), errs: make(chan error, 4)}
	c := NewConn(sr, cw, h, nil)
	go c.Serve()
	t.Cleanup(func() { sw.Close(); cr.Close() })
	p := &peer{conn: c, toConn: sw}
	p.lines = bufio.NewReaderSize(cr, 1<<20)
	return p, h
}

func (h *decodingHandler) next(t *testing.T) ServerRequest {
	t.Helper()
	select {
	case r := <-h.reqs:
		return r
	case err := <-h.errs:
		t.Fatalf("decode: %v", err)
	case <-time.After(patience):
		t.Fatal("no request decoded in time")
	}
	return nil
}

// readAsync reads the client's next line in the background: the pipe
// blocks a write until it is read, so start reading before answering.
func readAsync(p *peer) <-chan string {
	done := make(chan string, 1)
	go func() {
		line, err := readLine(p.lines)
		if err != nil {
			done <- "ERR " + err.Error()
			return
		}
		done <- string(line)
	}()
	return done
}

func readRaw(t *testing.T, p *peer) string {
	t.Helper()
	return waitLine(t, readAsync(p))
}

func waitLine(t *testing.T, done <-chan string) string {
	t.Helper()
	select {
	case s := <-done:
		return s
	case <-time.After(patience):
		t.Fatal("no reply")
	}
	return ""
}

const cmdParams = `{"threadId":"th","turnId":"tu","itemId":"call_1","kind":"command","startedAtMs":1,"environmentId":null,"command":"git add x","cwd":"/w",` +
	`"proposedExecpolicyAmendment":["git","add"],"proposedNetworkPolicyAmendments":[{"host":"example.com","action":"allow"},{"host":"evil.test","action":"deny"}],` +
	`"availableDecisions":["accept","acceptForSession",{"acceptWithExecpolicyAmendment":{"execpolicy_amendment":["git","add"]}},{"applyNetworkPolicyAmendment":{"network_policy_amendment":{"host":"example.com","action":"allow"}}},"decline","cancel"]}`

const permParams = `{"threadId":"th","turnId":"tu","itemId":"p1","environmentId":null,"startedAtMs":1,"cwd":"/w","reason":"needs /shared",` +
	`"permissions":{"network":null,"fileSystem":{"read":null,"write":["/w","/shared"]}}}`

const inputParams = `{"threadId":"th","turnId":"tu","itemId":"u1","isBlocking":true,"autoResolutionMs":null,"questions":[` +
	`{"id":"q1","header":"Env","question":"Which env?","isOther":true,"isSecret":false,"options":[{"label":"prod","description":"live"},{"label":"dev","description":""}]},` +
	`{"id":"q2","header":"Token","question":"API token?","isOther":false,"isSecret":true,"options":null}]}`

const elicitForm = `{"threadId":"th","turnId":null,"serverName":"srv","mode":"form","_meta":null,"message":"Fill in",` +
	`"requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Name"},"age":{"type":"integer"}},"required":["name"]}}`

const elicitURL = `{"threadId":"th","turnId":"tu","serverName":"srv","mode":"url","_meta":null,"message":"Sign in","url":"https://example.com/auth","elicitationId":"e1"}`

const patchParams = `{"conversationId":"th","callId":"c1","fileChanges":{"a.txt":{"type":"add","content":"hi\n"},"b.txt":{"type":"update","unified_diff":"@@ -1 +1 @@\n-a\n+b\n","move_path":null}},"reason":null,"grantRoot":null}`

const execParams = `{"conversationId":"th","callId":"c1","approvalId":null,"command":["git","push"],"cwd":"/w","reason":"push it","parsedCmd":[]}`

// TestServerRequestRepliesExactJSON sends each server request kind from a
// scripted peer, answers it, and checks the reply line byte for byte,
// with numeric and string ids.
func TestServerRequestRepliesExactJSON(t *testing.T) {
	fixed := time.Unix(1700000000, 0)
	cases := []struct {
		name, method, params string
		act                  func(ServerRequest) error
		result               string // the reply's result or error member
	}{
		{"command accept", "item/commandExecution/requestApproval", cmdParams,
			func(r ServerRequest) error { return r.(*CommandApprovalRequest).Answer(Accept) },
			`"result":{"decision":"accept"}`},
		{"command acceptForSession", "item/commandExecution/requestApproval", cmdParams,
			func(r ServerRequest) error { return r.(*CommandApprovalRequest).Answer(AcceptForSession) },
			`"result":{"decision":"acceptForSession"}`},
		{"command decline", "item/commandExecution/requestApproval", cmdParams,
			func(r ServerRequest) error { return r.(*CommandApprovalRequest).Answer(Decline) },
			`"result":{"decision":"decline"}`},
		{"command cancel (refuse)", "item/commandExecution/requestApproval", cmdParams,
			func(r ServerRequest) error { return r.Refuse() },
			`"result":{"decision":"cancel"}`},
		{"command execpolicy amendment", "item/commandExecution/requestApproval", cmdParams,
			func(r ServerRequest) error {
				c := r.(*CommandApprovalRequest)
				return c.Answer(AcceptWithExecpolicyAmendment(c.Params.ProposedExecpolicyAmendment))
			},
			`"result":{"decision":{"acceptWithExecpolicyAmendment":{"execpolicy_amendment":["git","add"]}}}`},
		{"command network amendment", "item/commandExecution/requestApproval", cmdParams,
			func(r ServerRequest) error {
				c := r.(*CommandApprovalRequest)
				return c.Answer(ApplyNetworkPolicyAmendment(c.Params.ProposedNetworkPolicyAmendments[1]))
			},
			`"result":{"decision":{"applyNetworkPolicyAmendment":{"network_policy_amendment":{"host":"evil.test","action":"deny"}}}}`},
		{"file change accept", "item/fileChange/requestApproval", `{"threadId":"th","turnId":"tu","itemId":"f1","startedAtMs":1,"reason":null,"grantRoot":null}`,
			func(r ServerRequest) error { return r.(*FileChangeApprovalRequest).Answer(Accept) },
			`"result":{"decision":"accept"}`},
		{"file change cancel (refuse)", "item/fileChange/requestApproval", `{"threadId":"th","turnId":"tu","itemId":"f1","startedAtMs":1}`,
			func(r ServerRequest) error { return r.Refuse() },
			`"result":{"decision":"cancel"}`},
		{"legacy exec approved", "execCommandApproval", execParams,
			func(r ServerRequest) error { return r.(*ExecCommandApprovalRequest).Answer(Approved) },
			`"result":{"decision":"approved"}`},
		{"legacy exec approved_for_session", "execCommandApproval", execParams,
			func(r ServerRequest) error { return r.(*ExecCommandApprovalRequest).Answer(ApprovedForSession) },
			`"result":{"decision":"approved_for_session"}`},
		{"legacy exec denied", "execCommandApproval", execParams,
			func(r ServerRequest) error { return r.(*ExecCommandApprovalRequest).Answer(Denied(DeclinedRejection)) },
			`"result":{"decision":{"denied":{"rejection":"The user declined this request."}}}`},
		{"legacy exec abort (refuse)", "execCommandApproval", execParams,
			func(r ServerRequest) error { return r.Refuse() },
			`"result":{"decision":"abort"}`},
		{"legacy exec policy amendment", "execCommandApproval", execParams,
			func(r ServerRequest) error {
				return r.(*ExecCommandApprovalRequest).Answer(ApprovedExecpolicyAmendment([]string{"git", "push"}))
			},
			`"result":{"decision":{"approved_execpolicy_amendment":{"proposed_execpolicy_amendment":["git","push"]}}}`},
		{"legacy exec network amendment", "execCommandApproval", execParams,
			func(r ServerRequest) error {
				return r.(*ExecCommandApprovalRequest).Answer(LegacyNetworkPolicyAmendment(NetworkPolicyAmendment{Host: "h", Action: "allow"}))
			},
			`"result":{"decision":{"network_policy_amendment":{"network_policy_amendment":{"host":"h","action":"allow"}}}}`},
		{"legacy patch approved", "applyPatchApproval", patchParams,
			func(r ServerRequest) error { return r.(*ApplyPatchApprovalRequest).Answer(Approved) },
			`"result":{"decision":"approved"}`},
		{"legacy patch abort (refuse)", "applyPatchApproval", patchParams,
			func(r ServerRequest) error { return r.Refuse() },
			`"result":{"decision":"abort"}`},
		{"permissions grant turn", "item/permissions/requestApproval", permParams,
			func(r ServerRequest) error { return r.(*PermissionsApprovalRequest).Grant(ScopeTurn) },
			`"result":{"permissions":{"fileSystem":{"read":null,"write":["/w","/shared"]}},"scope":"turn"}`},
		{"permissions grant session", "item/permissions/requestApproval", permParams,
			func(r ServerRequest) error { return r.(*PermissionsApprovalRequest).Grant(ScopeSession) },
			`"result":{"permissions":{"fileSystem":{"read":null,"write":["/w","/shared"]}},"scope":"session"}`},
		{"permissions deny (refuse)", "item/permissions/requestApproval", permParams,
			func(r ServerRequest) error { return r.Refuse() },
			`"result":{"permissions":{},"scope":"turn"}`},
		{"user input answers", "item/tool/requestUserInput", inputParams,
			func(r ServerRequest) error {
				return r.(*UserInputRequest).Answer(map[string][]string{"q1": {"prod"}, "q2": {"s3cret"}})
			},
			`"result":{"answers":{"q1":{"answers":["prod"]},"q2":{"answers":["s3cret"]}}}`},
		{"user input refuse", "item/tool/requestUserInput", inputParams,
			func(r ServerRequest) error { return r.Refuse() },
			`"result":{"answers":{}}`},
		{"elicitation form accept", "mcpServer/elicitation/request", elicitForm,
			func(r ServerRequest) error {
				return r.(*ElicitationRequest).Accept(map[string]ElicitValue{"name": ElicitString("Ada"), "age": ElicitInteger(36)})
			},
			`"result":{"_meta":null,"action":"accept","content":{"age":36,"name":"Ada"}}`},
		{"elicitation url accept", "mcpServer/elicitation/request", elicitURL,
			func(r ServerRequest) error { return r.(*ElicitationRequest).Accept(nil) },
			`"result":{"_meta":null,"action":"accept","content":null}`},
		{"elicitation decline", "mcpServer/elicitation/request", elicitForm,
			func(r ServerRequest) error { return r.(*ElicitationRequest).Decline() },
			`"result":{"_meta":null,"action":"decline","content":null}`},
		{"elicitation cancel (refuse)", "mcpServer/elicitation/request", elicitURL,
			func(r ServerRequest) error { return r.Refuse() },
			`"result":{"_meta":null,"action":"cancel","content":null}`},
		{"dynamic tool call", "item/tool/call", `{"threadId":"th","turnId":"tu","callId":"c","tool":"x","arguments":{}}`,
			func(r ServerRequest) error { return r.(*ToolCallRequest).Succeed("ok") },
			`"result":{"contentItems":[{"type":"inputText","text":"ok"}],"success":true}`},
		{"chatgpt token refresh", "account/chatgptAuthTokens/refresh", `{"reason":"unauthorized","previousAccountId":null}`,
			func(r ServerRequest) error { return r.(AutoAnswered).AutoAnswer() },
			`"error":{"code":-32000,"message":"tandem does not manage ChatGPT auth tokens; sign in again with ` + "`codex login`" + `"}`},
		{"attestation", "attestation/generate", `{}`,
			func(r ServerRequest) error { return r.(AutoAnswered).AutoAnswer() },
			`"error":{"code":-32000,"message":"tandem cannot generate client attestations"}`},
		{"current time", "currentTime/read", `{"threadId":"th"}`,
			func(r ServerRequest) error {
				c := r.(*CurrentTimeRequest)
				c.Now = func() time.Time { return fixed }
				return c.AutoAnswer()
			},
			`"result":{"currentTimeAt":1700000000}`},
	}
	ids := []string{`7`, `"req-α 7"`, `0`, `-3`, `"007"`, `"a<&>b"`, `1.5e3`}
	for _, tc := range cases {
		for _, id := range ids {
			t.Run(fmt.Sprintf("%s id %s", tc.name, id), func(t *testing.T) {
				p, h := newDecodingPeer(t)
				p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"`+tc.method+`","params":`+tc.params+`}`)
				r := h.next(t)
				if r.Method() != tc.method || r.ID().String() != id {
					t.Fatalf("decoded %s %s, want %s %s", r.Method(), r.ID(), tc.method, id)
				}
				line := readAsync(p)
				if err := tc.act(r); err != nil {
					t.Fatal(err)
				}
				want := `{"jsonrpc":"2.0","id":` + id + `,` + tc.result + `}`
				if got := waitLine(t, line); got != want {
					t.Errorf("reply\n got %s\nwant %s", got, want)
				}
				if !r.Answered() {
					t.Error("Answered() = false after answering")
				}
				if err := r.Refuse(); err == nil {
					t.Error("second answer was sent")
				}
			})
		}
	}
}

func TestUnknownMethodEchoesStringAndNumericIDs(t *testing.T) {
	for _, id := range []string{`12`, `"abc"`} {
		p, _ := newDecodingPeer(t)
		p.send(t, `{"jsonrpc":"2.0","id":`+id+`,"method":"item/unheardOf","params":{}}`)
		want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32601,"message":"method not found: item/unheardOf"}}`
		if got := readRaw(t, p); got != want {
			t.Errorf("got %s\nwant %s", got, want)
		}
	}
}

func TestBadParamsGetInvalidParams(t *testing.T) {
	p, h := newDecodingPeer(t)
	p.send(t, `{"jsonrpc":"2.0","id":"x","method":"item/permissions/requestApproval","params":{"threadId":5}}`)
	<-h.errs
	got := readRaw(t, p)
	if want := `{"jsonrpc":"2.0","id":"x","error":{"code":-32602,`; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("got %s", got)
	}
}

func TestCommandDecisionKinds(t *testing.T) {
	var p CommandApprovalParams
	if err := json.Unmarshal([]byte(cmdParams), &p); err != nil {
		t.Fatal(err)
	}
	got := p.DecisionKinds()
	for _, k := range []string{"accept", "acceptForSession", "acceptWithExecpolicyAmendment", "applyNetworkPolicyAmendment", "decline", "cancel"} {
		if !got[k] {
			t.Errorf("missing %s in %v", k, got)
		}
	}
	if len(got) != 6 {
		t.Errorf("got %d kinds: %v", len(got), got)
	}
	if (CommandApprovalParams{}).DecisionKinds() != nil {
		t.Error("no availableDecisions should give nil")
	}
}

func TestPermissionProfileDescribe(t *testing.T) {
	cases := []struct {
		json string
		want []string
	}{
		{`{"network":{"enabled":true},"fileSystem":null}`, []string{"network access"}},
		{`{"network":null,"fileSystem":{"read":["/a"],"write":["/b","/c"]}}`, []string{"read: /a", "write: /b, /c"}},
		{`{"network":null,"fileSystem":{"read":null,"write":null,"entries":[{"path":{"type":"path","path":"/x"},"access":"write"},{"path":{"type":"glob_pattern","pattern":"**/*.go"},"access":"read"}]}}`,
			[]string{"write: /x", "read: **/*.go"}},
		{`{"network":null,"fileSystem":null}`, []string{"(nothing specific)"}},
	}
	for _, c := range cases {
		var p PermissionProfile
		if err := json.Unmarshal([]byte(c.json), &p); err != nil {
			t.Fatal(err)
		}
		got := p.Describe()
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %q want %q", c.json, got, c.want)
		}
	}
}

func TestElicitationSchemaKeepsOrderAndKinds(t *testing.T) {
	p := ElicitationParams{Mode: "form", RequestedSchema: json.RawMessage(`{"type":"object","properties":{
		"zeta":{"type":"string","default":"z","minLength":1},
		"count":{"type":"integer","minimum":1,"maximum":9,"default":3},
		"ratio":{"type":"number"},
		"ok":{"type":"boolean","default":true},
		"color":{"type":"string","enum":["r","g"],"enumNames":["Red","Green"]},
		"size":{"type":"string","oneOf":[{"const":"s","title":"Small"}]},
		"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"default":["a"]},
		"pets":{"type":"array","items":{"anyOf":[{"const":"cat","title":"Cat"}]}}
	},"required":["count","tags"]}`)}
	props, err := p.Schema()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pr := range props {
		got = append(got, fmt.Sprintf("%s:%s:%v", pr.Name, pr.Kind(), pr.Required))
	}
	want := "[zeta:string:false count:integer:true ratio:number:false ok:boolean:false color:enum:false size:enum:false tags:multiEnum:true pets:multiEnum:false]"
	if fmt.Sprint(got) != want {
		t.Errorf("got %v\nwant %s", got, want)
	}
	if o := props[4].Options(); fmt.Sprint(o) != "[{r Red} {g Green}]" {
		t.Errorf("legacy titled enum options %v", o)
	}
	if o := props[7].Options(); fmt.Sprint(o) != "[{cat Cat}]" {
		t.Errorf("anyOf options %v", o)
	}
	if _, err := (ElicitationParams{RequestedSchema: json.RawMessage(`{"type":"string"}`)}).Schema(); err == nil {
		t.Error("non-object schema accepted")
	}
}

func TestLegacyFileChangeDiff(t *testing.T) {
	var p ApplyPatchApprovalParams
	if err := json.Unmarshal([]byte(patchParams), &p); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(p.Paths()) != "[a.txt b.txt]" {
		t.Errorf("paths %v", p.Paths())
	}
	if d := p.FileChanges["a.txt"].Diff(); d != "hi\n" { // the content, unsigned
		t.Errorf("add diff %q", d)
	}
	if d := p.FileChanges["b.txt"].Diff(); d != "@@ -1 +1 @@\n-a\n+b\n" {
		t.Errorf("update diff %q", d)
	}
}

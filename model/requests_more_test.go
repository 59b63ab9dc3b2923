package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/testkit/teadrive"
)

// replies captures what a request's ReplyFunc sends, as the JSON of the
// response's result or error member.
type replies struct {
	mu  sync.Mutex
	got []string
}

func (r *replies) reply(result any, rpcErr *backend.RPCError) error {
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

func (r *replies) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func decodeReq(t *testing.T, method, id, params string, rep *replies) backend.ServerRequest {
	t.Helper()
	req, err := backend.DecodeRequest(method, backend.RequestID(id), json.RawMessage(params), rep.reply)
	if err != nil || req == nil {
		t.Fatalf("DecodeRequest(%s): %v, %v", method, req, err)
	}
	return req
}

// drive runs cmds the way the program would, feeding their messages back
// into m; commands that don't finish within 60 ms (blinks, ticks) are
// dropped, and so is formFocusMsg (focus is granted by key()). It never
// blocks for long.
func drive(t *testing.T, m *Model, cmds ...tea.Cmd) {
	t.Helper()
	update := func(msg tea.Msg) tea.Cmd { _, next := m.Update(msg); return next }
	skip := func(msg tea.Msg) bool { _, ok := msg.(formFocusMsg); return ok }
	if err := teadrive.Drive(update, 60*time.Millisecond, skip, cmds...); err != nil {
		t.Fatal("drive:", err)
	}
}

// hitKey presses a key (a rune, or a tea.Key* code) and runs what follows.
func hitKey(t *testing.T, m *Model, code rune, mod tea.KeyMod) {
	t.Helper()
	msg := tea.KeyPressMsg{Code: code, Mod: mod}
	if code >= ' ' && code < tea.KeyExtended && mod == 0 {
		msg.Text = string(code)
	}
	_, cmd := m.Update(msg)
	drive(t, m, cmd)
}

func typeKeys(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		hitKey(t, m, r, 0)
	}
}

// deliver hands req to the model and ends the form's grace period.
func deliver(t *testing.T, m *Model, req backend.ServerRequest) tea.Cmd {
	t.Helper()
	_, cmd := m.Update(req)
	drive(t, m, cmd)
	m.Update(formFocusMsg{seq: m.requests.seq})
	return cmd
}

func newReqModel() *Model {
	m := New(Options{NoColor: true, FormGrace: time.Hour})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	return m
}

func plain(m *Model) string { return ansi.Strip(m.View().Content) }

const (
	cmdReq = `{"threadId":"th","turnId":"tu","itemId":"call_1","kind":"command","startedAtMs":1,"environmentId":null,"command":"git add x","cwd":"/w",` +
		`"proposedExecpolicyAmendment":["git","add"],"proposedNetworkPolicyAmendments":[{"host":"example.com","action":"allow"}]}`
	permReq = `{"threadId":"th","turnId":"tu","itemId":"p1","environmentId":null,"startedAtMs":1,"cwd":"/w","reason":"needs /shared",` +
		`"permissions":{"network":{"enabled":true},"fileSystem":{"read":null,"write":["/shared"]}}}`
	inputReq = `{"threadId":"th","turnId":"tu","itemId":"u1","isBlocking":true,"autoResolutionMs":null,"questions":[` +
		`{"id":"q1","header":"Env","question":"Which env?","isOther":true,"isSecret":false,"options":[{"label":"prod","description":"live"},{"label":"dev","description":""}]},` +
		`{"id":"q2","header":"Token","question":"API token?","isOther":false,"isSecret":true,"options":null}]}`
	elicitReq = `{"threadId":"th","turnId":null,"serverName":"srv","mode":"form","_meta":null,"message":"Tell me about you",` +
		`"requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Name"},"age":{"type":"integer","minimum":0},` +
		`"ok":{"type":"boolean","default":true},"color":{"type":"string","enum":["red","green"],"default":"green"},` +
		`"tags":{"type":"array","items":{"type":"string","enum":["a","b"]},"default":["b"]}},"required":["name"]}}`
	urlReq   = `{"threadId":"th","turnId":"tu","serverName":"srv","mode":"url","_meta":null,"message":"Sign in please","url":"https://example.com/auth","elicitationId":"e1"}`
	execReq  = `{"conversationId":"th","callId":"c1","approvalId":null,"command":["git","push"],"cwd":"/w","reason":"push it","parsedCmd":[]}`
	patchReq = `{"conversationId":"th","callId":"c1","fileChanges":{"a.txt":{"type":"add","content":"hello\n"}},"reason":null,"grantRoot":null}`
)

type step struct {
	text string // typed runes
	code rune   // or one key
	mod  tea.KeyMod
}

func keySteps(codes ...rune) []step {
	var out []step
	for _, c := range codes {
		out = append(out, step{code: c})
	}
	return out
}

// TestRequestFormsAnswerExactly drives each request kind's form with key
// presses and checks the exact reply JSON.
func TestRequestFormsAnswerExactly(t *testing.T) {
	down, enter, esc := tea.KeyDown, tea.KeyEnter, tea.KeyEscape
	cases := []struct {
		name, method, params string
		steps                []step
		want                 string
	}{
		{"command accept", "item/commandExecution/requestApproval", cmdReq, keySteps(enter), `{"result":{"decision":"accept"}}`},
		{"command execpolicy amendment", "item/commandExecution/requestApproval", cmdReq, keySteps(down, down, enter),
			`{"result":{"decision":{"acceptWithExecpolicyAmendment":{"execpolicy_amendment":["git","add"]}}}}`},
		{"command network amendment", "item/commandExecution/requestApproval", cmdReq, keySteps(down, down, down, enter),
			`{"result":{"decision":{"applyNetworkPolicyAmendment":{"network_policy_amendment":{"host":"example.com","action":"allow"}}}}}`},
		{"command decline", "item/commandExecution/requestApproval", cmdReq, keySteps(down, down, down, down, enter), `{"result":{"decision":"decline"}}`},
		{"command esc cancels", "item/commandExecution/requestApproval", cmdReq, keySteps(esc), `{"result":{"decision":"cancel"}}`},
		{"file change session", "item/fileChange/requestApproval", `{"threadId":"th","turnId":"tu","itemId":"f1"}`, keySteps(down, enter), `{"result":{"decision":"acceptForSession"}}`},
		{"legacy exec denied", "execCommandApproval", execReq, keySteps(down, down, enter), `{"result":{"decision":{"denied":{"rejection":"The user declined this request."}}}}`},
		{"legacy exec esc aborts", "execCommandApproval", execReq, keySteps(esc), `{"result":{"decision":"abort"}}`},
		{"legacy patch approved", "applyPatchApproval", patchReq, keySteps(enter), `{"result":{"decision":"approved"}}`},
		{"legacy patch for session", "applyPatchApproval", patchReq, keySteps(down, enter), `{"result":{"decision":"approved_for_session"}}`},
		{"permissions turn", "item/permissions/requestApproval", permReq, keySteps(enter),
			`{"result":{"permissions":{"fileSystem":{"read":null,"write":["/shared"]},"network":{"enabled":true}},"scope":"turn"}}`},
		{"permissions session", "item/permissions/requestApproval", permReq, keySteps(down, enter),
			`{"result":{"permissions":{"fileSystem":{"read":null,"write":["/shared"]},"network":{"enabled":true}},"scope":"session"}}`},
		{"permissions deny", "item/permissions/requestApproval", permReq, keySteps(down, down, enter), `{"result":{"permissions":{},"scope":"turn"}}`},
		{"permissions esc denies", "item/permissions/requestApproval", permReq, keySteps(esc), `{"result":{"permissions":{},"scope":"turn"}}`},
		{"user input option and secret", "item/tool/requestUserInput", inputReq,
			[]step{{code: enter}, {code: enter}, {text: "s3cret"}, {code: enter}},
			`{"result":{"answers":{"q1":{"answers":["prod"]},"q2":{"answers":["s3cret"]}}}}`},
		{"user input other", "item/tool/requestUserInput", inputReq,
			[]step{{code: down}, {code: down}, {code: enter}, {text: "staging"}, {code: enter}, {text: "t"}, {code: enter}},
			`{"result":{"answers":{"q1":{"answers":["staging"]},"q2":{"answers":["t"]}}}}`},
		{"user input esc", "item/tool/requestUserInput", inputReq, keySteps(esc), `{"result":{"answers":{}}}`},
		{"elicitation form accept", "mcpServer/elicitation/request", elicitReq,
			[]step{{code: enter}, {text: "Ada"}, {code: enter}, {text: "36"}, {code: enter}, {code: enter}, {code: enter}, {code: enter}},
			`{"result":{"_meta":null,"action":"accept","content":{"age":36,"color":"green","name":"Ada","ok":true,"tags":["b"]}}}`},
		{"elicitation decline", "mcpServer/elicitation/request", elicitReq, keySteps(down, enter), `{"result":{"_meta":null,"action":"decline","content":null}}`},
		{"elicitation cancel", "mcpServer/elicitation/request", elicitReq, keySteps(down, down, enter), `{"result":{"_meta":null,"action":"cancel","content":null}}`},
		{"elicitation esc cancels", "mcpServer/elicitation/request", elicitReq, keySteps(esc), `{"result":{"_meta":null,"action":"cancel","content":null}}`},
		{"elicitation url accept", "mcpServer/elicitation/request", urlReq, keySteps(enter), `{"result":{"_meta":null,"action":"accept","content":null}}`},
		{"token refresh is refused at once", "account/chatgptAuthTokens/refresh", `{"reason":"unauthorized"}`, nil,
			`{"error":{"code":-32000,"message":"tandem does not manage ChatGPT auth tokens; sign in again with ` + "`codex login`" + `"}}`},
		{"attestation is refused at once", "attestation/generate", `{}`, nil,
			`{"error":{"code":-32000,"message":"tandem cannot generate client attestations"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := &replies{}
			m := newReqModel()
			req := decodeReq(t, tc.method, `"id-1"`, tc.params, rep)
			deliver(t, m, req)
			for _, s := range tc.steps {
				if s.text != "" {
					typeKeys(t, m, s.text)
				} else {
					hitKey(t, m, s.code, s.mod)
				}
			}
			got := rep.all()
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("replies %q\nwant [%s]\nview:\n%s", got, tc.want, plain(m))
			}
			if len(m.Pending()) != 0 || m.requests.form != nil {
				t.Errorf("request still pending after its answer: %d, form %v", len(m.Pending()), m.requests.form != nil)
			}
		})
	}
}

// Text typed or pasted while a choice form has the keys never picks a
// choice: no letter moves the cursor, "/" does not filter, and the text
// goes to the composer while the form waits for a pause again, so the
// Enter that ends the message can't answer it either. (Before: "just run
// it"+Enter moved down with the j and picked "don't ask again".)
func TestTypedTextNeverAnswersAChoiceForm(t *testing.T) {
	cases := []struct {
		name, method, params string
		typed                string
		paste                bool
	}{
		{"j and Enter", "item/commandExecution/requestApproval", cmdReq, "just run it", false},
		{"filter no", "item/commandExecution/requestApproval", cmdReq, "/no", false},
		{"vim keys", "item/commandExecution/requestApproval", cmdReq, "jjjkG", false},
		{"legacy exec", "execCommandApproval", execReq, "jj", false},
		{"permissions", "item/permissions/requestApproval", permReq, "jx ", false},
		{"elicitation action", "mcpServer/elicitation/request", elicitReq, "j/decline", false},
		{"pasted text", "item/commandExecution/requestApproval", cmdReq, "jj\n", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rep := &replies{}
			m := newReqModel()
			deliver(t, m, decodeReq(t, tc.method, `"id-1"`, tc.params, rep))
			if !m.requests.hasKeys() {
				t.Fatal("form did not take the keys")
			}
			if tc.paste {
				_, cmd := m.Update(tea.PasteMsg{Content: tc.typed})
				drive(t, m, cmd)
			} else {
				typeKeys(t, m, tc.typed)
			}
			if v := plain(m); !strings.Contains(v, formDraftNotice) {
				t.Errorf("no hint that the form waits for the message:\n%s", v)
			}
			if got := m.composer.Value(); got != tc.typed {
				t.Errorf("composer %q; the typed text %q should be there", got, tc.typed)
			}
			hitKey(t, m, tea.KeyEnter, 0) // the composer's Enter (no app-server here: nothing is sent)
			if got := rep.all(); len(got) != 0 {
				t.Fatalf("typing %q answered the form: %q", tc.typed, got)
			}
			if m.requests.form == nil || m.requests.hasKeys() {
				t.Fatalf("form gone (%v) or still focused (%v) after typing", m.requests.form == nil, m.requests.hasKeys())
			}
			// After the pause the form answers arrow keys as before.
			m.Update(formFocusMsg{seq: m.requests.seq})
			hitKey(t, m, tea.KeyEscape, 0)
			if got := rep.all(); len(got) != 1 {
				t.Fatalf("Esc after the pause: replies %q; want one", got)
			}
		})
	}
}

// clockedReqModel is a model whose forms' grace and quiet periods (100 ms
// each) run on the returned clock.
func clockedReqModel() (*Model, *time.Time) {
	now := time.Unix(1000, 0)
	m := New(Options{NoColor: true, FormGrace: 100 * time.Millisecond, FormQuiet: 100 * time.Millisecond, GraceNow: func() time.Time { return now }})
	m.Update(tea.WindowSizeMsg{Width: 110, Height: 40})
	return m, &now
}

// A message typed while a form is up keeps the keyboard however long the
// user pauses: the form takes it once the message is sent or cleared.
// (Before: "no, wait, dont", a 0.8 s pause, Enter — and "Yes, run it"
// was chosen.)
func TestDraftKeepsKeysFromForm(t *testing.T) {
	m, clk := clockedReqModel()
	rep := &replies{}
	_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `"id-1"`, cmdReq, rep))
	drive(t, m, cmd)
	typeKeys(t, m, "no, wait, dont")
	*clk = clk.Add(2 * time.Second) // a long pause
	drive(t, m, m.onFormCheck(formCheckMsg{seq: m.requests.seq}))
	if m.requests.hasKeys() {
		t.Fatal("the form took the keys from a message being typed")
	}
	if v := plain(m); !strings.Contains(v, formDraftNotice) {
		t.Errorf("no hint:\n%s", v)
	}
	hitKey(t, m, tea.KeyEnter, 0) // meant for the message
	if got := rep.all(); len(got) != 0 {
		t.Fatalf("Enter after a pause answered the form: %q", got)
	}
	// Deleted: after a pause the form has the keys.
	for range len("no, wait, dont") {
		m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace}) // key() would give it text
	}
	if m.composer.Value() != "" {
		t.Fatalf("backspace left %q", m.composer.Value())
	}
	*clk = clk.Add(time.Second)
	drive(t, m, m.onFormCheck(formCheckMsg{seq: m.requests.seq}))
	if !m.requests.hasKeys() {
		t.Fatal("the form did not take the keys once the message was cleared")
	}
	hitKey(t, m, tea.KeyEscape, 0)
	if got := rep.all(); len(got) != 1 || !strings.Contains(got[0], "cancel") {
		t.Errorf("replies %q; want the cancel", got)
	}
}

// A draft from before the form appeared does not hold it off.
func TestOldDraftLetsFormFocus(t *testing.T) {
	m, clk := clockedReqModel()
	rep := &replies{}
	typeKeys(t, m, "half a thought")
	*clk = clk.Add(time.Second)
	_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `"id-1"`, cmdReq, rep))
	drive(t, m, cmd)
	*clk = clk.Add(time.Second)
	drive(t, m, m.onFormCheck(formCheckMsg{seq: m.requests.seq}))
	if !m.requests.hasKeys() {
		t.Fatal("a draft older than the form kept it from the keys")
	}
}

// The queue count under the form follows requests as they arrive and are
// answered, in arrival order.
func TestQueueCountUpdatesLive(t *testing.T) {
	rep := &replies{}
	m := newReqModel()
	deliver(t, m, decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
	if v := plain(m); strings.Contains(v, "more waiting") {
		t.Fatalf("count shown with one request:\n%s", v)
	}
	deliver(t, m, decodeReq(t, "item/permissions/requestApproval", `2`, permReq, rep))
	deliver(t, m, decodeReq(t, "mcpServer/elicitation/request", `"three"`, urlReq, rep))
	v := plain(m)
	if !strings.Contains(v, "(+2 more waiting)") || !strings.Contains(v, "Run this command?") {
		t.Fatalf("want the first request with +2 waiting:\n%s", v)
	}
	hitKey(t, m, tea.KeyEscape, 0) // cancel the command
	m.Update(formFocusMsg{seq: m.requests.seq})
	v = plain(m)
	if !strings.Contains(v, "(+1 more waiting)") || !strings.Contains(v, "Grant these permissions?") {
		t.Fatalf("want the permissions request with +1 waiting:\n%s", v)
	}
	deliver(t, m, decodeReq(t, "item/tool/requestUserInput", `4`, inputReq, rep))
	if v := plain(m); !strings.Contains(v, "(+2 more waiting)") {
		t.Fatalf("count did not grow when a request arrived:\n%s", v)
	}
	if got := len(rep.all()); got != 1 {
		t.Fatalf("%d replies; want 1", got)
	}
}

// A blocking request rings the terminal through the program (tea.Raw);
// an automatic one does not.
func TestRequestRingsTerminal(t *testing.T) {
	rep := &replies{}
	m := newReqModel()
	_, cmd := m.Update(decodeReq(t, "item/commandExecution/requestApproval", `1`, cmdReq, rep))
	if !hasRaw(cmd, "\a") {
		t.Error("command approval did not ring")
	}
	_, cmd = m.Update(decodeReq(t, "item/permissions/requestApproval", `2`, permReq, rep))
	if !hasRaw(cmd, "\a") {
		t.Error("a queued request did not ring")
	}
	_, cmd = m.Update(decodeReq(t, "attestation/generate", `3`, `{}`, rep))
	if hasRaw(cmd, "") {
		t.Error("an automatic answer rang")
	}
}

func hasRaw(cmd tea.Cmd, want string) bool {
	if cmd == nil {
		return false
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(30 * time.Millisecond):
		return false
	}
	switch msg := msg.(type) {
	case tea.RawMsg:
		return strings.Contains(fmt.Sprint(msg.Msg), want)
	case tea.BatchMsg:
		for _, c := range msg {
			if hasRaw(c, want) {
				return true
			}
		}
	}
	return false
}

// The file-change approval shows the item's diff in a window that says
// how many lines are below it and scrolls with shift+↓ and ctrl+d,
// without moving the choice.
func TestFileChangeApprovalDiffScrolls(t *testing.T) {
	var diff strings.Builder
	for i := 1; i <= 40; i++ { // an added file's item carries its content
		fmt.Fprintf(&diff, "line number %d\n", i)
	}
	rep := &replies{}
	m := newReqModel()
	m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "fileChange", ID: "f1", Status: "inProgress",
		Changes: []backend.FileChange{{Path: "big.txt", Kind: backend.PatchChangeKind{Type: "add"}, Diff: diff.String()}}}})
	deliver(t, m, decodeReq(t, "item/fileChange/requestApproval", `9`, `{"threadId":"th","turnId":"tu","itemId":"f1","reason":"write big.txt"}`, rep))
	v := plain(m)
	if !strings.Contains(v, "Apply these changes?") || !strings.Contains(v, "add big.txt (+40 −0)") || !strings.Contains(v, "↓ 28 more lines below · lines 1–13 of 41 · shift+↑/↓ ctrl+u/d scroll") {
		t.Fatalf("diff window missing:\n%s", v)
	}
	hitKey(t, m, tea.KeyDown, tea.ModShift)
	hitKey(t, m, 'd', tea.ModCtrl)
	v = plain(m)
	if !strings.Contains(v, "↓ 21 more lines below · lines 8–20 of 41") || !strings.Contains(v, "+line number 18") {
		t.Fatalf("diff did not scroll:\n%s", v)
	}
	hitKey(t, m, tea.KeyEnter, 0)
	if got := rep.all(); len(got) != 1 || got[0] != `{"result":{"decision":"accept"}}` {
		t.Fatalf("scrolling changed the answer: %q", got)
	}
}

// The permissions and elicitation forms show what is asked.
func TestPermissionsAndElicitationRender(t *testing.T) {
	rep := &replies{}
	m := newReqModel()
	deliver(t, m, decodeReq(t, "item/permissions/requestApproval", `1`, permReq, rep))
	v := plain(m)
	for _, want := range []string{"Grant these permissions?", "needs /shared", "network access", "write: /shared", "Yes, for this turn", "Yes, for the rest of the session", "No, deny"} {
		if !strings.Contains(v, want) {
			t.Errorf("permissions view lacks %q:\n%s", want, v)
		}
	}
	m = newReqModel()
	deliver(t, m, decodeReq(t, "item/commandExecution/requestApproval", `7`,
		`{"threadId":"th","turnId":"tu","itemId":"c","command":"curl example.com","networkApprovalContext":{"host":"example.com","protocol":"https"}}`, rep))
	if v := plain(m); !strings.Contains(v, "Network access to example.com (https)") {
		t.Errorf("network approval context not shown:\n%s", v)
	}
	m = newReqModel()
	deliver(t, m, decodeReq(t, "mcpServer/elicitation/request", `2`, urlReq, rep))
	v = plain(m)
	for _, want := range []string{"srv asks you to open a link", "Sign in please", "https://example.com/auth", "I opened the link"} {
		if !strings.Contains(v, want) {
			t.Errorf("url elicitation view lacks %q:\n%s", want, v)
		}
	}
	m = newReqModel()
	deliver(t, m, decodeReq(t, "mcpServer/elicitation/request", `3`, elicitReq, rep))
	hitKey(t, m, tea.KeyEnter, 0)
	v = plain(m)
	for _, want := range []string{"Name *", "age", "ok", "color", "tags"} {
		if !strings.Contains(v, want) {
			t.Errorf("form elicitation view lacks %q:\n%s", want, v)
		}
	}
}

// An elicitation whose schema can't be shown is declined, not left
// hanging.
func TestUnshowableElicitationIsDeclined(t *testing.T) {
	rep := &replies{}
	m := newReqModel()
	cmd := deliver(t, m, decodeReq(t, "mcpServer/elicitation/request", `5`,
		`{"threadId":"th","serverName":"srv","mode":"form","message":"x","requestedSchema":{"type":"object","properties":{"blob":{"type":"object"}},"required":["blob"]}}`, rep))
	if got := rep.all(); len(got) != 1 || got[0] != `{"result":{"_meta":null,"action":"decline","content":null}}` {
		t.Fatalf("replies %q", got)
	}
	if m.requests.form != nil || len(m.Pending()) != 0 {
		t.Fatal("unshowable elicitation left pending")
	}
	if hasRaw(cmd, "") {
		t.Error("rang for a request that was already answered")
	}
}

// An isSecret answer is masked on screen but sent in full.
func TestSecretAnswerIsMasked(t *testing.T) {
	rep := &replies{}
	m := newReqModel()
	deliver(t, m, decodeReq(t, "item/tool/requestUserInput", `1`, inputReq, rep))
	hitKey(t, m, tea.KeyEnter, 0) // prod
	hitKey(t, m, tea.KeyEnter, 0) // past the empty "Other" text
	typeKeys(t, m, "hunter2")
	v := plain(m)
	if !strings.Contains(v, "API token?") {
		t.Fatalf("secret question not shown:\n%s", v)
	}
	if strings.Contains(v, "hunter2") {
		t.Fatalf("secret shown in clear:\n%s", v)
	}
	hitKey(t, m, tea.KeyEnter, 0)
	if got := rep.all(); len(got) != 1 || !strings.Contains(got[0], `"q2":{"answers":["hunter2"]}`) {
		t.Fatalf("replies %q", got)
	}
}

package overlay

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/reqtest"
	"tandem/model/act"
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
		{"command accept", "item/commandExecution/requestApproval", reqtest.CmdReq, keySteps(enter), `{"result":{"decision":"accept"}}`},
		{"command execpolicy amendment", "item/commandExecution/requestApproval", reqtest.CmdReq, keySteps(down, down, enter),
			`{"result":{"decision":{"acceptWithExecpolicyAmendment":{"execpolicy_amendment":["git","add"]}}}}`},
		{"command network amendment", "item/commandExecution/requestApproval", reqtest.CmdReq, keySteps(down, down, down, enter),
			`{"result":{"decision":{"applyNetworkPolicyAmendment":{"network_policy_amendment":{"host":"example.com","action":"allow"}}}}}`},
		{"command decline", "item/commandExecution/requestApproval", reqtest.CmdReq, keySteps(down, down, down, down, enter), `{"result":{"decision":"decline"}}`},
		{"command esc cancels", "item/commandExecution/requestApproval", reqtest.CmdReq, keySteps(esc), `{"result":{"decision":"cancel"}}`},
		{"command list stops at its last choice", "item/commandExecution/requestApproval", reqtest.CmdReq,
			keySteps(down, down, down, down, down, down, down, down, enter), `{"result":{"decision":"cancel"}}`},
		{"command list stops at its first choice", "item/commandExecution/requestApproval", reqtest.CmdReq,
			keySteps(down, tea.KeyUp, tea.KeyUp, enter), `{"result":{"decision":"accept"}}`},
		{"command end answers the last choice", "item/commandExecution/requestApproval", reqtest.CmdReq, keySteps(tea.KeyEnd, enter), `{"result":{"decision":"cancel"}}`},
		{"file change session", "item/fileChange/requestApproval", `{"threadId":"th","turnId":"tu","itemId":"f1"}`, keySteps(down, enter), `{"result":{"decision":"acceptForSession"}}`},
		{"legacy exec denied", "execCommandApproval", reqtest.ExecReq, keySteps(down, down, enter), `{"result":{"decision":{"denied":{"rejection":"The user declined this request."}}}}`},
		{"legacy exec esc aborts", "execCommandApproval", reqtest.ExecReq, keySteps(esc), `{"result":{"decision":"abort"}}`},
		{"legacy patch approved", "applyPatchApproval", reqtest.PatchReq, keySteps(enter), `{"result":{"decision":"approved"}}`},
		{"legacy patch for session", "applyPatchApproval", reqtest.PatchReq, keySteps(down, enter), `{"result":{"decision":"approved_for_session"}}`},
		{"permissions turn", "item/permissions/requestApproval", reqtest.PermReq, keySteps(enter),
			`{"result":{"permissions":{"fileSystem":{"read":null,"write":["/shared"]},"network":{"enabled":true}},"scope":"turn"}}`},
		{"permissions session", "item/permissions/requestApproval", reqtest.PermReq, keySteps(down, enter),
			`{"result":{"permissions":{"fileSystem":{"read":null,"write":["/shared"]},"network":{"enabled":true}},"scope":"session"}}`},
		{"permissions deny", "item/permissions/requestApproval", reqtest.PermReq, keySteps(down, down, enter), `{"result":{"permissions":{},"scope":"turn"}}`},
		{"permissions esc denies", "item/permissions/requestApproval", reqtest.PermReq, keySteps(esc), `{"result":{"permissions":{},"scope":"turn"}}`},
		{"user input option and secret", "item/tool/requestUserInput", reqtest.InputReq,
			[]step{{code: enter}, {code: enter}, {text: "s3cret"}, {code: enter}},
			`{"result":{"answers":{"q1":{"answers":["prod"]},"q2":{"answers":["s3cret"]}}}}`},
		{"user input other", "item/tool/requestUserInput", reqtest.InputReq,
			[]step{{code: down}, {code: down}, {code: enter}, {text: "staging"}, {code: enter}, {text: "t"}, {code: enter}},
			`{"result":{"answers":{"q1":{"answers":["staging"]},"q2":{"answers":["t"]}}}}`},
		{"user input esc", "item/tool/requestUserInput", reqtest.InputReq, keySteps(esc), `{"result":{"answers":{}}}`},
		{"elicitation form accept", "mcpServer/elicitation/request", reqtest.ElicitReq,
			[]step{{code: enter}, {text: "Ada"}, {code: enter}, {text: "36"}, {code: enter}, {code: enter}, {code: enter}, {code: enter}},
			`{"result":{"_meta":null,"action":"accept","content":{"age":36,"color":"green","name":"Ada","ok":true,"tags":["b"]}}}`},
		{"elicitation decline", "mcpServer/elicitation/request", reqtest.ElicitReq, keySteps(down, enter), `{"result":{"_meta":null,"action":"decline","content":null}}`},
		{"elicitation cancel", "mcpServer/elicitation/request", reqtest.ElicitReq, keySteps(down, down, enter), `{"result":{"_meta":null,"action":"cancel","content":null}}`},
		{"elicitation esc cancels", "mcpServer/elicitation/request", reqtest.ElicitReq, keySteps(esc), `{"result":{"_meta":null,"action":"cancel","content":null}}`},
		{"elicitation url accept", "mcpServer/elicitation/request", reqtest.URLReq, keySteps(enter), `{"result":{"_meta":null,"action":"accept","content":null}}`},
		{"token refresh is refused at once", "account/chatgptAuthTokens/refresh", `{"reason":"unauthorized"}`, nil,
			`{"error":{"code":-32000,"message":"tandem does not manage ChatGPT auth tokens; sign in again with ` + "`codex login`" + `"}}`},
		{"attestation is refused at once", "attestation/generate", `{}`, nil,
			`{"error":{"code":-32000,"message":"tandem cannot generate client attestations"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := reqRig(t)
			r.w.thread.Apply(backend.ItemStartedEvent{Item: backend.Item{Type: "fileChange", ID: "f1", Status: "inProgress",
				Changes: []backend.FileChange{{Path: "a.txt", Kind: backend.PatchChangeKind{Type: "add"}, Diff: "one line\n"}}}})
			r.request(r.decode(tc.method, `"id-1"`, tc.params))
			for _, s := range tc.steps {
				if s.text != "" {
					r.typeText(s.text)
				} else {
					r.hit(s.code, s.mod)
				}
			}
			got := r.rep.All()
			if len(got) != 1 || got[0] != tc.want {
				t.Fatalf("replies %q\nwant [%s]\nview:\n%s", got, tc.want, r.view())
			}
			if len(r.o.Requests()) != 0 || r.o.HasForm() {
				t.Errorf("request still pending after its answer: %d, form %v", len(r.o.Requests()), r.o.HasForm())
			}
		})
	}
}

// The queue count under the form follows requests as they arrive and are
// answered, in arrival order.
func TestQueueCountUpdatesLive(t *testing.T) {
	r := reqRig(t)
	r.request(r.decode("item/commandExecution/requestApproval", `1`, reqtest.CmdReq))
	if v := r.view(); strings.Contains(v, "more waiting") {
		t.Fatalf("count shown with one request:\n%s", v)
	}
	r.request(r.decode("item/permissions/requestApproval", `2`, reqtest.PermReq))
	r.request(r.decode("mcpServer/elicitation/request", `"three"`, reqtest.URLReq))
	v := r.view()
	if !strings.Contains(v, "(+2 more waiting)") || !strings.Contains(v, "Run this command?") {
		t.Fatalf("want the first request with +2 waiting:\n%s", v)
	}
	r.hit(tea.KeyEscape, 0) // cancel the command
	r.send(FocusMsg{})
	v = r.view()
	if !strings.Contains(v, "(+1 more waiting)") || !strings.Contains(v, "Grant these permissions?") {
		t.Fatalf("want the permissions request with +1 waiting:\n%s", v)
	}
	r.request(r.decode("item/tool/requestUserInput", `4`, reqtest.InputReq))
	if v := r.view(); !strings.Contains(v, "(+2 more waiting)") {
		t.Fatalf("count did not grow when a request arrived:\n%s", v)
	}
	if got := len(r.rep.All()); got != 1 {
		t.Fatalf("%d replies; want 1", got)
	}
}

// A request that waits asks for a notification, a queued one too; an
// automatic one does not.
func TestRequestAsksForANotification(t *testing.T) {
	r := reqRig(t)
	r.do(func() { r.o.Request(r.decode("item/commandExecution/requestApproval", `1`, reqtest.CmdReq)) })
	r.do(func() { r.o.Request(r.decode("item/permissions/requestApproval", `2`, reqtest.PermReq)) })
	r.do(func() { r.o.Request(r.decode("attestation/generate", `3`, `{}`)) })
	got := wanted[act.RequestNotify](r)
	want := []act.RequestNotify{{Summary: "tandem: approve command: git add x"}, {Summary: "tandem: the agent asks for more permissions"}}
	if !slices.Equal(got, want) {
		t.Errorf("notifications %q; want %q", got, want)
	}
}

// The file-change approval shows the item's diff in a window that says
// how many lines are below it and scrolls with shift+↓ and ctrl+d,
// without moving the choice.
func TestFileChangeApprovalDiffScrolls(t *testing.T) {
	var diff strings.Builder
	for i := 1; i <= 40; i++ { // an added file's item carries its content
		fmt.Fprintf(&diff, "line number %d\n", i)
	}
	r := reqRig(t)
	r.w.thread.Apply(backend.ItemStartedEvent{Item: backend.Item{Type: "fileChange", ID: "f1", Status: "inProgress",
		Changes: []backend.FileChange{{Path: "big.txt", Kind: backend.PatchChangeKind{Type: "add"}, Diff: diff.String()}}}})
	r.request(r.decode("item/fileChange/requestApproval", `9`, `{"threadId":"th","turnId":"tu","itemId":"f1","reason":"write big.txt"}`))
	v := r.view()
	if !strings.Contains(v, "Apply these changes?") || !strings.Contains(v, "add big.txt (+40 −0)") || !strings.Contains(v, "↓ 28 more lines below · lines 1–13 of 41 · shift+↑/↓ ctrl+u/d scroll") {
		t.Fatalf("diff window missing:\n%s", v)
	}
	r.hit(tea.KeyDown, tea.ModShift)
	r.hit('d', tea.ModCtrl)
	v = r.view()
	if !strings.Contains(v, "↓ 21 more lines below · lines 8–20 of 41") || !strings.Contains(v, "+line number 18") {
		t.Fatalf("diff did not scroll:\n%s", v)
	}
	r.hit(tea.KeyEnter, 0) // a yes with 21 lines unread
	if got, v := r.rep.All(), r.view(); len(got) != 0 || !strings.Contains(v, "read all of it first: 21 more lines below") {
		t.Fatalf("a yes answered with the diff half read: %q\n%s", got, v)
	}
	r.hit(tea.KeyPgDown, 0)
	if v := r.view(); strings.Contains(v, "read all of it first") {
		t.Errorf("the note's count is kept after scrolling:\n%s", v)
	}
	r.hit(tea.KeyPgDown, 0)
	r.hit(tea.KeyEnter, 0)
	if got := r.rep.All(); len(got) != 1 || got[0] != `{"result":{"decision":"accept"}}` {
		t.Fatalf("scrolling changed the answer: %q", got)
	}
}

// End highlights a file change's last choice, and Enter answers it at
// once though the diff is unread: the answer is the highlighted choice
// (huh's go-to-end left the bound value on the yes, which the unread
// check refused).
func TestFileChangeApprovalEndAnswersTheHighlighted(t *testing.T) {
	var diff strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&diff, "line number %d\n", i)
	}
	r := reqRig(t)
	r.w.thread.Apply(backend.ItemStartedEvent{Item: backend.Item{Type: "fileChange", ID: "f1", Status: "inProgress",
		Changes: []backend.FileChange{{Path: "big.txt", Kind: backend.PatchChangeKind{Type: "add"}, Diff: diff.String()}}}})
	r.request(r.decode("item/fileChange/requestApproval", `9`, `{"threadId":"th","turnId":"tu","itemId":"f1"}`))
	r.hit(tea.KeyEnd, 0)
	if v := r.view(); !strings.Contains(v, "> No, and stop the turn") {
		t.Fatalf("End did not highlight the last choice:\n%s", v)
	}
	r.hit(tea.KeyEnter, 0)
	if got := r.rep.All(); len(got) != 1 || got[0] != `{"result":{"decision":"cancel"}}` {
		t.Fatalf("End, Enter: replies %q\n%s", got, r.view())
	}
}

// The permissions and elicitation forms show what is asked.
func TestPermissionsAndElicitationRender(t *testing.T) {
	r := reqRig(t)
	r.request(r.decode("item/permissions/requestApproval", `1`, reqtest.PermReq))
	v := r.view()
	for _, want := range []string{"Grant these permissions?", "needs /shared", "network access", "write: /shared", "Yes, for this turn", "Yes, for the rest of the session", "No, deny"} {
		if !strings.Contains(v, want) {
			t.Errorf("permissions view lacks %q:\n%s", want, v)
		}
	}
	r = reqRig(t)
	r.request(r.decode("item/commandExecution/requestApproval", `7`,
		`{"threadId":"th","turnId":"tu","itemId":"c","command":"curl example.com","networkApprovalContext":{"host":"example.com","protocol":"https"}}`))
	if v := r.view(); !strings.Contains(v, "Network access to example.com (https)") {
		t.Errorf("network approval context not shown:\n%s", v)
	}
	r = reqRig(t)
	r.request(r.decode("mcpServer/elicitation/request", `2`, reqtest.URLReq))
	v = r.view()
	for _, want := range []string{"srv asks you to open a link", "Sign in please", "https://example.com/auth", "I opened the link"} {
		if !strings.Contains(v, want) {
			t.Errorf("url elicitation view lacks %q:\n%s", want, v)
		}
	}
	r = reqRig(t)
	r.request(r.decode("mcpServer/elicitation/request", `3`, reqtest.ElicitReq))
	r.hit(tea.KeyEnter, 0)
	v = r.view()
	for _, want := range []string{"Name *", "age", "ok", "color", "tags"} {
		if !strings.Contains(v, want) {
			t.Errorf("form elicitation view lacks %q:\n%s", want, v)
		}
	}
}

// An elicitation whose schema can't be shown is declined, not left
// hanging, and asks for no notification.
func TestUnshowableElicitationIsDeclined(t *testing.T) {
	r := reqRig(t)
	r.request(r.decode("mcpServer/elicitation/request", `5`,
		`{"threadId":"th","serverName":"srv","mode":"form","message":"x","requestedSchema":{"type":"object","properties":{"blob":{"type":"object"}},"required":["blob"]}}`))
	if got := r.rep.All(); len(got) != 1 || got[0] != `{"result":{"_meta":null,"action":"decline","content":null}}` {
		t.Fatalf("replies %q", got)
	}
	if r.o.HasForm() || len(r.o.Requests()) != 0 {
		t.Fatal("unshowable elicitation left pending")
	}
	if n := wanted[act.RequestNotify](r); len(n) != 0 {
		t.Errorf("notified of a request that was already answered: %q", n)
	}
}

// An isSecret answer is masked on screen but sent in full.
func TestSecretAnswerIsMasked(t *testing.T) {
	r := reqRig(t)
	r.request(r.decode("item/tool/requestUserInput", `1`, reqtest.InputReq))
	r.hit(tea.KeyEnter, 0) // prod
	r.hit(tea.KeyEnter, 0) // past the empty "Other" text
	r.typeText("hunter2")
	v := r.view()
	if !strings.Contains(v, "API token?") {
		t.Fatalf("secret question not shown:\n%s", v)
	}
	if strings.Contains(v, "hunter2") {
		t.Fatalf("secret shown in clear:\n%s", v)
	}
	r.hit(tea.KeyEnter, 0)
	if got := r.rep.All(); len(got) != 1 || !strings.Contains(got[0], `"q2":{"answers":["hunter2"]}`) {
		t.Fatalf("replies %q", got)
	}
}

// Every server request kind of backend's protocol table has an adapter
// here, built from a request of that kind (a kind added to the table
// without one fails), and no adapter names a kind the table lacks.
func TestEveryRequestKindHasAnAdapter(t *testing.T) {
	methods := backend.RequestMethods()
	for _, method := range methods {
		if _, ok := adapters[method]; !ok {
			t.Errorf("%s is in backend's request table but has no adapter", method)
			continue
		}
		req, err := backend.DecodeRequest(method, backend.RequestID(`1`), json.RawMessage(`{"threadId":"th"}`), (&reqtest.Replies{}).Reply)
		if err != nil || req == nil {
			t.Fatalf("decoding %s: %v", method, err)
		}
		if _, fallback := adapterFor(req).(refusal); fallback {
			t.Errorf("%s falls back to a refusal", method)
		}
	}
	for method := range adapters {
		if !slices.Contains(methods, method) {
			t.Errorf("adapter for %s, which backend's table does not decode", method)
		}
	}
}

// A watcher's overlay shows what each kind waits for and has nothing to
// answer with: it holds the request's view, never a request.
func TestWatcherWaitsForEveryKind(t *testing.T) {
	for _, method := range backend.RequestMethods() {
		t.Run(method, func(t *testing.T) {
			r := newRig(t, 100, 30, 0, act.NewRole(true, true, false))
			r.do(func() { r.o.Watch(backend.RequestView{ID: backend.RequestID(`7`), Method: method}) })
			if got := r.o.Requests(); len(got) != 0 {
				t.Fatalf("a watcher holds %d answerable requests", len(got))
			}
			want, ok := waitingFor[method]
			if !ok {
				want = "an answer"
			}
			if v := r.view(); !strings.Contains(v, "waiting for a driver — "+want) {
				t.Fatalf("no waiting line for %s:\n%s", method, v)
			}
			r.do(func() { r.o.Resolved(backend.RequestID(`7`)) })
			if v := r.view(); strings.Contains(v, "waiting for") {
				t.Fatalf("the waiting line outlived the request:\n%s", v)
			}
		})
	}
}

// A watcher never answers a request it is handed: it only waits.
func TestWatcherNeverAnswers(t *testing.T) {
	r := newRig(t, 100, 30, 0, act.NewRole(true, true, false))
	r.do(func() { r.o.Request(r.decode("item/commandExecution/requestApproval", `1`, reqtest.CmdReq)) })
	r.send(FocusMsg{})
	r.hit(tea.KeyEnter, 0)
	if r.o.HasForm() || len(r.rep.All()) != 0 || len(r.o.Requests()) != 0 {
		t.Fatalf("a watcher got a form (%v), answered %q or holds %d requests", r.o.HasForm(), r.rep.All(), len(r.o.Requests()))
	}
	if v := r.view(); !strings.Contains(v, "waiting for a driver — approval of a command") {
		t.Fatalf("no waiting line:\n%s", v)
	}
}

// A file-change approval whose item the asking thread's fold does not
// hold has nothing to show: it offers only the refusals, and says why.
func TestFileChangeApprovalOfAnUnseenItemOnlyRefuses(t *testing.T) {
	r := reqRig(t)
	r.request(r.decode("item/fileChange/requestApproval", `9`, `{"threadId":"th","turnId":"tu","itemId":"nowhere","reason":"trust me"}`))
	v := r.view()
	if strings.Contains(v, "Yes, apply them") || strings.Contains(v, "Yes, and these files") {
		t.Fatalf("an unseen change can be approved:\n%s", v)
	}
	for _, want := range []string{"No, skip these changes", "No, and stop the turn", "tandem has not seen these changes"} {
		if !strings.Contains(v, want) {
			t.Errorf("form lacks %q:\n%s", want, v)
		}
	}
	r.hit(tea.KeyEnter, 0)
	if got := r.rep.All(); len(got) != 1 || got[0] != `{"result":{"decision":"decline"}}` {
		t.Fatalf("reply = %q; want a decline", got)
	}
}

// When the patch of a file change is updated while its approval is open,
// the form is built again from the new diff (the old one is gone), the
// user is told, and a yes waits until the new diff has been on screen.
func TestFileChangeApprovalRebuiltWhenThePatchChanges(t *testing.T) {
	r := reqRig(t)
	r.w.thread.Apply(backend.ItemStartedEvent{Item: backend.Item{Type: "fileChange", ID: "f1", Status: "inProgress",
		Changes: []backend.FileChange{{Path: "a.txt", Kind: backend.PatchChangeKind{Type: "add"}, Diff: "harmless\n"}}}})
	r.request(r.decode("item/fileChange/requestApproval", `9`, `{"threadId":"th","turnId":"tu","itemId":"f1"}`))
	if v := r.view(); !strings.Contains(v, "+harmless") {
		t.Fatalf("first diff not shown:\n%s", v)
	}
	var long strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&long, "evil line %d\n", i)
	}
	r.do(func() {
		r.w.thread.Apply(backend.PatchUpdatedEvent{ItemID: "f1", Changes: []backend.FileChange{{Path: "a.txt", Kind: backend.PatchChangeKind{Type: "add"}, Diff: long.String()}}})
	})
	v := r.view()
	if strings.Contains(v, "+harmless") || !strings.Contains(v, "+evil line 1") {
		t.Fatalf("the form still shows the old diff:\n%s", v)
	}
	if n := r.notice(); n != ChangedNotice {
		t.Errorf("notice = %q; want %q", n, ChangedNotice)
	}
	r.send(FocusMsg{})
	r.hit(tea.KeyEnter, 0)
	if got := r.rep.All(); len(got) != 0 {
		t.Fatalf("a yes answered before the new diff was read: %q", got)
	}
	for range 10 {
		r.hit(tea.KeyPgDown, 0)
	}
	r.hit(tea.KeyEnter, 0)
	if got := r.rep.All(); len(got) != 1 || got[0] != `{"result":{"decision":"accept"}}` {
		t.Fatalf("reply = %q; want accept once the new diff was read", got)
	}
}

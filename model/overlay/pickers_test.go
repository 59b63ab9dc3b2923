package overlay

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

// A picker another part of the model opens filters as the user types;
// Enter asks for the chosen item's intent, Esc for the cancel.
func TestPickAsksForTheChoice(t *testing.T) {
	type chose struct{ n int }
	items := []act.PickItem{{Label: "alpha", Choose: chose{1}}, {Label: "beta", Choose: chose{2}, Preview: []string{"beta's preview"}}, {Label: "gamma"}}
	r := reqRig(t)
	r.do(func() { r.o.Pick(act.Pick{Title: "Things", Hint: "enter to choose", Items: items, Cancel: chose{0}}) })
	if !r.o.Open() || !r.o.Takes(tea.KeyPressMsg{Code: 'x', Text: "x"}) {
		t.Fatal("the picker is not open, or does not take the keys")
	}
	r.typeText("bt")
	if v := r.view(); !strings.Contains(v, "search: bt") || !strings.Contains(v, "› beta") || strings.Contains(v, "alpha") || !strings.Contains(v, "beta's preview") {
		t.Fatalf("not filtered to beta, or no preview:\n%s", v)
	}
	r.hit(tea.KeyEnter, 0)
	if got := wanted[chose](r); !slices.Equal(got, []chose{{2}}) || r.o.Open() {
		t.Fatalf("chose %v, open %v", got, r.o.Open())
	}
	r.do(func() { r.o.Pick(act.Pick{Title: "Things", Items: items, Cancel: chose{0}}) })
	r.hit(tea.KeyEscape, 0)
	if got := wanted[chose](r); !slices.Equal(got, []chose{{2}, {0}}) || r.o.Open() {
		t.Fatalf("esc: chose %v, open %v", got, r.o.Open())
	}
	r.do(func() { r.o.Pick(act.Pick{Title: "Things", Items: items}) })
	r.hit(tea.KeyDown, 0)
	r.hit(tea.KeyDown, 0)
	r.hit(tea.KeyEnter, 0) // gamma asks for nothing
	if got := wanted[chose](r); len(got) != 2 || r.o.Open() {
		t.Fatalf("gamma: chose %v, open %v", got, r.o.Open())
	}
}

// /model lists the models (model/list), marks the current one, and asks
// for the effort of a model that has several; the choice is SetModel.
func TestModelPicker(t *testing.T) {
	r := reqRig(t)
	r.do(func() { r.o.PickModel("other") })
	if got := calls(r); !slices.Equal(got, []act.Action{act.ListModels{}}) || !strings.Contains(r.view(), "loading…") {
		t.Fatalf("calls %v:\n%s", got, r.view())
	}
	r.do(func() {
		r.o.Result(act.ModelsListed{Models: []backend.ModelInfo{
			{Model: "big", DisplayName: "Big", Description: "the big one", DefaultReasoningEffort: "medium",
				SupportedReasoningEfforts: []backend.ReasoningEffortOption{{ReasoningEffort: "low"}, {ReasoningEffort: "medium"}, {ReasoningEffort: "high"}}},
			{Model: "hidden", Hidden: true},
			{Model: "other", SupportedReasoningEfforts: []backend.ReasoningEffortOption{{ReasoningEffort: "low"}}},
		}})
	})
	v := r.view()
	if !strings.Contains(v, "› other ✓") || !strings.Contains(v, "Big (big)") || strings.Contains(v, "hidden") {
		t.Fatalf("models not listed as they should be:\n%s", v)
	}
	r.hit(tea.KeyEnter, 0) // other: its one effort
	if got := wanted[act.SetModel](r); !slices.Equal(got, []act.SetModel{{Model: "other", Effort: "low"}}) {
		t.Fatalf("chose %v", got)
	}
	r.do(func() { r.o.PickModel("other") })
	r.do(func() {
		r.o.Result(act.ModelsListed{Models: []backend.ModelInfo{{Model: "big", DefaultReasoningEffort: "medium",
			SupportedReasoningEfforts: []backend.ReasoningEffortOption{{ReasoningEffort: "low"}, {ReasoningEffort: "medium"}, {ReasoningEffort: "high"}}}}})
	})
	r.hit(tea.KeyEnter, 0)
	if v := r.view(); !strings.Contains(v, "Reasoning effort for big") || !strings.Contains(v, "› medium (default)") {
		t.Fatalf("no effort picker:\n%s", v)
	}
	r.hit(tea.KeyDown, 0)
	r.hit(tea.KeyEnter, 0)
	if got := wanted[act.SetModel](r); len(got) != 2 || got[1] != (act.SetModel{Model: "big", Effort: "high"}) || r.o.Open() {
		t.Fatalf("chose %v, open %v", got, r.o.Open())
	}
	r.do(func() { r.o.PickModel("") })
	r.do(func() { r.o.Result(act.ModelsListed{Err: errors.New("model/list: nope")}) })
	if r.o.Open() {
		t.Fatal("a failed model/list left the picker open")
	}
}

// /approvals marks the current policy and asks for the one chosen.
func TestPolicyPicker(t *testing.T) {
	r := reqRig(t)
	r.do(func() { r.o.PickPolicy("on-request", "workspace-write") })
	if v := r.view(); !strings.Contains(v, "› Auto ✓") {
		t.Fatalf("the current policy is not marked:\n%s", v)
	}
	r.hit(tea.KeyDown, 0)
	r.hit(tea.KeyEnter, 0)
	if got := wanted[act.SetPolicy](r); !slices.Equal(got, []act.SetPolicy{{Approval: "untrusted", Sandbox: "workspace-write"}}) {
		t.Fatalf("chose %v", got)
	}
}

// The resume picker lists the workspace's threads page by page (Ctrl+A
// all workspaces, Ctrl+S by created), drops answers to older queries,
// and asks to resume the one chosen; Esc asks to cancel, starting a new
// thread when none is open.
func TestResumePicker(t *testing.T) {
	r := reqRig(t)
	r.do(func() { r.o.PickThread(true, false) })
	q := calls(r)
	if len(q) != 1 || q[0].(act.ListThreads).Params.Cwd != "/w" || q[0].(act.ListThreads).Next {
		t.Fatalf("calls %v; want the workspace's first page", q)
	}
	first := q[0].(act.ListThreads)
	r.hit('a', tea.ModCtrl)
	q = calls(r)
	all := q[len(q)-1].(act.ListThreads)
	if all.Params.Cwd != "" || all.Seq == first.Seq || !strings.Contains(r.view(), "all workspaces") {
		t.Fatalf("ctrl+a: %+v\n%s", all, r.view())
	}
	name := "named"
	next := "c2"
	day := r.now.Add(-3 * time.Hour).Unix()
	page := backend.ThreadListResponse{Data: []backend.Thread{
		{ID: "t1", Preview: "fix the parser\nmore", UpdatedAt: day, Cwd: "/w"},
		{ID: "t2", Name: &name, Status: &backend.ThreadStatus{Type: "active"}, UpdatedAt: day, Cwd: "/x"},
	}, NextCursor: &next}
	r.do(func() { r.o.Result(act.ThreadsListed{Seq: first.Seq, Page: page}) }) // an older query's answer
	if strings.Contains(r.view(), "fix the parser") {
		t.Fatalf("an older query's answer was shown:\n%s", r.view())
	}
	r.do(func() { r.o.Result(act.ThreadsListed{Seq: all.Seq, Page: page}) })
	v := r.view()
	if !strings.Contains(v, "› fix the parser") || !strings.Contains(v, "● running · 3h ago · /x") || !strings.Contains(v, "t1 · /w") {
		t.Fatalf("threads not listed:\n%s", v)
	}
	r.hit(tea.KeyDown, 0) // the last row: the next page
	q = calls(r)
	if more := q[len(q)-1].(act.ListThreads); !more.Next || more.Params.Cursor == nil || *more.Params.Cursor != "c2" {
		t.Fatalf("no next page asked for: %+v", more)
	}
	r.hit(tea.KeyEnter, 0)
	if got := wanted[act.ResumeThread](r); len(got) != 1 || got[0].Thread.ID != "t2" {
		t.Fatalf("chose %v", got)
	}
	r.do(func() { r.o.PickThread(true, false) })
	r.hit(tea.KeyEscape, 0)
	r.do(func() { r.o.PickThread(false, false) })
	r.hit(tea.KeyEscape, 0)
	if got := wanted[act.ResumeCancelled](r); !slices.Equal(got, []act.ResumeCancelled{{Fresh: true}, {Fresh: false}}) {
		t.Fatalf("cancelled %v", got)
	}
}

// The resume picker marks threads live on the server.
func TestLiveTag(t *testing.T) {
	st := func(typ string, flags ...string) *backend.ThreadStatus {
		return &backend.ThreadStatus{Type: typ, ActiveFlags: flags}
	}
	tests := []struct {
		status  *backend.ThreadStatus
		durable bool
		want    string
	}{
		{nil, true, ""},
		{st("notLoaded"), true, ""},
		{st("idle"), false, ""},
		{st("idle"), true, "live · "},
		{st("active"), false, "● running · "},
		{st("active", "waitingOnApproval"), true, "● waiting for you · "},
	}
	for _, tt := range tests {
		if got := liveTag(backend.Thread{Status: tt.status}, tt.durable); got != tt.want {
			t.Errorf("liveTag(%+v, %v) = %q; want %q", tt.status, tt.durable, got, tt.want)
		}
	}
}

// A picker whose query filters every item out says "no matches", not
// its Empty text (which says there is nothing at all, "no prompts sent
// yet").
func TestPickNoMatchIsNotEmpty(t *testing.T) {
	items := []act.PickItem{{Label: "alpha"}}
	r := reqRig(t)
	r.do(func() {
		r.o.Pick(act.Pick{Title: "Your prompts", Empty: "no prompts sent yet", Query: "zz", Items: items})
	})
	if v := r.view(); !strings.Contains(v, "no matches") || strings.Contains(v, "no prompts sent yet") {
		t.Errorf("want no matches:\n%s", v)
	}
	r.do(func() { r.o.Pick(act.Pick{Title: "Your prompts", Empty: "no prompts sent yet"}) })
	if v := r.view(); !strings.Contains(v, "no prompts sent yet") {
		t.Errorf("no items: want the Empty text:\n%s", v)
	}
}

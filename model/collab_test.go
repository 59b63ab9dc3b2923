package model

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

// codex 0.169.0's presets, as collaborationMode/list gives them.
var testModes = []backend.CollaborationModeMask{
	{Name: "Plan", Mode: act.Str("plan"), ReasoningEffort: act.Str("medium")},
	{Name: "Default", Mode: act.Str("default")},
}

// send types text and Enter, and returns what turn/start carried.
func send(t *testing.T, m *Model, spy *inputSpy, text string) backend.TurnInput {
	t.Helper()
	typeIn(t, m, text)
	hit(t, m, tea.KeyEnter, 0)
	in := spy.last(t)
	_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	calm(t, m, cmd)
	return in
}

// Shift+Tab steps through the server's presets (Plan, then Default
// again), /plan toggles plan mode; the status line shows the badge while
// plan mode is on, and every turn/start after the first switch carries
// the mode, with the preset's effort or the thread's model.
func TestShiftTabSwitchesCollaborationMode(t *testing.T) {
	f := newFake()
	f.results["collaborationMode/list"] = testModes
	spy := &inputSpy{fakeDriver: f}
	m := readyWith(t, spy, Options{})
	if in := send(t, m, spy, "before"); in.Collaboration != nil {
		t.Fatalf("a turn before any switch carries %+v", in.Collaboration)
	}
	if strings.Contains(strings.Join(f.called(), ","), "collaborationMode/list") {
		t.Fatal("the presets were asked for before a switch")
	}
	medium := "medium"
	plan := &backend.CollaborationMode{Mode: "plan", Settings: backend.CollaborationSettings{Model: "mock-model", ReasoningEffort: &medium}}
	def := &backend.CollaborationMode{Mode: "default", Settings: backend.CollaborationSettings{Model: "mock-model"}}
	steps := []struct {
		name   string
		do     func()
		badge  bool
		notice string
		want   *backend.CollaborationMode
	}{
		{"shift+tab: plan", func() { hit(t, m, tea.KeyTab, tea.ModShift) }, true, "Plan mode for the next turns", plan},
		{"shift+tab: default again", func() { hit(t, m, tea.KeyTab, tea.ModShift) }, false, "Default mode", def},
		{"/plan: on", func() { typeIn(t, m, "/plan"); hit(t, m, tea.KeyEnter, 0) }, true, "Plan mode", plan},
		{"/plan: off", func() { typeIn(t, m, "/plan"); hit(t, m, tea.KeyEnter, 0) }, false, "Default mode", def},
	}
	for _, st := range steps {
		st.do()
		v := viewText(m)
		if got := strings.Contains(v, "[plan mode]"); got != st.badge {
			t.Errorf("%s: badge shown %v, want %v:\n%s", st.name, got, st.badge, v)
		}
		if !strings.Contains(v, st.notice) {
			t.Errorf("%s: notice lacks %q:\n%s", st.name, st.notice, v)
		}
		if in := send(t, m, spy, "after "+st.name); !reflect.DeepEqual(in.Collaboration, st.want) {
			t.Errorf("%s: turn/start carries %+v, want %+v", st.name, in.Collaboration, st.want)
		}
	}
	// The /model choice is the model of a preset that has none.
	m.turn.Apply(act.SetModel{Model: "gpt-big", Effort: "high"}) // /model's choice (model/turn)
	calm(t, m, m.apply())
	hit(t, m, tea.KeyTab, tea.ModShift)
	in := send(t, m, spy, "bigger")
	if c := in.Collaboration; c == nil || c.Settings.Model != "gpt-big" || *c.Settings.ReasoningEffort != "medium" {
		t.Errorf("plan with /model gpt-big: %+v", in.Collaboration)
	}
}

// Without presets (the method unknown to the server, a failed call, an
// empty list, or no plan preset) a switch says plan mode is not available,
// and turns carry no mode.
func TestPlanModeUnavailable(t *testing.T) {
	tests := []struct {
		name  string
		modes []backend.CollaborationModeMask
		err   error
		how   string // "shift+tab" or "/plan"
		why   string
	}{
		{"unknown method", nil, &backend.RPCError{Code: backend.CodeInvalidRequest, Message: "Invalid request: unknown variant `collaborationMode/list`"}, "shift+tab", "collaborationMode/list: Invalid request: unknown variant"},
		{"call failed", nil, &backend.RPCError{Code: -32603, Message: "boom"}, "/plan", "boom"},
		{"empty list", []backend.CollaborationModeMask{}, nil, "shift+tab", ""},
		{"no plan preset", []backend.CollaborationModeMask{{Name: "Default", Mode: act.Str("default")}}, nil, "/plan", ""},
		{"presets without a mode", []backend.CollaborationModeMask{{Name: "Odd"}}, nil, "shift+tab", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake()
			f.results["collaborationMode/list"] = tt.modes
			if tt.err != nil {
				f.errs["collaborationMode/list"] = tt.err
			}
			spy := &inputSpy{fakeDriver: f}
			m := readyWith(t, spy, Options{})
			if tt.how == "/plan" {
				typeIn(t, m, "/plan")
				hit(t, m, tea.KeyEnter, 0)
			} else {
				hit(t, m, tea.KeyTab, tea.ModShift)
			}
			if !strings.Contains(noticeText(m), "plan mode is not available on this server") || !strings.Contains(noticeText(m), tt.why) {
				t.Errorf("notice %q", noticeText(m))
			}
			if strings.Contains(viewText(m), "[plan mode]") {
				t.Error("the badge shows without plan mode")
			}
			if in := send(t, m, spy, "hi"); in.Collaboration != nil {
				t.Errorf("turn/start carries %+v", in.Collaboration)
			}
		})
	}
}

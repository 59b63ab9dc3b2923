package model

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/composer"
)

// /goal TEXT sets the goal and the status line shows it with its status;
// the agent marking it complete (thread/goal/updated) says so once;
// /goal shows it; /goal clear clears it, and so does thread/goal/cleared
// from elsewhere.
func TestGoalCommandsAndEvents(t *testing.T) {
	f := newFake()
	m := readyWith(t, f, Options{})
	m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	if !strings.Contains(strings.Join(f.called(), ","), "thread/goal/get") {
		t.Fatalf("the thread's goal was not read at start: %v", f.called())
	}
	typeIn(t, m, "/goal make the tests pass")
	hit(t, m, tea.KeyEnter, 0)
	if got, _ := f.params["thread/goal/set"].(string); got != "make the tests pass" {
		t.Fatalf("thread/goal/set objective %q", got)
	}
	v := viewText(m)
	if !strings.Contains(v, "Goal set: make the tests pass") || !strings.Contains(v, "◎ goal: make the tests pass (active)") {
		t.Fatalf("the set goal is not shown:\n%s", v)
	}
	done := backend.ThreadGoal{ThreadID: "t-first", Objective: "make the tests pass", Status: "complete", TokensUsed: 1200, TimeUsedSeconds: 75}
	m.Update(backend.GoalUpdatedEvent{ThreadID: "t-first", Goal: done})
	m.Update(backend.GoalUpdatedEvent{ThreadID: "t-first", Goal: done}) // said once
	v = viewText(m)
	if strings.Count(v, "Goal complete: make the tests pass") != 1 || !strings.Contains(v, "(complete)") {
		t.Fatalf("completion not shown once:\n%s", v)
	}
	f.mu.Lock()
	f.results["thread/goal/get"] = done
	f.mu.Unlock()
	typeIn(t, m, "/goal")
	hit(t, m, tea.KeyEnter, 0)
	v = viewText(m)
	if !strings.Contains(v, "Goal: make the tests pass") || !strings.Contains(v, "status:  complete") || !strings.Contains(v, "1200 tokens, 1m15s") {
		t.Fatalf("/goal does not show the goal:\n%s", v)
	}
	typeIn(t, m, "/goal clear")
	hit(t, m, tea.KeyEnter, 0)
	v = viewText(m)
	if !strings.Contains(strings.Join(f.called(), ","), "thread/goal/clear") || !strings.Contains(v, "Goal cleared") || strings.Contains(v, "◎ goal") {
		t.Fatalf("/goal clear: %v\n%s", f.called(), v)
	}
	m.Update(backend.GoalUpdatedEvent{ThreadID: "t-first", Goal: backend.ThreadGoal{Objective: "from another client", Status: "active"}})
	if !strings.Contains(viewText(m), "◎ goal: from another client (active)") {
		t.Fatalf("an updated goal is not shown:\n%s", viewText(m))
	}
	m.Update(backend.GoalClearedEvent{ThreadID: "t-first"})
	if strings.Contains(viewText(m), "◎ goal") {
		t.Fatalf("a cleared goal still shows:\n%s", viewText(m))
	}
}

// On a server with goals off every /goal says so in one line; the goal
// read at start fails silently.
func TestGoalUnsupported(t *testing.T) {
	off := &backend.RPCError{Code: backend.CodeInvalidRequest, Message: "goals feature is disabled"}
	for _, args := range []string{"", " ship it", " clear"} {
		t.Run("/goal"+args, func(t *testing.T) {
			f := newFake()
			for _, m := range []string{"thread/goal/get", "thread/goal/set", "thread/goal/clear"} {
				f.errs[m] = fmt.Errorf("%s: %w", m, off) // as backend wraps them
			}
			m := readyWith(t, f, Options{})
			if strings.Contains(viewText(m), "goals") {
				t.Fatalf("the start-up goal read spoke up:\n%s", viewText(m))
			}
			m.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
			typeIn(t, m, "/goal"+args)
			hit(t, m, tea.KeyEnter, 0)
			if v := viewText(m); !strings.Contains(v, "/goal: goals are not available on this server (thread/goal/") || !strings.Contains(v, "goals feature is disabled") {
				t.Fatalf("no clear message:\n%s", v)
			}
		})
	}
}

// A thread switch forgets the old thread's goal and reads the new one's.
func TestGoalFollowsTheThread(t *testing.T) {
	f := newFake()
	m := readyWith(t, f, Options{})
	m.Update(backend.GoalUpdatedEvent{ThreadID: "t-first", Goal: backend.ThreadGoal{Objective: "old thread's", Status: "active"}})
	f.mu.Lock()
	f.results["thread/goal/get"] = backend.ThreadGoal{ThreadID: "t-new", Objective: "new thread's", Status: "paused"}
	f.mu.Unlock()
	typeIn(t, m, "/new")
	hit(t, m, tea.KeyEnter, 0)
	v := viewText(m)
	if strings.Contains(v, "old thread's") || !strings.Contains(v, "◎ goal: new thread's (paused)") {
		t.Fatalf("after /new:\n%s", v)
	}
}

// A goal pasted large is set as its text, not its placeholder token
// (adversarial review: the objective was "[Pasted text #1 …]").
func TestGoalFromALargePaste(t *testing.T) {
	f := newFake()
	m := readyWith(t, f, Options{})
	typeIn(t, m, "/goal ")
	long := strings.Repeat("make every test pass\n", composer.PasteMaxLines+5)
	m.Update(tea.PasteMsg{Content: long})
	if !strings.Contains(m.composer.Value(), "[Pasted text #1") {
		t.Fatalf("the paste is no placeholder: %.80q", m.composer.Value())
	}
	hit(t, m, tea.KeyEnter, 0)
	if got, _ := f.params["thread/goal/set"].(string); got != strings.TrimSpace(long) && got != long {
		t.Fatalf("thread/goal/set objective %.80q…, want the pasted text", got)
	}
}

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// sentCalls keeps the params of every request tandem sent, by method, from
// a protocol trace.
type sentCalls struct {
	mu    sync.Mutex
	calls map[string][]json.RawMessage
}

func (s *sentCalls) trace(dir backend.Direction, line []byte) {
	if dir != backend.Sent {
		return
	}
	var msg struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls == nil {
		s.calls = map[string][]json.RawMessage{}
	}
	s.calls[msg.Method] = append(s.calls[msg.Method], append(json.RawMessage(nil), msg.Params...))
}

func (s *sentCalls) of(method string) []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]json.RawMessage(nil), s.calls[method]...)
}

// writeSkill writes dir/NAME/SKILL.md with a description and a body.
func writeSkill(t *testing.T, dir, name, desc, body string) string {
	t.Helper()
	p := filepath.Join(dir, name, "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("---\nname: "+name+"\ndescription: "+desc+"\n---\n"+body+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A skill of the codex home, chosen from the `$` popup, goes with the
// message as a "skill" input and reaches the provider with its SKILL.md
// body; /skills lists it with its scope and path; a skill written while
// tandem runs (skills/changed) shows in the popup.
func TestSkillFromPopupReachesProvider(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Deployed to staging.")}})
	path := writeSkill(t, filepath.Join(e.Home, "skills"), "deploy", "Ship the app to staging", "DEPLOY-BODY-MARKER: run make deploy")
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	var sent sentCalls
	u.ConnectTraced(t, e, "never", "workspace-write", sent.trace)

	u.Submit("/skills")
	u.WaitScreen(t, Patience, "the skills list", Contains("$deploy (user) — Ship the app to staging", path))

	u.TM.Type("use $depl")
	u.WaitScreen(t, Patience, "the skill popup", Contains("› $deploy", "user · Ship the app to staging"))
	u.Key(key(tea.KeyEnter))
	u.WaitScreen(t, Patience, "the token in the draft", Contains("› use $deploy "))
	u.Submit("now")
	u.WaitScreen(t, Patience, "the answer", Contains("Deployed to staging."))

	starts := sent.of("turn/start")
	if len(starts) != 1 {
		t.Fatalf("%d turn/start sent", len(starts))
	}
	var p struct {
		Input []backend.UserInput `json:"input"`
	}
	if err := json.Unmarshal(starts[0], &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Input) != 2 || p.Input[0].Text != "use $deploy now" || p.Input[1].Type != "skill" || p.Input[1].Name != "deploy" || p.Input[1].Path != path {
		t.Fatalf("turn/start input %s, want the text and the skill %s", starts[0], path)
	}
	reqs := e.Mock.Requests()
	if len(reqs) == 0 || !strings.Contains(string(reqs[len(reqs)-1].Raw), "DEPLOY-BODY-MARKER: run make deploy") {
		t.Fatal("the provider's request lacks the skill's body")
	}

	// A new skill file: the server says skills/changed, tandem lists again.
	writeSkill(t, filepath.Join(e.Home, "skills"), "release-notes", "Draft the release notes", "NOTES")
	u.TM.Type("$release")
	u.WaitScreen(t, Patience, "the new skill in the popup", Contains("› $release-notes", "user · Draft the release notes"))
	reloaded := false
	for _, p := range sent.of("skills/list") {
		reloaded = reloaded || strings.Contains(string(p), `"forceReload":true`)
	}
	if !reloaded {
		t.Error("no skills/list re-scan followed skills/changed")
	}
}

// Shift+Tab turns plan mode on: the badge shows, turn/start carries the
// plan preset with the thread's model (the server accepts it), the
// provider gets plan mode's instructions, and the plan the agent proposes
// is drawn; Shift+Tab again sends the default mode back.
func TestPlanModeOnRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("<proposed_plan>\n# Add a cache\n\n1. Measure the slow path\n2. Cache the lookups\n</proposed_plan>")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Building it now.")}},
	)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	var sent sentCalls
	u.ConnectTraced(t, e, "never", "workspace-write", sent.trace)
	u.Key(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	u.WaitScreen(t, Patience, "the plan badge", Contains("[plan mode]", "Plan mode for the next turns"))
	u.Submit("plan a cache")
	u.WaitScreen(t, Patience, "the proposed plan", Contains("Add a cache", "Cache the lookups"))
	u.WaitScreen(t, Patience, "the turn's end", func(s string) bool { return !strings.Contains(s, "esc to interrupt") })

	u.Key(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	u.WaitScreen(t, Patience, "the default mode", func(s string) bool {
		return strings.Contains(s, "Default mode") && !strings.Contains(s, "[plan mode]")
	})
	u.Submit("go ahead")
	u.WaitScreen(t, Patience, "the second answer", Contains("Building it now."))

	starts := sent.of("turn/start")
	if len(starts) != 2 {
		t.Fatalf("%d turn/start sent", len(starts))
	}
	for i, mode := range []string{"plan", "default"} {
		var p struct {
			CollaborationMode *backend.CollaborationMode `json:"collaborationMode"`
		}
		if err := json.Unmarshal(starts[i], &p); err != nil {
			t.Fatal(err)
		}
		if c := p.CollaborationMode; c == nil || c.Mode != mode || c.Settings.Model != mockapi.DefaultModel {
			t.Errorf("turn/start %d carries %s, want mode %s with model %s", i+1, starts[i], mode, mockapi.DefaultModel)
		}
	}
	reqs := e.Mock.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d provider requests", len(reqs))
	}
	if first := string(reqs[0].Raw); !strings.Contains(first, "Plan Mode") {
		t.Error("the plan turn's request lacks plan mode's instructions")
	}
	if last := string(reqs[len(reqs)-1].Raw); !strings.Contains(last, "Collaboration Mode: Default") {
		t.Error("the default turn's request lacks the default mode's instructions")
	}
}

// /goal TEXT sets the thread's goal on the real server, which starts
// working towards it; the agent marks it complete (update_goal) and the
// status line follows; /goal shows it; /goal clear clears it.
func TestGoalOnRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Call("update_goal", `{"status":"complete"}`)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("The tests pass now.")}},
	)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 140, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("/goal")
	u.WaitScreen(t, Patience, "no goal yet", Contains("No goal for this thread"))
	u.Submit("/goal make the tests pass")
	u.WaitScreen(t, Patience, "the goal set", Contains("Goal set: make the tests pass"))
	u.WaitScreen(t, Patience, "the goal completed by the agent", Contains("Goal complete: make the tests pass", "◎ goal: make the tests pass (complete)", "The tests pass now."))
	u.WaitScreen(t, Patience, "the turn's end", func(s string) bool { return !strings.Contains(s, "esc to interrupt") })
	u.Submit("/goal")
	u.WaitScreen(t, Patience, "the goal shown", Contains("Goal: make the tests pass", "status:  complete"))
	u.Submit("/goal clear")
	u.WaitScreen(t, Patience, "the goal cleared", func(s string) bool {
		return strings.Contains(s, "Goal cleared") && !strings.Contains(s, "◎ goal")
	})
	g, err := u.Session.ReadGoal(ctxT(t))
	if err != nil || g != nil {
		t.Fatalf("thread/goal/get after clear: %+v, %v", g, err)
	}
}

// With goals turned off in the server's config, /goal says so in one
// line.
func TestGoalDisabledOnRealServer(t *testing.T) {
	e := NewEnv(t)
	cfg := filepath.Join(e.Home, "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), "[features]\n", "[features]\ngoals = false\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 140, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("/goal ship it")
	u.WaitScreen(t, Patience, "the refusal", Contains("/goal: goals are not available on this server (thread/goal/set: goals feature is disabled"))
}

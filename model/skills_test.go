package model

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"tandem/model/status"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/teadrive"
	"tandem/model/overlay"
)

// The fake's skills, collaboration modes and goal methods answer from its
// results and errs, like the rest of it.

func (f *fakeDriver) ListSkills(_ context.Context, cwd string, force bool) (backend.SkillsListEntry, error) {
	var e backend.SkillsListEntry
	err := f.answer("skills/list", backend.SkillsListParams{Cwds: []string{cwd}, ForceReload: force}, &e)
	return e, err
}

func (f *fakeDriver) ListCollaborationModes(context.Context) ([]backend.CollaborationModeMask, error) {
	var ms []backend.CollaborationModeMask
	err := f.answer("collaborationMode/list", nil, &ms)
	return ms, err
}

func (f *fakeDriver) SetGoal(_ context.Context, objective string) (backend.ThreadGoal, error) {
	g := backend.ThreadGoal{ThreadID: f.ThreadID(), Objective: objective, Status: "active"}
	err := f.answer("thread/goal/set", objective, &g)
	return g, err
}

func (f *fakeDriver) ReadGoal(context.Context) (*backend.ThreadGoal, error) {
	var g *backend.ThreadGoal
	err := f.answer("thread/goal/get", nil, &g)
	return g, err
}

func (f *fakeDriver) ClearGoal(context.Context) (bool, error) {
	cleared := true
	err := f.answer("thread/goal/clear", nil, &cleared)
	return cleared, err
}

// inputSpy is a fakeDriver that keeps every TurnInput the model sends.
type inputSpy struct {
	*fakeDriver
	mu     sync.Mutex
	starts []backend.TurnInput
	steers []backend.TurnInput
}

func (s *inputSpy) StartTurn(ctx context.Context, in backend.TurnInput) (backend.Turn, error) {
	s.mu.Lock()
	s.starts = append(s.starts, in)
	s.mu.Unlock()
	return s.fakeDriver.StartTurn(ctx, in)
}

func (s *inputSpy) Steer(ctx context.Context, in backend.TurnInput) error {
	s.mu.Lock()
	s.steers = append(s.steers, in)
	s.mu.Unlock()
	return s.fakeDriver.Steer(ctx, in)
}

func (s *inputSpy) last(t *testing.T) backend.TurnInput {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.starts) == 0 {
		t.Fatal("no turn/start was sent")
	}
	return s.starts[len(s.starts)-1]
}

// calm runs cmds as drive does, dropping also the running turn's frame
// and spinner ticks (which would tick for ever).
func calm(t *testing.T, m *Model, cmds ...tea.Cmd) {
	t.Helper()
	update := func(msg tea.Msg) tea.Cmd { _, next := m.Update(msg); return next }
	skip := func(msg tea.Msg) bool {
		switch msg.(type) {
		case overlay.FocusMsg, status.Msg, spinner.TickMsg:
			return true
		}
		return false
	}
	if err := teadrive.Drive(update, 60*time.Millisecond, skip, cmds...); err != nil {
		t.Fatal("calm:", err)
	}
}

// hit presses a key (a rune, or a tea.Key* code) at a person's pace
// (pace) and runs what follows (calm); a key the composer holds acts at
// once, as one pressed alone (release), not when a real timer fires;
// typeIn types s, a key at a time.
func hit(t *testing.T, m *Model, code rune, mod tea.KeyMod) {
	t.Helper()
	pace(m)
	msg := tea.KeyPressMsg{Code: code, Mod: mod}
	if code >= ' ' && code < tea.KeyExtended && mod == 0 {
		msg.Text = string(code)
	}
	_, cmd := m.Update(msg)
	calm(t, m, cmd, release(m))
}

func typeIn(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		hit(t, m, r, 0)
	}
}

// readyWith is ready for c, delivering the skills and goal asked for at
// start; with no Clock in opts it runs on a pacedClock, as ready does, so
// hit and typeIn type at a person's pace whatever the machine's load.
func readyWith(t *testing.T, c backend.Client, opts Options) *Model {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = newPacedClock(time.Unix(1_000_000, 0))
	}
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: c, Model: "mock-model", Cwd: "~/w", ThreadCwd: "/w"})
	calm(t, m, cmd)
	return m
}

var testSkills = backend.SkillsListEntry{Cwd: "/w", Skills: []backend.Skill{
	{Name: "deploy", Description: "Ship the app to staging", Path: "/w/.codex/skills/deploy/SKILL.md", Scope: "repo", Enabled: true},
	{Name: "lint", Description: "Lint the repo", Path: "/home/u/.codex/skills/lint/SKILL.md", Scope: "user", Enabled: true},
	{Name: "imagegen", Description: "Generate images", Path: "/home/u/.codex/skills/.system/imagegen/SKILL.md", Scope: "system", Enabled: true},
	{Name: "legacy-deploy", Description: "Old deploy", Path: "/w/.codex/skills/legacy/SKILL.md", Scope: "repo", Enabled: false},
	{Name: "deploy", Description: "Ship, the user's way", Path: "/home/u/.codex/skills/deploy/SKILL.md", Scope: "user", Enabled: true},
}}

func popupLabels(m *Model) []string {
	labels, _, _ := m.composer.Popup()
	return labels
}

// `$` opens the skills popup: the enabled skills from skills/list of the
// thread's workspace, fuzzy-filtered as the name is typed, with their
// scope and description; without skills, or when skills/list fails, it
// says so.
func TestSkillPopupFilters(t *testing.T) {
	tests := []struct {
		name      string
		entry     backend.SkillsListEntry
		err       error
		typed     string
		want      []string // labels, in order
		wantFirst string
		screen    string // on screen
	}{
		{"all, in the server's order", testSkills, nil, "$", []string{"$deploy", "$lint", "$imagegen", "$deploy"}, "", "repo · Ship the app to staging"},
		{"after text and a space", testSkills, nil, "please $li", []string{"$lint"}, "", "user · Lint the repo"},
		{"fuzzy", testSkills, nil, "$dpl", nil, "$deploy", "$deploy"},
		{"no match", testSkills, nil, "$zzz", []string{}, "", "no matching skill"},
		{"not inside a word", testSkills, nil, "cost: a$de", []string{}, "", "› cost: a$de"},
		{"no skills", backend.SkillsListEntry{}, nil, "$", []string{}, "", "no skills — add one as .codex/skills/NAME/SKILL.md"},
		{"skills/list fails", backend.SkillsListEntry{}, &backend.RPCError{Code: -32603, Message: "disk on fire"}, "$", []string{}, "", "skills unavailable: disk on fire"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake()
			f.results["skills/list"] = tt.entry
			if tt.err != nil {
				f.errs["skills/list"] = tt.err
			}
			m := readyWith(t, f, Options{Workspace: "/local"})
			if p, _ := f.params["skills/list"].(backend.SkillsListParams); !reflect.DeepEqual(p.Cwds, []string{"/w"}) {
				t.Fatalf("skills/list asked for %v, want the thread's workspace", p.Cwds)
			}
			typeIn(t, m, tt.typed)
			got := popupLabels(m)
			if tt.want != nil && !reflect.DeepEqual(got, tt.want) && !(len(tt.want) == 0 && len(got) == 0) {
				t.Errorf("popup %v, want %v", got, tt.want)
			}
			if tt.wantFirst != "" && (len(got) == 0 || got[0] != tt.wantFirst) {
				t.Errorf("popup %v, want %s first", got, tt.wantFirst)
			}
			if v := viewText(m); !strings.Contains(v, tt.screen) {
				t.Errorf("screen lacks %q:\n%s", tt.screen, v)
			}
			if _, _, open := m.composer.Popup(); strings.HasPrefix(tt.name, "not inside") && open {
				t.Errorf("a $ inside a word opened the popup")
			}
			if strings.Contains(strings.Join(got, " "), "legacy") {
				t.Errorf("a disabled skill is offered: %v", got)
			}
		})
	}
}

// A skill chosen from the popup becomes "$name " in the draft, and the
// message is sent with that skill (the SKILL.md chosen, when two skills
// share the name); a steer carries its skills too.
func TestChosenSkillIsSent(t *testing.T) {
	f := newFake()
	f.results["skills/list"] = testSkills
	spy := &inputSpy{fakeDriver: f}
	m := readyWith(t, spy, Options{})
	typeIn(t, m, "run $dep")
	hit(t, m, tea.KeyDown, 0) // the user's deploy, the second match
	if got := popupLabels(m); len(got) < 2 {
		t.Fatalf("popup %v, want both deploys", got)
	}
	hit(t, m, tea.KeyEnter, 0)
	if m.State().Composer != "run $deploy " {
		t.Fatalf("draft %q after choosing", m.State().Composer)
	}
	if _, _, open := m.composer.Popup(); open {
		t.Fatal("popup still open after choosing")
	}
	typeIn(t, m, "now")
	hit(t, m, tea.KeyEnter, 0)
	in := spy.last(t)
	want := []backend.SkillRef{{Name: "deploy", Path: "/home/u/.codex/skills/deploy/SKILL.md"}}
	if in.Text != "run $deploy now" || !reflect.DeepEqual(in.Skills, want) {
		t.Fatalf("turn/start text %q skills %v, want %v", in.Text, in.Skills, want)
	}
	// A hand-typed name while the turn runs: a steer with the skill.
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	typeIn(t, m, "also $lint")
	hit(t, m, tea.KeyEscape, 0) // close the popup; the draft stays
	hit(t, m, tea.KeyEnter, 0)
	spy.mu.Lock()
	defer spy.mu.Unlock()
	if len(spy.steers) != 1 || !reflect.DeepEqual(spy.steers[0].Skills, []backend.SkillRef{{Name: "lint", Path: "/home/u/.codex/skills/lint/SKILL.md"}}) {
		t.Fatalf("steers %+v, want one with $lint", spy.steers)
	}
}

// skills/changed asks for the list again, re-scanned, and /skills lists
// them with scope, description and path; a failure is one clear line.
func TestSkillsChangedAndSlashSkills(t *testing.T) {
	f := newFake()
	f.results["skills/list"] = backend.SkillsListEntry{}
	m := readyWith(t, f, Options{})
	f.mu.Lock()
	f.results["skills/list"] = testSkills
	f.mu.Unlock()
	_, cmd := m.Update(backend.SkillsChangedEvent{})
	calm(t, m, cmd)
	if p := f.params["skills/list"].(backend.SkillsListParams); !p.ForceReload {
		t.Fatal("skills/changed did not re-scan")
	}
	if got := m.composer.SkillRefs("$lint"); len(got) != 1 {
		t.Fatalf("the changed list is not used: %v", got)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	typeIn(t, m, "/skills")
	hit(t, m, tea.KeyEnter, 0)
	v := viewText(m)
	for _, want := range []string{"Skills (5)", "$deploy (repo) — Ship the app to staging", "/w/.codex/skills/deploy/SKILL.md", "$legacy-deploy (repo, disabled)"} {
		if !strings.Contains(v, want) {
			t.Errorf("/skills lacks %q:\n%s", want, v)
		}
	}
	f.mu.Lock()
	f.errs["skills/list"] = errors.New("skills/list: connection lost") // as backend wraps it
	f.mu.Unlock()
	typeIn(t, m, "/skills")
	hit(t, m, tea.KeyEnter, 0)
	if v := viewText(m); !strings.Contains(v, "/skills: skills/list: connection lost") {
		t.Errorf("a failed /skills is not one clear line:\n%s", v)
	}
}

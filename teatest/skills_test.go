package teatest

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/model"
)

// skillsDriver lists a few skills and codex's two collaboration modes.
type skillsDriver struct{ fakeDriver }

func (skillsDriver) ThreadID() string { return "thread-1" }

func (skillsDriver) ListSkills(context.Context, string, bool) (backend.SkillsListEntry, error) {
	return backend.SkillsListEntry{Skills: []backend.Skill{
		{Name: "deploy", Description: "Ship the app to staging with the release checklist", Path: "/w/.codex/skills/deploy/SKILL.md", Scope: "repo", Enabled: true},
		{Name: "db-migrate", Description: "Write and check a database migration", Path: "/w/.codex/skills/db-migrate/SKILL.md", Scope: "repo", Enabled: true},
		{Name: "review-日本語", Description: "レビューの手順 ✨ (wide text is cut by cells)", Path: "/home/u/.codex/skills/review/SKILL.md", Scope: "user", Enabled: true},
		{Name: "imagegen", Description: "Generate or edit raster images when the task benefits from AI-created bitmap visuals such as photos, illustrations and textures", Path: "/home/u/.codex/skills/.system/imagegen/SKILL.md", Scope: "system", Enabled: true},
	}}, nil
}

func (skillsDriver) ListCollaborationModes(context.Context) ([]backend.CollaborationModeMask, error) {
	plan, def, medium := "plan", "default", "medium"
	return []backend.CollaborationModeMask{{Name: "Plan", Mode: &plan, ReasoningEffort: &medium}, {Name: "Default", Mode: &def}}, nil
}

func (skillsDriver) ReadGoal(context.Context) (*backend.ThreadGoal, error) {
	return &backend.ThreadGoal{ThreadID: "thread-1", Objective: "get every e2e test green on both codex versions", Status: "active"}, nil
}

// skillsScreen is newScreen with skillsDriver as the client.
func skillsScreen(t *testing.T) *e2e.TUI {
	t.Helper()
	u := e2e.NewFrozenTUI(t, model.Options{Now: func() time.Time { return epoch }, FormGrace: time.Millisecond}, 100, 30)
	u.TM.Send(model.SessionReadyMsg{Client: skillsDriver{}, Model: "gpt-test", Cwd: "~/src/tandem", ThreadCwd: "/w", Approval: "on-request", Sandbox: "workspace-write", Peer: "local"})
	return u
}

// `$` opens the skills popup: name, scope and description, wide text cut
// by cells.
func TestGoldenSkillPopup(t *testing.T) {
	u := skillsScreen(t)
	u.TM.Type("use $")
	goldenAll(t, u, "$imagegen", "(active)")
}

// Typing after `$` filters the skills fuzzily. The screen is golden once
// the filter is applied to the listed skills: the one row left, its
// column as wide as its own name (a frame drawn earlier, before the list
// arrived or with "$d" only, shows no popup or $db-migrate too).
func TestGoldenSkillPopupFiltered(t *testing.T) {
	u := skillsScreen(t)
	u.TM.Type("use $dp")
	goldenAll(t, u, "› $deploy  repo ·", "› use $dp ", "(active)")
}

// Plan mode on (Shift+Tab): the badge leads the status line, and the
// thread's goal leads its right side.
func TestGoldenPlanModeStatusLine(t *testing.T) {
	u := skillsScreen(t)
	u.TM.Send(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	goldenAll(t, u, "[plan mode]", "◎ goal")
}

// goldenAll is golden once the screen shows every one of wants (answers
// of different calls, in no fixed order).
func goldenAll(t *testing.T, u *e2e.TUI, wants ...string) {
	t.Helper()
	u.WaitScreen(t, e2e.Patience, strings.Join(wants, ", "), e2e.Contains(wants...))
	golden(t, u, wants[0])
}

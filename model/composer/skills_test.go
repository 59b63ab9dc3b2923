package composer

import (
	"reflect"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/model/act"
)

var testSkills = []backend.Skill{
	{Name: "deploy", Description: "Ship the app to staging", Path: "/w/.codex/skills/deploy/SKILL.md", Scope: "repo", Enabled: true},
	{Name: "lint", Description: "Lint the repo", Path: "/home/u/.codex/skills/lint/SKILL.md", Scope: "user", Enabled: true},
	{Name: "imagegen", Description: "Generate images", Path: "/home/u/.codex/skills/.system/imagegen/SKILL.md", Scope: "system", Enabled: true},
	{Name: "legacy-deploy", Description: "Old deploy", Path: "/w/.codex/skills/legacy/SKILL.md", Scope: "repo", Enabled: false},
	{Name: "deploy", Description: "Ship, the user's way", Path: "/home/u/.codex/skills/deploy/SKILL.md", Scope: "user", Enabled: true},
}

// The skills of a `$name` token in the message go with it as "skill"
// inputs: names of enabled skills only, once each, in order, punctuation
// after the name not part of it.
func TestSkillTokensBecomeSkillInputs(t *testing.T) {
	r := newRig(t, Options{})
	r.c.skills = skillsState{list: testSkills, loaded: true}
	deploy := backend.SkillRef{Name: "deploy", Path: "/w/.codex/skills/deploy/SKILL.md"}
	lint := backend.SkillRef{Name: "lint", Path: "/home/u/.codex/skills/lint/SKILL.md"}
	tests := []struct {
		text string
		want []backend.SkillRef
	}{
		{"use $deploy", []backend.SkillRef{deploy}},
		{"$deploy, then $lint.", []backend.SkillRef{deploy, lint}},
		{"$lint\n$deploy $deploy", []backend.SkillRef{lint, deploy}},
		{"$unknown skill", nil},
		{"it costs $5", nil},
		{"a$deploy", nil},
		{"$legacy-deploy is off", nil},
		{"no dollar at all", nil},
	}
	for _, tt := range tests {
		if got := r.c.SkillRefs(tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SkillRefs(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// The skills are asked for once the session is ready, of the thread's
// workspace (else the local one); an older answer is dropped, and the
// popup open when the newest comes lists them.
func TestSkillsListed(t *testing.T) {
	r := newRig(t, Options{Workspace: "/local"})
	r.c.FetchSkills(false)
	if got := r.take(); len(got) != 0 {
		t.Fatalf("asked %v with no app-server", got)
	}
	r.facts = Facts{Online: true, Ready: true, ThreadCwd: "/w"}
	r.c.FetchSkills(false)
	r.typeText("$") // the popup opens while the list is on its way
	got := r.take()
	want := []act.Intent{act.Request{For: act.ToComposer, Do: act.ListSkills{Seq: 1, Cwd: "/w"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("asked %#v, want %#v", got, want)
	}
	if v := strings.Join(r.c.PopupView(stylesForTest(), 80), "\n"); !strings.Contains(v, "loading skills…") {
		t.Fatalf("popup while loading:\n%s", v)
	}
	r.c.FetchSkills(true) // skills/changed: a re-scan
	if got := r.take(); !reflect.DeepEqual(got, []act.Intent{act.Request{For: act.ToComposer, Do: act.ListSkills{Seq: 2, Cwd: "/w", Force: true}}}) {
		t.Fatalf("re-scan asked %#v", got)
	}
	r.c.Result(act.SkillsListed{Seq: 1, Entry: backend.SkillsListEntry{Skills: testSkills[:1]}})
	if labels, _, _ := r.c.Popup(); len(labels) != 0 {
		t.Fatalf("an older answer was used: %v", labels)
	}
	r.c.Result(act.SkillsListed{Seq: 2, Entry: backend.SkillsListEntry{Skills: testSkills}})
	if labels, _, open := r.c.Popup(); !open || !reflect.DeepEqual(labels, []string{"$deploy", "$lint", "$imagegen", "$deploy"}) {
		t.Fatalf("popup %v (open %v)", labels, open)
	}
}

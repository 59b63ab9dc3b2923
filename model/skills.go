package model

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/ui"
)

// Skills: the `$` popup and the `$name` tokens of a message are the
// composer's (model/composer); the root asks it to list them again on
// `skills/changed`, and runs /skills.

// onSkillsChanged follows `skills/changed`: the list is asked for again
// (re-scanned), so the popup and `$name` use the new skills.
func (m *Model) onSkillsChanged() tea.Cmd {
	m.composer.FetchSkills(true) // model/composer
	return nil
}

// cmdSkills is /skills: the workspace's skills (name, scope, description,
// SKILL.md) and the ones that failed to load, fresh from `skills/list`.
func (m *Model) cmdSkills(string) tea.Cmd {
	c, ok := m.needClient("skills")
	if !ok {
		return nil
	}
	cwd := m.panes.Cwd() // the thread's workspace on the server, else the local one
	if cwd == "" {
		cwd = m.opts.Workspace
	}
	return call("skills", func(ctx context.Context) (string, []string, error) {
		entry, err := c.ListSkills(ctx, cwd, false)
		if err != nil {
			return "", nil, err // backend names the method
		}
		return skillsBanner(entry)
	})
}

// skillsBanner is /skills' banner for entry.
func skillsBanner(entry backend.SkillsListEntry) (string, []string, error) {
	var lines []string
	for _, sk := range entry.Skills {
		state := ""
		if !sk.Enabled {
			state = ", disabled"
		}
		lines = append(lines, fmt.Sprintf("$%s (%s%s) — %s", sk.Name, sk.Scope, state, ui.SanitizeLine(sk.Description)), "    "+sk.Path)
	}
	for _, e := range entry.Errors {
		lines = append(lines, "not loaded: "+e.Path+": "+ui.SanitizeLine(e.Message))
	}
	if len(entry.Skills) == 0 {
		lines = append(lines, "add one as .codex/skills/NAME/SKILL.md in the workspace, or skills/NAME/SKILL.md in the codex home")
		return "No skills", lines, nil
	}
	lines = append(lines, "", "type $ in the composer to use one")
	return fmt.Sprintf("Skills (%d)", len(entry.Skills)), lines, nil
}

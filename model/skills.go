package model

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"tandem/backend"
	"tandem/ui"
)

// Skills: the `$` popup of the workspace's skills (from `skills/list`,
// refreshed on `skills/changed`), the `$name` tokens of a message sent as
// "skill" inputs, and /skills.

// skillsState is what this viewer knows of the workspace's skills.
type skillsState struct {
	// list is the last `skills/list` answer (nil before one came);
	// errs are the SKILL.md files that did not load.
	list []backend.Skill
	errs []backend.SkillError
	// loaded: an answer came (list may be empty); err: the last call
	// failed; loading: a call is under way; seq numbers the calls, so an
	// older answer is dropped.
	loaded, loading bool
	err             error
	seq             int
	// chosen maps a name picked from the popup to the SKILL.md picked,
	// for names that more than one skill has.
	chosen map[string]string
}

// skillsListedMsg is a `skills/list` answer for call seq.
type skillsListedMsg struct {
	seq   int
	entry backend.SkillsListEntry
	err   error
}

// skillsCwd is the workspace whose skills are listed: the thread's on the
// server, else the local one.
func (m *Model) skillsCwd() string {
	if m.panes.Cwd() != "" {
		return m.panes.Cwd()
	}
	return m.opts.Workspace
}

// fetchSkills asks `skills/list` for the workspace's skills (force: a
// re-scan of the disk); nil without a client.
func (m *Model) fetchSkills(force bool) tea.Cmd {
	c := m.client
	if c == nil || !m.ready {
		return nil
	}
	m.skills.seq++
	m.skills.loading = true
	seq, cwd := m.skills.seq, m.skillsCwd()
	return callCmd(func(ctx context.Context) tea.Msg {
		entry, err := c.ListSkills(ctx, cwd, force)
		return skillsListedMsg{seq: seq, entry: entry, err: err}
	})
}

// onSkillsListed keeps the newest answer and redraws an open `$` popup.
func (m *Model) onSkillsListed(msg skillsListedMsg) {
	if msg.seq != m.skills.seq {
		return
	}
	s := &m.skills
	s.loading = false
	if msg.err != nil {
		s.err = msg.err
		if m.popup.kind == popupSkill {
			m.setNotice(noticeInfo, "skills/list failed: "+oneLine(msg.err))
		}
	} else {
		s.err, s.loaded = nil, true
		s.list = msg.entry.Skills
	}
	if m.popup.kind == popupSkill {
		m.fillSkillPopup(m.popup.source)
	}
}

// skillToken returns the "$xyz" word at the end of the draft, if any: a
// `$` at the start or after whitespace.
func skillToken(draft string) (string, bool) {
	i := strings.LastIndexAny(draft, " \t\n")
	tok := draft[i+1:]
	if strings.HasPrefix(tok, "$") && !strings.ContainsAny(tok[1:], "$") {
		return tok, true
	}
	return "", false
}

// enabledSkills are the skills a message can name.
func (m *Model) enabledSkills() []backend.Skill {
	var out []backend.Skill
	for _, sk := range m.skills.list {
		if sk.Enabled {
			out = append(out, sk)
		}
	}
	return out
}

// filterSkills returns the skills whose name matches query fuzzily, best
// first; an empty query lists them all in the server's order.
func filterSkills(skills []backend.Skill, query string) []backend.Skill {
	if query == "" {
		return skills
	}
	names := make([]string, len(skills))
	for i, sk := range skills {
		names[i] = sk.Name
	}
	var out []backend.Skill
	for _, match := range fuzzy.Find(query, names) {
		out = append(out, skills[match.Index])
	}
	return out
}

// skillPopup opens (or follows) the `$` popup for token tok; it asks for
// the list when none came yet.
func (m *Model) skillPopup(tok string) tea.Cmd {
	p := &m.popup
	if p.kind == popupSkill && p.source == tok {
		return nil
	}
	*p = popup{kind: popupSkill, source: tok}
	var cmd tea.Cmd
	if !m.skills.loaded && !m.skills.loading {
		cmd = m.fetchSkills(false)
	}
	m.fillSkillPopup(tok)
	return cmd
}

// fillSkillPopup lists the skills matching tok (keeping the selection in
// range).
func (m *Model) fillSkillPopup(tok string) {
	p := &m.popup
	p.loading = m.skills.loading && !m.skills.loaded
	p.items = nil
	for _, sk := range filterSkills(m.enabledSkills(), strings.TrimPrefix(tok, "$")) {
		p.items = append(p.items, popupItem{label: "$" + sk.Name, detail: skillDetail(sk), path: sk.Path})
	}
	if p.sel >= len(p.items) {
		p.sel = max(0, len(p.items)-1)
	}
}

// skillDetail is a skill's popup detail: its scope and description.
func skillDetail(sk backend.Skill) string {
	desc := sk.Description
	if sk.ShortDescription != nil && *sk.ShortDescription != "" {
		desc = *sk.ShortDescription
	} else if sk.Interface != nil && sk.Interface.ShortDescription != nil && *sk.Interface.ShortDescription != "" {
		desc = *sk.Interface.ShortDescription
	}
	return sk.Scope + " · " + desc
}

// insertSkill replaces the `$` token being typed with the chosen skill's
// "$name " and remembers which SKILL.md the name stands for.
func (m *Model) insertSkill(it popupItem) {
	draft := m.composer.Value()
	tok, _ := skillToken(draft)
	name := strings.TrimPrefix(it.label, "$")
	if m.skills.chosen == nil {
		m.skills.chosen = map[string]string{}
	}
	m.skills.chosen[name] = it.path
	m.setDraft(strings.TrimSuffix(draft, tok) + "$" + name + " ")
	m.popup.dismissed = m.composer.popupDraft()
}

// skillPopupEmpty is what the `$` popup says when it lists nothing.
func (m *Model) skillPopupEmpty() string {
	s := m.skills
	switch {
	case s.err != nil && !s.loaded:
		return "skills unavailable: " + ui.SanitizeLine(oneLine(s.err))
	case s.loading && !s.loaded:
		return "loading skills…"
	case len(m.enabledSkills()) == 0:
		return "no skills — add one as .codex/skills/NAME/SKILL.md in the workspace, or skills/NAME/SKILL.md in the codex home"
	}
	return "no matching skill"
}

// skillRefs returns the skills text names with `$name` tokens (a `$` at
// the start or after whitespace; trailing punctuation is not part of the
// name), each once, in order; a name picked from the popup stands for the
// SKILL.md picked.
func (m *Model) skillRefs(text string) []backend.SkillRef {
	skills := m.enabledSkills()
	if len(skills) == 0 || !strings.Contains(text, "$") {
		return nil
	}
	byName := map[string]string{}
	for _, sk := range skills {
		if _, ok := byName[sk.Name]; !ok {
			byName[sk.Name] = sk.Path
		}
	}
	var out []backend.SkillRef
	seen := map[string]bool{}
	for _, w := range strings.Fields(text) {
		if !strings.HasPrefix(w, "$") {
			continue
		}
		name := strings.TrimPrefix(w, "$")
		if _, ok := byName[name]; !ok {
			name = strings.TrimRight(name, ".,;:!?)]}'\"") // "use $deploy."
		}
		path, ok := byName[name]
		if !ok || seen[name] {
			continue
		}
		if p := m.skills.chosen[name]; p != "" {
			path = p
		}
		seen[name] = true
		out = append(out, backend.SkillRef{Name: name, Path: path})
	}
	return out
}

// onSkillsChanged follows `skills/changed`: the list is asked for again
// (re-scanned), so the popup and `$name` use the new skills.
func (m *Model) onSkillsChanged() tea.Cmd { return m.fetchSkills(true) }

// cmdSkills is /skills: the workspace's skills (name, scope, description,
// SKILL.md) and the ones that failed to load, fresh from `skills/list`.
func (m *Model) cmdSkills(string) tea.Cmd {
	c, ok := m.needClient("skills")
	if !ok {
		return nil
	}
	cwd := m.skillsCwd()
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

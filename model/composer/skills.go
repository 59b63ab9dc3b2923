package composer

import (
	"strings"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// Skills: the `$` popup of the workspace's skills (from `skills/list`,
// asked again on `skills/changed`) and the `$name` tokens of a message,
// sent as "skill" inputs (SkillRefs).

// skillsState is what the composer knows of the workspace's skills.
type skillsState struct {
	// list is the last `skills/list` answer (nil before one came).
	list []backend.Skill
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

// skillsCwd is the workspace whose skills are listed: the thread's on the
// server, else the local one.
func (c *Composer) skillsCwd(f Facts) string {
	if f.ThreadCwd != "" {
		return f.ThreadCwd
	}
	return c.opts.Workspace
}

// FetchSkills asks `skills/list` for the workspace's skills (force: a
// re-scan of the disk), once the session is ready: at the start, and on
// `skills/changed`.
func (c *Composer) FetchSkills(force bool) {
	f := c.facts()
	if !f.Online || !f.Ready {
		return
	}
	c.skills.seq++
	c.skills.loading = true
	c.out().Call(act.ToComposer, act.ListSkills{Seq: c.skills.seq, Cwd: c.skillsCwd(f), Force: force})
}

// onSkillsListed keeps the newest answer and redraws an open `$` popup.
func (c *Composer) onSkillsListed(msg act.SkillsListed) {
	s := &c.skills
	if msg.Seq != s.seq {
		return
	}
	s.loading = false
	if msg.Err != nil {
		s.err = msg.Err
		if c.popup.kind == popupSkill {
			c.out().Notice(act.NoticeInfo, "skills/list failed: "+act.OneLine(msg.Err))
		}
	} else {
		s.err, s.loaded = nil, true
		s.list = msg.Entry.Skills
	}
	if c.popup.kind == popupSkill {
		c.fillSkillPopup(c.popup.source)
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
func (c *Composer) enabledSkills() []backend.Skill {
	var out []backend.Skill
	for _, sk := range c.skills.list {
		if sk.Enabled {
			out = append(out, sk)
		}
	}
	return out
}

// skillPopup opens (or follows) the `$` popup for token tok; it asks for
// the list when none came yet.
func (c *Composer) skillPopup(tok string) {
	p := &c.popup
	if p.kind == popupSkill && p.source == tok {
		return
	}
	*p = popup{kind: popupSkill, source: tok}
	if !c.skills.loaded && !c.skills.loading {
		c.FetchSkills(false)
	}
	c.fillSkillPopup(tok)
}

// fillSkillPopup lists the skills matching tok (keeping the selection in
// range).
func (c *Composer) fillSkillPopup(tok string) {
	p := &c.popup
	p.loading = c.skills.loading && !c.skills.loaded
	p.items = nil
	for _, sk := range Filter(c.enabledSkills(), strings.TrimPrefix(tok, "$"), func(sk backend.Skill) string { return sk.Name }) {
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
func (c *Composer) insertSkill(it popupItem) {
	draft := c.Value()
	tok, _ := skillToken(draft)
	name := strings.TrimPrefix(it.label, "$")
	if c.skills.chosen == nil {
		c.skills.chosen = map[string]string{}
	}
	c.skills.chosen[name] = it.path
	c.SetDraft(strings.TrimSuffix(draft, tok) + "$" + name + " ")
	c.popup.dismissed = c.popupDraft()
}

// skillPopupEmpty is what the `$` popup says when it lists nothing.
func (c *Composer) skillPopupEmpty() string {
	s := c.skills
	switch {
	case s.err != nil && !s.loaded:
		return "skills unavailable: " + ui.SanitizeLine(act.OneLine(s.err))
	case s.loading && !s.loaded:
		return "loading skills…"
	case len(c.enabledSkills()) == 0:
		return "no skills — add one as .codex/skills/NAME/SKILL.md in the workspace, or skills/NAME/SKILL.md in the codex home"
	}
	return "no matching skill"
}

// SkillRefs returns the skills text names with `$name` tokens (a `$` at
// the start or after whitespace; trailing punctuation is not part of the
// name), each once, in order; a name picked from the popup stands for the
// SKILL.md picked. They go with the message as "skill" inputs.
func (c *Composer) SkillRefs(text string) []backend.SkillRef {
	skills := c.enabledSkills()
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
		if p := c.skills.chosen[name]; p != "" {
			path = p
		}
		seen[name] = true
		out = append(out, backend.SkillRef{Name: name, Path: path})
	}
	return out
}

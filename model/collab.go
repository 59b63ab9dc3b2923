package model

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// Collaboration modes: Shift+Tab steps through the server's presets
// (`collaborationMode/list`: Plan, Default) and /plan turns plan mode on
// or off. The chosen mode goes with every `turn/start` from then on (the
// server keeps a thread's mode, so going back to Default is sent too);
// the status line shows a badge while it is not the default one.

// collabState is the collaboration mode this viewer sends.
type collabState struct {
	// modes are the server's presets with a mode (once loaded; none when
	// the call failed).
	modes           []backend.CollaborationModeMask
	loaded, loading bool
	// pending is the switch asked for while the presets load: "cycle"
	// (Shift+Tab) or "plan" (/plan).
	pending string
	// active is the preset the next turns run in; nil until one is
	// chosen (the thread's own mode).
	active *backend.CollaborationModeMask
}

// collabListedMsg is the `collaborationMode/list` answer.
type collabListedMsg struct {
	modes []backend.CollaborationModeMask
	err   error
}

// planUnavailable is what a switch says on a server without presets.
const planUnavailable = "plan mode is not available on this server"

// cycleCollab is Shift+Tab: the next preset.
func (m *Model) cycleCollab() tea.Cmd { return m.switchCollab("cycle") }

// switchCollab does how ("cycle" or "plan") now, or once the presets are
// loaded.
func (m *Model) switchCollab(how string) tea.Cmd {
	cs := &m.collab
	if cs.loaded {
		m.applyCollab(how)
		return nil
	}
	c := m.client
	if c == nil || !m.ready {
		m.setNotice(noticeInfo, "collaboration modes need a running app-server")
		return nil
	}
	cs.pending = how
	if cs.loading {
		return nil
	}
	cs.loading = true
	return callCmd(func(ctx context.Context) tea.Msg {
		modes, err := c.ListCollaborationModes(ctx)
		return collabListedMsg{modes: modes, err: err}
	})
}

// onCollabListed keeps the presets that have a mode and does the switch
// that waited for them. A failed call is not remembered as an answer: the
// next switch asks again.
func (m *Model) onCollabListed(msg collabListedMsg) {
	cs := &m.collab
	cs.loading = false
	how := cs.pending
	cs.pending = ""
	if msg.err != nil {
		why := oneLine(msg.err)
		if backend.Unsupported(msg.err) {
			why = "collaborationMode/list: " + why
		}
		m.setNotice(noticeInfo, planUnavailable+" ("+why+")")
		return
	}
	cs.loaded, cs.modes = true, nil
	for _, mk := range msg.modes {
		if mk.Mode != nil && *mk.Mode != "" {
			cs.modes = append(cs.modes, mk)
		}
	}
	if how != "" {
		m.applyCollab(how)
	}
}

// applyCollab switches the mode: "cycle" to the preset after the current
// one (the current one being the default preset before any choice),
// "plan" to the plan preset, or from it to the default one.
func (m *Model) applyCollab(how string) {
	cs := &m.collab
	if len(cs.modes) == 0 {
		m.setNotice(noticeInfo, planUnavailable)
		return
	}
	cur := -1
	if cs.active != nil {
		cur = presetIndex(cs.modes, func(mk backend.CollaborationModeMask) bool { return mk.Name == cs.active.Name })
	}
	if cur < 0 {
		cur = presetIndex(cs.modes, func(mk backend.CollaborationModeMask) bool { return *mk.Mode == backend.ModeDefault })
	}
	var next int
	switch how {
	case "plan":
		if cur >= 0 && *cs.modes[cur].Mode == backend.ModePlan {
			next = presetIndex(cs.modes, func(mk backend.CollaborationModeMask) bool { return *mk.Mode == backend.ModeDefault })
			if next < 0 { // no default preset: the mode alone, with the thread's settings
				cs.modes = append(cs.modes, backend.CollaborationModeMask{Name: "Default", Mode: strPtr(backend.ModeDefault)})
				next = len(cs.modes) - 1
			}
		} else if next = presetIndex(cs.modes, func(mk backend.CollaborationModeMask) bool { return *mk.Mode == backend.ModePlan }); next < 0 {
			m.setNotice(noticeInfo, planUnavailable)
			return
		}
	default:
		next = (cur + 1) % len(cs.modes)
	}
	chosen := cs.modes[next]
	cs.active = &chosen
	m.stat.Apply(act.Settings{Mode: act.Str(modeBadge(chosen))})
	when := "from the next turn"
	if !m.turn.busy() {
		when = "for the next turns"
	}
	m.setNotice(noticeInfo, chosen.Name+" mode "+when+" · "+m.keys.Collab.Help().Key+" switches")
}

// modeBadge is the status line's badge for mk: its mode, unless it is the
// default one.
func modeBadge(mk backend.CollaborationModeMask) string {
	if mk.Mode == nil || *mk.Mode == backend.ModeDefault {
		return ""
	}
	return *mk.Mode
}

func presetIndex(modes []backend.CollaborationModeMask, f func(backend.CollaborationModeMask) bool) int {
	for i, mk := range modes {
		if f(mk) {
			return i
		}
	}
	return -1
}

func strPtr(s string) *string { return &s }

// collabFor is the `turn/start` collaborationMode of the next turn: nil
// before a mode was chosen. The preset's model and reasoning effort win;
// where it has none, the /model choice or the thread's own are sent (the
// protocol requires a model).
func (m *Model) collabFor() *backend.CollaborationMode {
	mk := m.collab.active
	if mk == nil || mk.Mode == nil {
		return nil
	}
	model := m.turn.overrides.Model
	if model == "" {
		model = m.stat.Info().Model
	}
	if mk.Model != nil && *mk.Model != "" {
		model = *mk.Model
	}
	if strings.TrimSpace(model) == "" {
		m.banner(ui.BannerWarning, "the thread's model is not known: this turn runs without "+mk.Name+" mode", nil)
		return nil
	}
	effort := m.turn.overrides.Effort
	if effort == "" {
		effort = m.turn.effort
	}
	if mk.ReasoningEffort != nil && *mk.ReasoningEffort != "" {
		effort = *mk.ReasoningEffort
	}
	set := backend.CollaborationSettings{Model: model}
	if effort != "" {
		set.ReasoningEffort = &effort
	}
	return &backend.CollaborationMode{Mode: *mk.Mode, Settings: set}
}

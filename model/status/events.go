package status

import (
	"fmt"
	"sort"
	"strings"

	"tandem/backend"
	"tandem/internal/hub"
	"tandem/ui"
)

// mcpState is each MCP server's start-up state and the failures shown
// (server and error).
type mcpState struct {
	status map[string]string
	failed map[string]bool
}

// OnMcpStartup follows an MCP server's start-up: the status line says
// what is still starting (or failed) until all are ready, and a failure
// is a banner, once per server and error.
func (s *Status) OnMcpStartup(e backend.McpStartupEvent) {
	m := &s.mcp
	if m.status == nil {
		m.status = map[string]string{}
	}
	m.status[e.Name] = e.Status
	if e.Status == "failed" {
		why := "no reason given"
		if e.Error != nil && *e.Error != "" {
			why = *e.Error
		}
		key := e.Name + "\x00" + why
		if !m.failed[key] {
			if m.failed == nil {
				m.failed = map[string]bool{}
			}
			m.failed[key] = true
			s.env.Out.Banner(ui.BannerError, "MCP server "+e.Name+" failed to start: "+why, nil)
		}
	}
	var starting, failed []string
	for name, st := range m.status {
		switch st {
		case "starting":
			starting = append(starting, name)
		case "failed":
			failed = append(failed, name)
		}
	}
	sort.Strings(starting)
	sort.Strings(failed)
	var parts []string
	switch len(starting) {
	case 0:
	case 1:
		parts = append(parts, "MCP "+starting[0]+" starting")
	default:
		parts = append(parts, fmt.Sprintf("MCP %d starting", len(starting)))
	}
	if len(failed) > 0 {
		parts = append(parts, "MCP "+strings.Join(failed, ", ")+" failed")
	}
	s.info.Mcp = strings.Join(parts, " · ")
}

// McpStartup returns each MCP server's start-up state seen so far, by
// name ("starting", "ready", "failed"): /mcp shows it.
func (s *Status) McpStartup() map[string]string { return s.mcp.status }

// OnPresence folds a join or leave of a shared session: a quiet notice
// in the transcript and the roster on the status line.
func (s *Status) OnPresence(e hub.PresenceEvent) {
	s.present = e.Present
	s.info.Presence = rosterLine(e.Present)
	s.env.Out.Banner(ui.BannerInfo, e.Text(), nil)
}

// Drivers names the connected drivers ("alice, bob"), or "a driver"
// when none is connected.
func (s *Status) Drivers() string {
	var names []string
	for _, p := range s.present {
		if p.Role == hub.Driver {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return "a driver"
	}
	return strings.Join(names, ", ")
}

// rosterShown is how many of the connected the status line names.
const rosterShown = 4

// rosterLine is the status line's roster: "alice (driver), bob
// (watcher)", drivers first; past rosterShown people the rest are
// counted ("+97 more"), so that the line costs the same with 100
// watchers as with 3.
func rosterLine(present []hub.Participant) string {
	var who []string
	for _, want := range []hub.Role{hub.Driver, hub.Watcher} {
		for _, p := range present {
			if p.Role == want && len(who) < rosterShown {
				who = append(who, p.Name+" ("+p.Role.String()+")")
			}
		}
	}
	if n := len(present); n > rosterShown {
		who = append(who[:rosterShown-1], fmt.Sprintf("+%d more", n-(rosterShown-1)))
	}
	return strings.Join(who, ", ")
}

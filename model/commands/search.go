package commands

import (
	"fmt"
	"strings"
	"time"

	"tandem/model/act"
	"tandem/model/keys"
	"tandem/ui"
)

// /search [--all] QUERY: the threads holding QUERY (Options.FindThreads,
// the same search as `tandem search`), newest first, in a picker; the
// choice resumes the thread scrolled to the matching turn (act.ResumeAt).

// searchTitle is the picker's title for query.
func searchTitle(query string, all bool) string {
	where := "this workspace"
	if all {
		where = "every workspace"
	}
	return fmt.Sprintf("Threads holding %q (%s)", query, where)
}

func (c *Commands) search(args string) {
	all := false
	fields := strings.Fields(args)
	for len(fields) > 0 && fields[0] == "--all" {
		all, fields = true, fields[1:]
	}
	query := strings.Join(fields, " ")
	if query == "" {
		c.out().Notice(act.NoticeInfo, "usage: /search [--all] QUERY")
		c.out().Want(act.SetDraft{Text: "/search "})
		return
	}
	c.out().Notice(act.NoticeInfo, "searching the threads for "+fmt.Sprintf("%q", query)+"…")
	c.out().Call(act.ToCommands, act.SearchThreads{Query: query, All: all, Find: c.opts.FindThreads})
}

func (c *Commands) onThreadsFound(r act.ThreadsFound) {
	c.out().Clear(act.NoticeInfo)
	if r.Err != nil {
		c.failed("search", r.Err)
		return
	}
	items := make([]act.PickItem, 0, len(r.Matches))
	for _, m := range r.Matches {
		items = append(items, act.PickItem{Label: matchTitle(m), Detail: matchDetail(m), Preview: matchPreview(m),
			Choose: act.ResumeAt{Thread: m.Thread, TurnID: m.TurnID}})
	}
	empty := "no thread holds it"
	if !r.All {
		empty += " (/search --all QUERY searches every workspace)"
	}
	c.out().Want(act.Pick{Title: searchTitle(r.Query, r.All), Hint: keys.Short(c.keys.ListChoose, 1) + " to resume at the turn · type to filter · " + keys.Short(c.keys.ListClose, 1) + " to cancel", Empty: empty, Items: items})
}

// matchTitle names a match's thread: its name, else its first prompt.
func matchTitle(m act.ThreadMatch) string {
	if n := m.Thread.Name; n != nil && strings.TrimSpace(*n) != "" {
		return *n
	}
	if p := strings.TrimSpace(m.Thread.Preview); p != "" {
		return p
	}
	return "(no prompt)"
}

// matchDetail is the dim text after the title: the turn and what
// matched, the date.
func matchDetail(m act.ThreadMatch) string {
	var f []string
	if m.Turn > 0 {
		f = append(f, fmt.Sprintf("turn %d", m.Turn))
	}
	if m.Kind != "" {
		f = append(f, m.Kind)
	}
	if m.Thread.UpdatedAt > 0 {
		f = append(f, time.Unix(m.Thread.UpdatedAt, 0).Local().Format("2006-01-02 15:04"))
	}
	return strings.Join(f, " · ")
}

// matchPreview is shown under the list for the selected match: the text
// around the match, the match between » and «, then the workspace and
// the thread's id.
func matchPreview(m act.ThreadMatch) []string {
	s, lo, hi := m.Snippet, m.Match[0], m.Match[1]
	line := s
	if 0 <= lo && lo < hi && hi <= len(s) {
		line = s[:lo] + "»" + s[lo:hi] + "«" + s[hi:]
	}
	where := m.Thread.ID
	if m.Thread.Cwd != "" {
		where = ui.ShortHome(m.Thread.Cwd) + " · " + where
	}
	return []string{line, where}
}

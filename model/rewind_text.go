package model

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"tandem/internal/rewind"
	"tandem/thread"
)

// The rewind picker's texts: what came after a message, what taking the
// code back would do, paths shown relative to the workspace.

// afterSummary says what came after (and with) a message: its turn and
// the later ones.
func afterSummary(turns []turnInfo) string {
	cmds, files := 0, map[string]bool{}
	for _, t := range turns {
		cmds += t.commands
		for _, f := range t.files {
			files[f.Path] = true
		}
	}
	parts := []string{plural(len(turns), "turn")}
	if cmds > 0 {
		parts = append(parts, plural(cmds, "command"))
	}
	if len(files) > 0 {
		parts = append(parts, plural(len(files), "file")+" changed")
	}
	return strings.Join(parts, " · ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// rewindPreview is the picker's preview of a message: the whole message,
// and what rewinding to it leaves behind.
func rewindPreview(turns []turnInfo) []string {
	lines := strings.Split(strings.TrimRight(turns[0].prompt, "\n"), "\n")
	if len(lines) > 6 {
		lines = append(lines[:6], "…")
	}
	return append(lines, "", "rewinding leaves behind: "+afterSummary(turns))
}

// codeSummary is what taking the code back would do, file by file (rel
// shortens a path for showing).
func codeSummary(plan *rewindPlan, rel func(string) string) []string {
	var out []string
	stats := rewind.Summarize(plan.changes)
	name := func(st rewind.Stat) string {
		if st.From != "" {
			return rel(st.Path) + " → " + rel(st.From) // moved back
		}
		return rel(st.Path)
	}
	w := 0
	for _, st := range stats {
		w = max(w, ansi.StringWidth(name(st)))
	}
	for _, st := range stats {
		verb := map[string]string{thread.FileAdd: "created → removed", thread.FileDelete: "deleted → restored", rewind.AddDelete: "created and deleted"}[st.Kind]
		if verb == "" {
			verb = fmt.Sprintf("+%d −%d", st.Added, st.Removed)
		}
		p := name(st)
		out = append(out, "  "+p+strings.Repeat(" ", w-ansi.StringWidth(p))+"  "+verb)
	}
	head := []string{plural(len(out), "file") + " changed in " + plural(plan.dropped, "turn") + ":"}
	out = append(head, out...)
	if plan.commands > 0 {
		out = append(out, "", plural(plan.commands, "command")+" ran: their effects are not rewound")
	}
	return out
}

// relPath is p relative to the thread's workspace when under it.
func (m *Model) relPath(p string) string {
	if m.panes.Cwd() != "" {
		if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(m.panes.Cwd(), "/")+"/"); ok {
			return rel
		}
	}
	return p
}

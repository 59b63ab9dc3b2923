package rewind

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"tandem/thread"

	revert "tandem/internal/rewind"
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

// preview is the picker's preview of a message: the whole message, and
// what rewinding to it leaves behind.
func preview(turns []turnInfo) []string {
	lines := strings.Split(strings.TrimRight(turns[0].prompt, "\n"), "\n")
	if len(lines) > 6 {
		lines = append(lines[:6], "…")
	}
	return append(lines, "", "rewinding leaves behind: "+afterSummary(turns))
}

// codeSummary is what taking the code back would do, file by file (rel
// shortens a path for showing).
func codeSummary(p *plan, rel func(string) string) []string {
	var out []string
	stats := revert.Summarize(p.changes)
	name := func(st revert.Stat) string {
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
		verb := map[string]string{thread.FileAdd: "created → removed", thread.FileDelete: "deleted → restored", revert.AddDelete: "created and deleted"}[st.Kind]
		if verb == "" {
			verb = fmt.Sprintf("+%d −%d", st.Added, st.Removed)
		}
		shown := name(st)
		out = append(out, "  "+shown+strings.Repeat(" ", w-ansi.StringWidth(shown))+"  "+verb)
	}
	head := []string{plural(len(out), "file") + " changed in " + plural(p.dropped, "turn") + ":"}
	out = append(head, out...)
	if p.commands > 0 {
		out = append(out, "", plural(p.commands, "command")+" ran: their effects are not rewound")
	}
	return out
}

// rel is path relative to the thread's workspace when under it.
func (r *Rewind) rel(path string) string {
	if cwd := r.opts.World.ThreadCwd(); cwd != "" {
		if rel, ok := strings.CutPrefix(path, strings.TrimSuffix(cwd, "/")+"/"); ok {
			return rel
		}
	}
	return path
}

package sessions

import (
	"cmp"
	"slices"
	"time"
)

// Prompt is one prompt of the state file's history: its text (as
// stored: redacted, cut to MaxHistoryEntry), the workspace (absolute
// cwd) it was sent in, and when (zero: sent before tandem kept the
// times); or, FromCodex, one of codex's own history (CodexPrompts), with
// no workspace.
type Prompt struct {
	Text      string
	Workspace string
	Sent      time.Time
	FromCodex bool
}

// Prompts returns every workspace's prompts, newest first (those with
// no time last, each workspace's newest first among them), a text sent
// in several workspaces or several times once, where it was sent last.
// An unreadable state file gives none.
func (s *Store) Prompts() []Prompt {
	s.mu.Lock()
	all, _ := s.load()
	s.mu.Unlock()
	var out []Prompt
	for cwd, w := range all {
		h := capAll(w.History)
		sent := alignSent(w.Sent, len(h))
		pad := len(h) - len(sent) // the oldest, with no time
		for i := len(h) - 1; i >= 0; i-- {
			p := Prompt{Text: h[i], Workspace: cwd}
			if i >= pad {
				p.Sent = time.Unix(sent[i-pad], 0)
			}
			out = append(out, p)
		}
	}
	// Newest first; the timeless after, by workspace, each as it was
	// kept (newest first): the order is the same on every call.
	slices.SortStableFunc(out, func(a, b Prompt) int {
		if c := b.Sent.Compare(a.Sent); c != 0 {
			return c
		}
		return cmp.Compare(a.Workspace, b.Workspace)
	})
	return dedupe(out)
}

// dedupe keeps the first of each text.
func dedupe(ps []Prompt) []Prompt {
	seen := make(map[string]bool, len(ps))
	out := ps[:0]
	for _, p := range ps {
		if !seen[p.Text] {
			seen[p.Text] = true
			out = append(out, p)
		}
	}
	return out
}

// alignSent keeps at most n times, the last ones: History and Sent end
// together (a history cut to MaxHistory drops the oldest times too).
func alignSent(sent []int64, n int) []int64 {
	if len(sent) > n {
		return append([]int64(nil), sent[len(sent)-n:]...)
	}
	return sent
}

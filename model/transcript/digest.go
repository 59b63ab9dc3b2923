package transcript

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"tandem/backend"
	"tandem/thread"
	"tandem/ui"
)

// The thread at a glance (Digest), for the command center around the
// model: kept as the events fold, so reading it costs O(sub-agents), never
// a walk over the transcript and no drawing.

// maxLastLine bounds LastLine, in runes.
const maxLastLine = 200

// digest is what the panes keep of the thread for Digest.
type digest struct {
	// created is when the thread was created (zero: not known).
	created time.Time
	// last is the newest agent message or command of the thread; line
	// its line as Digest gives it, made at lastRev and lastGen.
	last             *thread.Item
	line             string
	lastRev, lastGen int
	lineOK           bool
	// ended are the turns that ended, by id.
	ended map[string]bool
	// changed are the paths the fileChange items touched, sorted, each
	// once; a new path makes a new slice (one handed out stays as it was).
	changed []string
}

// Digest is the thread at a glance (model.Summary is made of it).
type Digest struct {
	// ThreadID, Name and Cwd as in model.Summary; Created zero when not
	// known.
	ThreadID, Name, Cwd string
	Created             time.Time
	// Tokens is the thread's total token use (thread/tokenUsage/updated).
	Tokens int64
	// LastLine is the newest line: an answer's last non-empty line, or
	// "$ " and a command's first line; one line, made safe for a
	// terminal, at most maxLastLine runes.
	LastLine string
	// Turns counts the turns that ended, of the history read when the
	// thread opened and since (earlier turns read by scrolling up do not
	// count).
	Turns int
	// Changed are the paths the thread's and its sub-agents' fileChange
	// items touched, sorted, each once: the panes' own slice, never
	// changed once handed out.
	Changed []string
	// Agents are the sub-agents, oldest first.
	Agents []AgentDigest
}

// AgentDigest is one sub-agent: its thread id, name, and status
// ("running", "done", "interrupted", "failed", "earlier", "unknown after
// a restart").
type AgentDigest struct {
	ID, Name, Status string
}

// Digest returns the thread at a glance: O(sub-agents).
func (p *Panes) Digest() Digest {
	d := &p.dig
	out := Digest{ThreadID: p.main.state.ThreadID(), Name: p.name, Cwd: p.cwd, Created: d.created,
		Tokens: p.main.state.Usage.Total, LastLine: d.lastLine(), Turns: len(d.ended), Changed: d.changed}
	if n := len(p.agents.list); n > 0 {
		out.Agents = make([]AgentDigest, 0, n)
		for _, pane := range p.agents.list {
			a := pane.agent
			out.Agents = append(out.Agents, AgentDigest{ID: a.id, Name: a.name, Status: a.status})
		}
	}
	return out
}

// reset forgets the thread (another one opens), created when t was.
func (d *digest) reset(created time.Time) { *d = digest{created: created} }

// createdAt is the time of a thread's createdAt (Unix seconds; zero for
// none).
func createdAt(secs int64) time.Time {
	if secs <= 0 {
		return time.Time{}
	}
	return time.Unix(secs, 0)
}

// note takes an item of the thread folded, loaded or merged.
func (d *digest) note(it *thread.Item) {
	switch it.Kind {
	case thread.Agent, thread.Command:
		if d.last != it {
			d.last, d.lineOK = it, false
		}
	case thread.FileChange:
		d.addPaths(it)
	}
}

// addPaths adds the paths of a file change it (the thread's or a
// sub-agent's).
func (d *digest) addPaths(it *thread.Item) {
	if it.Kind != thread.FileChange {
		return
	}
	for _, f := range it.Files {
		i, found := slices.BinarySearch(d.changed, f.Path)
		if found || f.Path == "" {
			continue
		}
		d.changed = slices.Insert(slices.Clip(d.changed), i, f.Path) // a new slice: Clip makes Insert copy
	}
}

// turnEnded counts turn id as ended.
func (d *digest) turnEnded(id string) {
	if id == "" {
		return
	}
	if d.ended == nil {
		d.ended = map[string]bool{}
	}
	d.ended[id] = true
}

// turns takes turns read from the thread's history: those that ended
// count, and their items are noted.
func (d *digest) turns(turns []backend.Turn) {
	for _, t := range turns {
		if t.Status != backend.TurnInProgress {
			d.turnEnded(t.ID)
		}
	}
}

// lastLine is the newest line (Digest.LastLine), made again only when
// its item changed.
func (d *digest) lastLine() string {
	it := d.last
	if it == nil {
		return ""
	}
	if d.lineOK && d.lastRev == it.Rev && d.lastGen == it.TextGen {
		return d.line
	}
	d.line, d.lastRev, d.lastGen, d.lineOK = itemLine(it), it.Rev, it.TextGen, true
	return d.line
}

// itemLine is it as one line: an answer's last non-empty line (its end,
// after "…", when longer than maxLastLine runes: what is being written),
// a command's first line after "$ " (its start, then "…").
func itemLine(it *thread.Item) string {
	if it.Kind == thread.Command {
		cmd := strings.TrimSpace(ui.CommandText(it.Command))
		first, more, _ := strings.Cut(cmd, "\n")
		l := "$ " + strings.TrimSpace(first)
		if strings.TrimSpace(more) != "" {
			l += " …"
		}
		return ui.SanitizeLine(headRunes(l, maxLastLine))
	}
	return ui.SanitizeLine(lastNonEmpty(it.Text()))
}

// lastNonEmpty is the last line of s with more than spaces, trimmed, at
// most maxLastLine runes: of a longer one its end after "…". It looks at
// no more than 4×maxLastLine bytes past the blanks that end s, so a
// streamed answer's newest line costs the same however long the answer.
func lastNonEmpty(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	tail, cut := s, false
	if n := 4 * maxLastLine; len(tail) > n {
		tail, cut = tail[len(tail)-n:], true // the line may begin before
	}
	if i := strings.LastIndexByte(tail, '\n'); i >= 0 {
		tail, cut = tail[i+1:], false
	}
	tail = strings.TrimSpace(tail)
	end := len(tail) // its last maxLastLine-1 runes, "…" before when there are more
	for n := 0; end > 0 && n < maxLastLine-1 && len(tail) >= maxLastLine; n++ {
		_, size := utf8.DecodeLastRuneInString(tail[:end])
		end -= size
	}
	if len(tail) < maxLastLine {
		end = 0 // fewer bytes than runes allowed
	}
	if end > 0 || cut {
		return "…" + tail[end:] // a rune cut at the window's start: SanitizeLine shows U+FFFD
	}
	return tail
}

// headRunes is s cut to n runes, the last of them "…" when it was longer.
func headRunes(s string, n int) string {
	count := 0
	for i := range s {
		if count == n-1 {
			if utf8.RuneCountInString(s[i:]) > 1 {
				return s[:i] + "…"
			}
			return s
		}
		count++
	}
	return s
}

package deck

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"tandem/internal/lib/termsafe"
	"tandem/model/keys"
)

// The merge of a worktree whose agent could not commit (codex's sandbox
// may hold .git read-only): Host.Merge refuses its uncommitted changes
// with a Result whose Commit names every file, and the list asks whether
// to commit them and merge, on a page of its own that lists every one of
// them (nothing hidden: the merge key answers yes only once the end of
// the list has been on screen) with the commit's message, which names
// the thread.

// commitAsk is the question: the lane, the files to commit, the
// message, the first file line shown and whether the last one has been.
type commitAsk struct {
	lane    LaneID
	files   []string
	message string
	top     int
	seenEnd bool
}

// commitHead and commitFoot are how many lines the question's page takes
// above and below its files.
const (
	commitHead = 3
	commitFoot = 1
)

// commitMessage is the commit's message for the thread named name.
func commitMessage(name string) string {
	name = oneLine(name)
	if r := []rune(name); len(r) > 60 {
		name = string(r[:59]) + "…"
	}
	return "tandem: " + name + " (what the thread left uncommitted)"
}

// askCommit starts the question for Result r (Commit set), unless the
// list asks something already.
func (d *Model) askCommit(r Result) {
	s := &d.list
	l := d.lane(r.Lane)
	switch {
	case len(r.Commit) == 0 || l == nil:
		return
	case s.asking == askCommit: // a second refusal, of a key pressed before the first came
		s.notice = ""
		return
	case s.asking != askNone:
		return
	}
	s.asking, s.askLane, s.input, s.notice = askCommit, r.Lane, "", "" // the page names every file
	s.commit = commitAsk{lane: r.Lane, files: append([]string(nil), r.Commit...), message: commitMessage(d.name(l))}
	s.commit.seenEnd = len(s.commit.files) <= d.commitRoom()
}

// commitRoom is how many files the question's page shows at once.
func (d *Model) commitRoom() int { return max(1, d.height-commitHead-commitFoot) }

// commitKey answers the question: ↑/↓ scroll the files; the merge key,
// once the whole list has been on screen, commits and merges; any other
// key (or the merge key before the end was seen, which says so) keeps
// everything.
func (d *Model) commitKey(k tea.KeyPressMsg) tea.Cmd {
	s, km := &d.list, d.keys
	c := &s.commit
	room := d.commitRoom()
	switch {
	case key.Matches(k, km.DeckUp):
		c.top = max(0, c.top-1)
		return nil
	case key.Matches(k, km.DeckDown):
		c.top = max(0, min(len(c.files)-room, c.top+1))
		c.seenEnd = c.seenEnd || c.top+room >= len(c.files)
		return nil
	case key.Matches(k, km.DeckMerge) && d.mode == modeList && !c.seenEnd:
		s.notice = fmt.Sprintf("read the whole list first (%s): %d more files below", keys.Display(km.DeckDown), len(c.files)-c.top-room)
		return nil
	}
	ask := *c
	s.asking, s.commit = askNone, commitAsk{}
	l := d.lane(ask.lane)
	if !key.Matches(k, km.DeckMerge) || l == nil || d.mode != modeList {
		s.notice = "nothing committed or merged"
		return nil
	}
	if d.opts.Host == nil {
		s.notice = "no host here: can't merge a worktree"
		return nil
	}
	s.notice = "committing and merging " + oneLine(d.name(l)) + "'s worktree…"
	return d.opts.Host.CommitMerge(ask.lane, ask.message, ask.files)
}

// commitLines is the question's page: what it asks, where, the message,
// then the files, scrolled, and the keys.
func (d *Model) commitLines() []string {
	c := d.list.commit
	km := d.keys
	n := "the worktree"
	where, branch := "", ""
	if l := d.lane(c.lane); l != nil {
		n = oneLine(d.name(l)) + "'s worktree"
		where, branch = oneLine(d.tilde(l.Worktree)), oneLine(l.Branch)
	}
	head := []string{
		boldStyle.Render(fit("commit and merge "+n+"? the agent left "+count(len(c.files), "file")+" uncommitted", d.width)),
		fit("in "+where+", committed on "+branch+" as:", d.width),
		fit("  "+c.message, d.width),
	}
	room := d.commitRoom()
	var body []string
	for i := c.top; i < len(c.files) && i < c.top+room; i++ {
		body = append(body, fit("  "+fileLine(c.files[i]), d.width))
	}
	help := keys.Display(km.DeckMerge) + " commit and merge · any other key: nothing"
	if !c.seenEnd {
		help = fmt.Sprintf("%s %d more below · read to the end before %s · any other key: nothing",
			keys.Display(km.DeckDown), len(c.files)-c.top-room, keys.Display(km.DeckMerge))
	}
	foot := []string{help}
	if d.list.notice != "" {
		foot = []string{d.list.notice}
	}
	out := append(head, body...)
	for len(out) < d.height-len(foot) {
		out = append(out, "")
	}
	for _, f := range foot {
		out = append(out, faintStyle.Render(fit(oneLine(f), d.width)))
	}
	return out[:min(len(out), d.height)]
}

// fileLine is a file's name as the question lists it: as it is, or —
// when it holds a control character (a line break, a terminal's
// escape), invalid UTF-8 or an invisible rune — quoted with those
// written as escapes (strconv.Quote), so it takes one line, acts on
// nothing and is told apart from a name that only looks like it.
func fileLine(f string) string {
	unsafe := func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }
	if utf8.ValidString(f) && !strings.ContainsFunc(f, unsafe) && termsafe.Plain(f) == f && !strings.HasPrefix(f, `"`) {
		return f
	}
	return strconv.Quote(f)
}

package cli

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/model/keys"
)

// finder is what a replay's search drives: a sessions.Player's Find and
// Seek.
type finder interface {
	Find(text string) []int
	Seek(step int)
}

// replayFind is a replay's search line (Ctrl+F, the keymap's
// ReplayFind): typing shows how many steps of the recording match;
// Enter (Shift+Enter) seeks the playback to the next (previous) match,
// wrapping; Esc closes the line. The count shows as "3/17", or "no
// match". It is shared by the copies of a replayModel.
type replayFind struct {
	open    bool
	input   textinput.Model
	matches []int // the steps matching input's value
	cur     int   // the match the playback was sought to; -1: none yet
}

func newReplayFind() *replayFind {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Placeholder = "text in the recording"
	ti.CharLimit = 200
	return &replayFind{input: ti, cur: -1}
}

// start opens the line on query, as `tandem replay --find` does, and
// seeks to its first match; ok is false when nothing matches.
func (f *replayFind) start(p finder, query string) (ok bool) {
	f.open = true
	f.input.SetValue(query)
	f.input.CursorEnd()
	f.input.Focus()
	f.matches, f.cur = p.Find(query), -1
	if len(f.matches) == 0 {
		return false
	}
	f.step(p, true)
	return true
}

// key handles a key while the line is open.
func (f *replayFind) key(p finder, km *keys.Map, msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, km.ReplayFindClose):
		f.open = false
		f.input.Blur()
		return nil
	case key.Matches(msg, km.ReplayFindNext):
		f.step(p, true)
		return nil
	case key.Matches(msg, km.ReplayFindPrev):
		f.step(p, false)
		return nil
	}
	before := f.input.Value()
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	if v := f.input.Value(); v != before {
		f.matches, f.cur = p.Find(v), -1
	}
	return cmd
}

// step seeks to the next (or previous) match, wrapping around.
func (f *replayFind) step(p finder, next bool) {
	n := len(f.matches)
	if n == 0 {
		return
	}
	switch {
	case f.cur < 0 && next:
		f.cur = 0
	case f.cur < 0:
		f.cur = n - 1
	case next:
		f.cur = (f.cur + 1) % n
	default:
		f.cur = (f.cur + n - 1) % n
	}
	p.Seek(f.matches[f.cur])
}

// line is the search line, width cells wide.
func (f *replayFind) line(width int, km *keys.Map) string {
	count := "no match"
	switch {
	case strings.TrimSpace(f.input.Value()) == "":
		count = ""
	case len(f.matches) > 0 && f.cur >= 0:
		count = fmt.Sprintf("%d/%d", f.cur+1, len(f.matches))
	case len(f.matches) > 0:
		count = fmt.Sprintf("%d matches", len(f.matches))
	}
	hint := fmt.Sprintf("%s next · %s previous · %s close", keyName(km.ReplayFindNext), keyName(km.ReplayFindPrev), keyName(km.ReplayFindClose))
	right := strings.TrimSpace(count + "  " + hint)
	f.input.SetWidth(max(10, width-len("find: ")-ansi.StringWidth(right)-2))
	left := "find: " + f.input.View()
	gap := width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 1 {
		return ansi.Truncate(left+" "+right, width, "…")
	}
	return left + strings.Repeat(" ", gap) + right
}

// keyName is a binding's first key as help shows it.
func keyName(b key.Binding) string { return b.Help().Key }

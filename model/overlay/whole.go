package overlay

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/model/act"
	"tandem/ui"
)

// No blind answer. A request's form takes keys only once it has been on
// screen whole — the whole request (command, reason, question) and the
// highlighted choice — for the grace period (grace.go). A form that does
// not fit the rows below the transcript is not drawn cut: one line says
// so, and no key answers it until the window is large enough or the form
// is opened full screen (the pager's key). Full screen, a request too
// long even for the whole window scrolls, and is whole once its end has
// been shown. Each viewer (a pairing guest too) decides this at its own
// size.

// maxHeight is how many rows a form may take inline: the screen less
// the rule above it, the queue line (when requests wait) and what is
// drawn under it (the transcript gives way entirely); 0 before the size
// is known.
func (o *Overlay) maxHeight(r Room) int {
	if r.Height <= 0 {
		return 0
	}
	h := r.Height - 1 - r.Below
	if len(o.q.pending) > 1 {
		h-- // queueLine
	}
	return max(1, h)
}

// formRows is how many rows the shown form may take: inline, the room
// below the transcript (maxHeight); full screen, the screen less its
// footer.
func (o *Overlay) formRows(r Room) int {
	if o.q.full {
		return max(1, r.Height-1)
	}
	return o.maxHeight(r)
}

// Refit lays the shown form out again when its room changed (or force:
// the window was resized), and works out whether it is whole now. A form
// that becomes whole starts its grace period from now; one that stops
// being whole loses the keyboard. The root calls it after every message
// (cheap when nothing changed); the overlay when a form opens.
func (o *Overlay) Refit(force bool) {
	o.rebuildStale()
	q := &o.q
	f := q.form
	if f == nil {
		return
	}
	r := o.opts.World.Room()
	rows, w := o.formRows(r), r.Width
	if force || rows != q.rows || w != q.width {
		q.rows, q.width = rows, w
		f.SetFull(q.full)
		f.Resize(w, rows)
		q.dirty = true
	}
	if !q.dirty {
		return
	}
	q.dirty = false
	whole := r.Height > 0 && f.Whole() && len(formLines(f.View())) <= rows
	switch {
	case !whole:
		q.whole, q.ready = false, false
		return
	case q.whole:
		return
	}
	q.whole, q.wholeAt = true, o.now()
	o.checkAfter(o.opts.Grace)
}

// formUpdate gives msg to the shown form; what it draws may have changed
// (a scrolled window, the next question), so it is measured again.
func (o *Overlay) formUpdate(msg tea.Msg) {
	o.q.dirty = true
	o.out().Cmd(o.q.form.Update(msg))
}

// toggleFull opens the shown form full screen, or brings it back inline.
func (o *Overlay) toggleFull() {
	q := &o.q
	q.full = !q.full
	q.whole, q.ready = false, false // it must be seen whole again, laid out anew
	o.Refit(true)
}

// OpenFull opens the shown form full screen when it is not whole inline
// (the pager's key, which otherwise opens the pager); it reports whether
// it did. A watcher has no form.
func (o *Overlay) OpenFull() bool {
	if o.q.form == nil || o.q.whole {
		return false
	}
	o.toggleFull()
	return true
}

// scroller is a form with a window of its own (an approval's diff, or
// its whole text full screen) that some keys scroll.
type scroller interface {
	Scroll(k tea.KeyPressMsg) bool
}

// fullKey handles a key while the form is full screen: the pager's key
// goes back, Ctrl+C is the root's, the window scrolls whether or not the
// form has the keyboard yet (reading it is how it becomes whole), and
// the rest is the form's once it has the keyboard. Nothing goes to the
// composer, which is not on screen.
func (o *Overlay) fullKey(k tea.KeyPressMsg) bool {
	q := &o.q
	switch {
	case key.Matches(k, o.keys.FullScreen):
		o.toggleFull()
		return true
	case key.Matches(k, o.keys.Quit):
		return false
	}
	if s, ok := q.form.(scroller); ok && s.Scroll(k) {
		q.dirty = true
		return true
	}
	if !q.hasKeys() {
		if key.Matches(k, o.keys.FormAbort) {
			o.out().Notice(act.NoticeFormWait, FormWaitNotice)
		}
		return true
	}
	if q.form.Wants(k) {
		o.formUpdate(k)
		o.settle()
	}
	return true
}

// tooSmall is the one line drawn instead of a form that is not whole
// inline.
func (o *Overlay) tooSmall(w int) string {
	full := o.keys.FullScreen.Help().Key
	s := "⚠ request waiting, too long for this window — enlarge it, or " + full + " to answer it full screen"
	for _, shorter := range []string{"⚠ request waiting · " + full + " full screen", "⚠ request · " + full} {
		if lipgloss.Width(s) <= w {
			break
		}
		s = shorter
	}
	return o.look.Styles.Warn.Render(ui.Truncate(s, w))
}

// FullView draws the form full screen: the form from the top, and a
// footer that says how to read, answer and leave. ok is false when no
// form is full screen.
func (o *Overlay) FullView() (string, bool) {
	if !o.FullScreen() {
		return "", false
	}
	r := o.opts.World.Room()
	w, h := r.Width, max(1, r.Height-1)
	full, down := o.keys.FullScreen.Help().Key, o.keys.DiffHalfDown.Help().Key
	lines := formLines(o.q.form.View())
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	choose := o.keys.FormChoose.Help().Key // the key that answers, as rebound
	feet := []string{" request · ↑/↓ choose · " + choose + " answer · " + full + " back", " " + choose + " answer · " + full + " back"}
	if r, ok := o.q.form.(interface{ ReadsOn() bool }); ok && r.ReadsOn() {
		feet = []string{" read on (" + o.keys.DiffLineDown.Help().Key + ", " + down + ") to answer, or enlarge the window · " + full + " back",
			" read on: " + down + " · " + full + " back", " " + down + " · " + full}
	} else if !o.q.whole {
		feet = []string{" too small to show it whole: enlarge the window to answer · " + full + " back",
			" enlarge the window · " + full + " back", " enlarge · " + full}
	}
	foot := feet[0]
	for _, f := range feet[1:] {
		if lipgloss.Width(foot) <= w {
			break
		}
		foot = f
	}
	foot = ui.Truncate(foot, w)
	lines = append(lines, o.look.Styles.Status.Reverse(true).Render(foot+strings.Repeat(" ", max(0, w-lipgloss.Width(foot)))))
	return strings.Join(lines, "\n"), true
}

// FormView is the shown form as drawn inline, above the composer: a
// rule, the form and the queue line, or the one line that says it is
// too long for the window (nil when no form is shown).
func (o *Overlay) FormView() []string {
	f := o.q.form
	if f == nil {
		return nil
	}
	w := o.opts.World.Room().Width
	if !o.q.whole {
		return []string{o.tooSmall(w)} // never drawn cut
	}
	out := []string{o.rule(w)}
	out = append(out, strings.Split(strings.TrimRight(f.View(), "\n"), "\n")...)
	if q := o.queueLine(w); q != "" {
		out = append(out, q)
	}
	return out
}

// rule is the line above a form, a picker or the login form: a dim rule
// across the window, or inline a blank line.
func (o *Overlay) rule(w int) string {
	if o.look.Inline {
		return ""
	}
	return o.look.Styles.Dim.Render(strings.Repeat("─", w))
}

// formLines is a form's drawing as rows, without the blank rows huh
// leaves under it.
func formLines(v string) []string {
	lines := strings.Split(v, "\n")
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

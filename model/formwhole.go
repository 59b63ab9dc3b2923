package model

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/ui"
)

// No blind answer. A request's form takes keys only once it has been on
// screen whole — the whole request (command, reason, question) and the
// highlighted choice — for the grace period (grace.go). A form that does
// not fit the rows below the transcript is not drawn cut: one line says
// so, and no key answers it until the window is large enough or the form
// is opened full screen (keyPager). Full screen, a request too long even
// for the whole window scrolls, and is whole once its end has been shown.
// Each viewer (a pairing guest too) decides this at its own size.

// formRows is how many rows the shown form may take: inline, the room
// below the transcript (formMaxHeight); full screen, the screen less its
// footer.
func (m *Model) formRows() int {
	if m.requests.full {
		return max(1, m.height-1)
	}
	return m.formMaxHeight()
}

// refitForm lays the shown form out again when its room changed (or
// force), and works out whether it is whole now. A form that becomes
// whole starts its grace period from now; one that stops being whole
// loses the keyboard. It runs after every update (cheaply when nothing
// changed) and when a form opens.
func (m *Model) refitForm(force bool) tea.Cmd {
	q := &m.requests
	f := q.form
	if f == nil {
		return nil
	}
	rows, w := m.formRows(), m.contentWidth()
	if force || rows != q.rows || w != q.width {
		q.rows, q.width = rows, w
		f.SetFull(q.full)
		f.Resize(w, rows)
		q.dirty = true
	}
	if !q.dirty {
		return nil
	}
	q.dirty = false
	whole := m.height > 0 && f.Whole() && len(formLines(f.View())) <= rows
	switch {
	case !whole:
		q.whole, q.ready = false, false
		return nil
	case q.whole:
		return nil
	}
	q.whole, q.wholeAt = true, m.opts.GraceNow()
	return m.formCheckAfter(m.opts.FormGrace)
}

// formUpdate gives msg to the shown form; what it draws may have changed
// (a scrolled window, the next question), so it is measured again.
func (m *Model) formUpdate(msg tea.Msg) tea.Cmd {
	m.requests.dirty = true
	return m.requests.form.Update(msg)
}

// toggleFullForm opens the shown form full screen, or brings it back
// inline.
func (m *Model) toggleFullForm() tea.Cmd {
	q := &m.requests
	q.full = !q.full
	q.whole, q.ready = false, false // it must be seen whole again, laid out anew
	return m.refitForm(true)
}

// formScroller is a form with a window of its own (an approval's diff, or
// its whole text full screen) that some keys scroll.
type formScroller interface {
	Scroll(k tea.KeyPressMsg) bool
}

// fullFormKey handles a key while the form is full screen: keyPager goes
// back, Ctrl+C is Ctrl+C, the window scrolls whether or not the form has
// the keyboard yet (reading it is how it becomes whole), and the rest is
// the form's once it has the keyboard. Nothing goes to the composer,
// which is not on screen.
func (m *Model) fullFormKey(k tea.KeyPressMsg) tea.Cmd {
	q := &m.requests
	switch {
	case key.Matches(k, m.keys.FullScreen):
		return m.toggleFullForm()
	case key.Matches(k, m.keys.Quit):
		return m.globalKey(k)
	}
	if s, ok := q.form.(formScroller); ok && s.Scroll(k) {
		q.dirty = true
		return nil
	}
	if !q.hasKeys() {
		if key.Matches(k, m.keys.FormAbort) {
			m.setNotice(noticeFormWait, formWaitNotice)
		}
		return nil
	}
	if !q.form.Wants(k) {
		return nil
	}
	return tea.Batch(m.formUpdate(k), m.settleForm())
}

// formTooSmall is the one line drawn instead of a form that is not whole
// inline.
func (m *Model) formTooSmall(w int) string {
	keyPager := m.keys.FullScreen.Help().Key
	s := "⚠ request waiting, too long for this window — enlarge it, or " + keyPager + " to answer it full screen"
	for _, shorter := range []string{"⚠ request waiting · " + keyPager + " full screen", "⚠ request · " + keyPager} {
		if lipgloss.Width(s) <= w {
			break
		}
		s = shorter
	}
	return m.styles.Warn.Render(ui.Truncate(s, w))
}

// fullFormView draws the form full screen: the form from the top, and a
// footer that says how to read, answer and leave.
func (m *Model) fullFormView() string {
	w := m.contentWidth()
	h := max(1, m.height-1)
	keyPager, down := m.keys.FullScreen.Help().Key, m.keys.DiffHalfDown.Help().Key
	lines := formLines(m.requests.form.View())
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	feet := []string{" request · ↑/↓ choose · enter answer · " + keyPager + " back", " enter answer · " + keyPager + " back"}
	if r, ok := m.requests.form.(interface{ ReadsOn() bool }); ok && r.ReadsOn() {
		feet = []string{" read on (" + m.keys.DiffLineDown.Help().Key + ", " + down + ") to answer, or enlarge the window · " + keyPager + " back",
			" read on: " + down + " · " + keyPager + " back", " " + down + " · " + keyPager}
	} else if !m.requests.whole {
		feet = []string{" too small to show it whole: enlarge the window to answer · " + keyPager + " back",
			" enlarge the window · " + keyPager + " back", " enlarge · " + keyPager}
	}
	foot := feet[0]
	for _, f := range feet[1:] {
		if lipgloss.Width(foot) <= w {
			break
		}
		foot = f
	}
	foot = ui.Truncate(foot, w)
	lines = append(lines, m.styles.Status.Reverse(true).Render(foot+strings.Repeat(" ", max(0, w-lipgloss.Width(foot)))))
	return strings.Join(lines, "\n")
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

package model

import (
	"os"
	"os/exec"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/atotto/clipboard"

	"tandem/forms"
	"tandem/thread"
	"tandem/ui"
)

// pager is the full-screen transcript (Ctrl+T): every cell expanded,
// rendered once when opened.
type pager struct {
	lines []string
	top   int
}

// scroll moves the pager by d lines on a screen height rows tall.
func (p *pager) scroll(d, height int) {
	h := max(1, height-1)
	p.top = min(max(0, p.top+d), max(0, len(p.lines)-h))
}

// view draws the pager: the lines and a one-line footer.
func (p *pager) view(st ui.Styles, w, height int) string {
	h := max(1, height-1)
	end := min(len(p.lines), p.top+h)
	out := make([]string, 0, height)
	out = append(out, p.lines[p.top:end]...)
	for len(out) < h {
		out = append(out, "")
	}
	pct := 100
	if len(p.lines) > h {
		pct = 100 * end / len(p.lines)
	}
	foot := ui.Truncate(" transcript · ↑↓ PgUp/PgDn g/G · o command output · q/esc close · "+strconv.Itoa(pct)+"%", w)
	out = append(out, st.Status.Reverse(true).Render(foot+strings.Repeat(" ", max(0, w-lipgloss.Width(foot)))))
	return strings.Join(out, "\n")
}

// openPager renders the whole transcript, expanded, into the pager (or
// re-renders it, keeping the position). With an approval up it ends with
// everything the approval asks about, uncut.
func (m *Model) openPager() {
	w := m.contentWidth()
	ctx := m.renderContext(0)
	ctx.Expanded = true
	lines := m.view.transcript.RenderAll(ctx, w)
	if a, ok := m.requests.form.(*forms.Approval); ok {
		// What the open approval asks about, whole: the form may have
		// cut it to fit.
		lines = append(lines, "", m.styles.Warn.Render("Waiting for your answer:"))
		for _, l := range a.Detail() {
			lines = append(lines, ui.Wrap(l, w-2)...)
		}
	}
	top := max(0, len(lines)-(m.height-1))
	if m.pager != nil {
		top = m.pager.top
	}
	m.pager = &pager{lines: lines, top: top}
	m.pager.scroll(0, m.height)
}

// pagerKey handles every key while the pager is open.
func (m *Model) pagerKey(key string) tea.Cmd {
	p := m.pager
	h := max(1, m.height-1)
	switch key {
	case "q", "esc", keyPager, "ctrl+c":
		m.pager = nil
	case "o":
		if !m.opts.ReadOnly {
			m.pager = nil
			return m.openOutput()
		}
	case "up", "k":
		p.scroll(-1, m.height)
	case "down", "j", "enter":
		p.scroll(1, m.height)
	case "pgup", "b", "shift+space":
		p.scroll(-h, m.height)
	case "pgdown", "space", "f":
		p.scroll(h, m.height)
	case "home", "g":
		p.scroll(-len(p.lines), m.height)
	case "end", "G":
		p.scroll(len(p.lines), m.height)
	case keyMouse:
		m.mouseOff = !m.mouseOff
	}
	return nil
}

type outputPagerDone struct{ err error }

// openOutput shows the last command's whole output in $PAGER (less), the
// terminal handed over until it exits.
func (m *Model) openOutput() tea.Cmd {
	if m.opts.Guest {
		m.setNotice(noticeInfo, guestNoHostProgram)
		return nil
	}
	it := m.thread.Last(thread.Command)
	if it == nil || it.Output.Bytes() == 0 {
		m.setNotice(noticeInfo, "no command output yet")
		return nil
	}
	path, temp, err := it.Output.FullPath()
	if err != nil {
		m.setNotice(noticeInfo, "could not write the output: "+err.Error())
		return nil
	}
	pager := os.Getenv("PAGER")
	if pager == "" {
		pager = "less"
	}
	cmd := exec.Command("sh", "-c", pager+` "$1"`, "sh", path)
	return tea.ExecProcess(cmd, func(err error) tea.Msg {
		if temp {
			os.Remove(path)
		}
		return outputPagerDone{err}
	})
}

// LastAnswer returns the text of the last agent message ("" if none).
func (m *Model) LastAnswer() string {
	if it := m.thread.Last(thread.Agent); it != nil {
		return it.Text()
	}
	return ""
}

// CopyLastAnswer copies the last agent message to the clipboard: by OSC 52
// (works over SSH) and, where one exists, the native clipboard. It sets a
// status notice either way; /copy calls it.
func (m *Model) CopyLastAnswer() tea.Cmd {
	text := m.LastAnswer()
	if text == "" {
		m.setNotice(noticeInfo, "nothing to copy yet")
		return nil
	}
	m.setNotice(noticeInfo, "copied the last answer")
	if m.opts.Guest { // the host's clipboard is not the guest's
		return tea.SetClipboard(text)
	}
	native := func() tea.Msg {
		_ = clipboard.WriteAll(text) // no native clipboard: OSC 52 alone
		return nil
	}
	return tea.Batch(tea.SetClipboard(text), native)
}

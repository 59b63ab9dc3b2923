package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"tandem/model/act"
)

// What `tandem search` prints: per thread, a line naming it and one
// with the text around the match; or, with --json, one JSON object a
// line.

// searchOutput writes matches to w: color marks the match in colour
// (else between » and «), home is folded to ~ in workspaces, loc is the
// zone dates are shown in.
type searchOutput struct {
	w     io.Writer
	color bool
	home  string
	loc   *time.Location
}

// SGR sequences of the text output.
const (
	sgrBold  = "\x1b[1m"
	sgrDim   = "\x1b[2m"
	sgrMatch = "\x1b[1;31m"
	sgrReset = "\x1b[0m"
)

// text prints each match as two lines and a blank one:
//
//	fix the flaky test · ~/src/app · 2026-12-02 12:55 · turn 3, output · 01a2…
//	    --- FAIL: TestLogin »zebra42fish« expected
func (o searchOutput) text(matches []act.ThreadMatch) error {
	var b strings.Builder
	for i, m := range matches {
		if i > 0 {
			b.WriteByte('\n')
		}
		name := o.style(sgrBold, threadTitle(m))
		b.WriteString(name + o.style(sgrDim, " · "+strings.Join(o.facts(m), " · ")) + "\n")
		b.WriteString("    " + o.marked(m) + "\n")
	}
	_, err := io.WriteString(o.w, b.String())
	return err
}

// facts are a match's details after its name: workspace, date, turn and
// kind, thread id.
func (o searchOutput) facts(m act.ThreadMatch) []string {
	var f []string
	if m.Thread.Cwd != "" {
		f = append(f, o.short(safeLine(m.Thread.Cwd)))
	}
	if m.Thread.UpdatedAt > 0 {
		f = append(f, time.Unix(m.Thread.UpdatedAt, 0).In(o.loc).Format("2006-01-02 15:04"))
	}
	where := ""
	if m.Turn > 0 {
		where = fmt.Sprintf("turn %d", m.Turn)
	}
	if m.Kind != "" {
		where = strings.TrimPrefix(where+", "+safeLine(m.Kind), ", ")
	}
	if where != "" {
		f = append(f, where)
	}
	return append(f, safeLine(m.Thread.ID))
}

// short folds the home directory to ~.
func (o searchOutput) short(p string) string {
	if o.home != "" && (p == o.home || strings.HasPrefix(p, o.home+"/")) {
		return "~" + p[len(o.home):]
	}
	return p
}

// marked is the snippet with its match in colour, or between » and «.
func (o searchOutput) marked(m act.ThreadMatch) string {
	s, lo, hi := m.Snippet, m.Match[0], m.Match[1]
	if lo < 0 || hi > len(s) || lo >= hi {
		return safeLine(s)
	}
	open, end := "»", "«"
	if o.color {
		open, end = sgrMatch, sgrReset
	}
	return safeLine(s[:lo]) + open + safeLine(s[lo:hi]) + end + safeLine(s[hi:])
}

func (o searchOutput) style(sgr, s string) string {
	if !o.color {
		return s
	}
	return sgr + s + sgrReset
}

// threadTitle is what names a thread: its name, else its first prompt.
func threadTitle(m act.ThreadMatch) string {
	if n := m.Thread.Name; n != nil && strings.TrimSpace(*n) != "" {
		return safeLine(*n)
	}
	if p := strings.TrimSpace(m.Thread.Preview); p != "" {
		if r := []rune(safeLine(p)); len(r) > 60 {
			return string(r[:59]) + "…"
		}
		return safeLine(p)
	}
	return "(no prompt)"
}

// safeLine is s on one line with nothing a terminal acts on: control
// characters (C0, DEL, C1) become spaces.
func safeLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}

// searchJSON is one line of `tandem search --json`.
type searchJSON struct {
	Thread  string    `json:"thread"`
	Name    string    `json:"name,omitempty"`
	Preview string    `json:"preview,omitempty"`
	Cwd     string    `json:"cwd,omitempty"`
	Updated time.Time `json:"updated"`
	Turn    int       `json:"turn,omitempty"`
	TurnID  string    `json:"turnId,omitempty"`
	Kind    string    `json:"kind,omitempty"`
	Snippet string    `json:"snippet"`
	Match   [2]int    `json:"match"`
	Path    string    `json:"path,omitempty"`
	Source  string    `json:"source"`
}

// json prints one searchJSON a line; local says the rollouts were read
// (source "rollouts"), else the server's thread/search ("server").
func (o searchOutput) json(matches []act.ThreadMatch, local bool) error {
	enc := json.NewEncoder(o.w)
	src := "server"
	if local {
		src = "rollouts"
	}
	for _, m := range matches {
		j := searchJSON{Thread: m.Thread.ID, Preview: m.Thread.Preview, Cwd: m.Thread.Cwd,
			Updated: time.Unix(m.Thread.UpdatedAt, 0).In(o.loc), Turn: m.Turn, TurnID: m.TurnID,
			Kind: m.Kind, Snippet: m.Snippet, Match: m.Match, Source: src}
		if m.Thread.Name != nil {
			j.Name = *m.Thread.Name
		}
		if m.Thread.Path != nil {
			j.Path = *m.Thread.Path
		}
		if err := enc.Encode(j); err != nil {
			return err
		}
	}
	return nil
}

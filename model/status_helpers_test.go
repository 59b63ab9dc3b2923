package model

import (
	"slices"
	"strings"
	"testing"

	"tandem/model/act"

	"github.com/charmbracelet/x/ansi"
)

// noticeText is the status line's notice (model/status's output).
func noticeText(m *Model) string { _, t := m.stat.Notice(); return t }

// noticeKindOf is the kind of the status line's notice.
func noticeKindOf(m *Model) act.NoticeKind { k, _ := m.stat.Notice(); return k }

// loggedOut reports whether the status line says "logged out".
func loggedOut(m *Model) bool { return slices.Contains(m.stat.Info().Hints, "logged out") }

// pagerText is the pager's whole text, its lines stripped of styles.
func pagerText(t *testing.T, m *Model) string {
	t.Helper()
	var out []string
	for _, l := range m.panes.PagerLines() {
		out = append(out, ansi.Strip(l))
	}
	return strings.Join(out, "\n")
}

package model

import (
	"slices"

	"tandem/model/act"
)

// noticeText is the status line's notice (model/status's output).
func noticeText(m *Model) string { _, t := m.stat.Notice(); return t }

// noticeKindOf is the kind of the status line's notice.
func noticeKindOf(m *Model) act.NoticeKind { k, _ := m.stat.Notice(); return k }

// loggedOut reports whether the status line says "logged out".
func loggedOut(m *Model) bool { return slices.Contains(m.stat.Info().Hints, "logged out") }

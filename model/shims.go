package model

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
	"tandem/model/status"
)

// Transitional: the notice kinds and setters the model's files still
// spell, forwarding to model/status. They go as the files move into
// their components.

type noticeKind = act.NoticeKind

const (
	noticeNone         = act.NoticeNone
	noticeInfo         = act.NoticeInfo
	noticeStarting     = act.NoticeStarting
	noticeQuit         = act.NoticeQuit
	noticeInterrupting = act.NoticeInterrupting
	noticeSteering     = act.NoticeSteering
	noticeBusy         = act.NoticeBusy
	noticeFormWait     = act.NoticeFormWait
	noticeLoginCheck   = act.NoticeLoginCheck
	noticeDead         = act.NoticeDead
	noticeTimeout      = act.NoticeTimeout
	noticeHeld         = act.NoticeHeld
	noticeOpening      = act.NoticeOpening
	noticeImageCheck   = act.NoticeImageCheck
)

// setNotice shows text as a notice of kind.
func (m *Model) setNotice(kind noticeKind, text string) {
	m.stat.Apply(act.SetNotice{Kind: kind, Text: text})
}

// clearNotice removes the notice if it is of one of kinds (any kind when
// none is given).
func (m *Model) clearNotice(kinds ...noticeKind) { m.stat.Apply(act.ClearNotice{Kinds: kinds}) }

// live reports a live session, which notifies: one with a client, or
// one that is not shared (a replay, an export and a watcher are not).
func (m *Model) live() bool { return m.turn.Client() != nil || !m.opts.Shared }

// windowTitle is the terminal's title (model/status).
func (m *Model) windowTitle() string {
	return m.stat.Title(status.TitleFacts{Label: m.stat.Label(m.panes.Name(), m.panes.Thread()),
		Waiting: m.overlay.Waiting(), Running: m.turn.Running()})
}

// noticeKindNow is the kind of the notice shown.
func (m *Model) noticeKindNow() noticeKind { k, _ := m.stat.Notice(); return k }

// shortID shortens a thread id for a line (act.ShortID).
func shortID(id string) string { return act.ShortID(id) }

// oneLine gives the first line of an error, for a banner (act.OneLine).
func oneLine(err error) string { return act.OneLine(err) }

// callCmd is the command that runs fn with a call's context (60 s at
// most) and returns its message: how the commands not yet declared in
// model/act call the app-server, never inside Update.
func callCmd(fn func(ctx context.Context) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		return fn(ctx)
	}
}

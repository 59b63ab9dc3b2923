package model

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// This file holds /init (write AGENTS.md through a normal turn) and
// /logout (`account/logout`).

// initPrompt is Codex's own /init prompt (act.InitPrompt).
var initPrompt = act.InitPrompt

// agentsFile is the file /init writes, in the thread's workspace.
const agentsFile = "AGENTS.md"

// selfHandled is a result message that knows how the model takes it
// (results.go routes it): the messages of this file's commands.
type selfHandled interface {
	apply(m *Model) tea.Cmd
}

// initCheckedMsg is the answer to /init's look for AGENTS.md: err nil
// means it exists, an fs.ErrNotExist error that it does not.
type initCheckedMsg struct {
	path string
	err  error
}

// cmdInit is /init: unless AGENTS.md exists in the thread's workspace
// (asked of the server with `fs/readFile`, so a remote workspace counts),
// it sends Codex's /init prompt as a turn, with the thread's usual
// approvals; the transcript shows "/init" for it.
func (m *Model) cmdInit(string) tea.Cmd {
	c, ok := m.needClient("init")
	if !ok {
		return nil
	}
	if m.panes.Cwd() == "" {
		m.setNotice(noticeInfo, "/init: the thread's workspace is not known yet")
		return nil
	}
	p := path.Join(m.panes.Cwd(), agentsFile)
	return callCmd(func(ctx context.Context) tea.Msg {
		_, err := c.ReadFile(ctx, p)
		return initCheckedMsg{path: p, err: err}
	})
}

func (r initCheckedMsg) apply(m *Model) tea.Cmd {
	switch {
	case r.err == nil:
		m.banner(ui.BannerInfo, agentsFile+" already exists here: /init leaves it as it is (edit it, or remove it and /init again)", []string{r.path})
		return nil
	case !errors.Is(r.err, fs.ErrNotExist):
		m.banner(ui.BannerError, "/init: could not check for "+agentsFile+": "+oneLine(r.err), nil)
		return nil
	case !m.turn.CanStart():
		m.setNotice(noticeInfo, "/init: a turn started meanwhile — /init again once it ends")
		return nil
	}
	m.out.Want(act.Send{Shown: "/init", Text: initPrompt}) // model/turn
	return nil
}

// logoutMsg is the outcome of /logout: the account it logged out of (nil
// when unknown) and the error of `account/logout`.
type logoutMsg struct {
	was *backend.Account
	err error
}

// cmdLogout is /logout: `account/logout`, then the account check again,
// which offers the login form when the provider needs one.
func (m *Model) cmdLogout(string) tea.Cmd {
	c, ok := m.needClient("logout")
	if !ok {
		return nil
	}
	return callCmd(func(ctx context.Context) tea.Msg {
		before, _ := c.ReadAccount(ctx) // only to say what was logged out of
		if err := c.Logout(ctx); err != nil {
			return logoutMsg{err: fmt.Errorf("account/logout: %w", err)}
		}
		return logoutMsg{was: before.Account}
	})
}

func (r logoutMsg) apply(m *Model) tea.Cmd {
	if r.err != nil {
		m.banner(ui.BannerError, "/logout: "+oneLine(r.err), nil)
		return nil
	}
	text := "Logged out"
	if r.was != nil {
		text += " of " + r.was.Describe()
	}
	m.banner(ui.BannerInfo, text+": codex forgot the stored login", nil)
	m.stat.Apply(act.Settings{LoggedOut: act.Bool(true)})
	m.overlay.CheckAccount() // model/overlay: the login form, if one is needed
	return nil
}

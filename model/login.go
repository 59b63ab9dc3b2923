package model

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

// accountMsg is the `account/read` answer checked once the session is up.
type accountMsg struct {
	resp backend.AccountReadResponse
	err  error
}

// loginStartedMsg is the `account/login/start` answer.
type loginStartedMsg struct {
	resp backend.LoginStartResponse
	err  error
}

// login stages.
const (
	loginChoose = iota
	loginAPIKey
	loginWaiting
)

// loginForm is shown when `account/read` says auth is needed: two ways in,
// an API key typed masked, or the ChatGPT device-code flow (URL and code
// shown); it closes on `account/login/completed`.
type loginForm struct {
	stage   int
	choice  int // 0 API key, 1 device code
	input   textinput.Model
	loginID string
	url     string
	code    string
	err     string
}

func newLoginForm() *loginForm {
	ti := textinput.New()
	ti.Placeholder = "sk-…"
	ti.EchoMode = textinput.EchoPassword
	ti.EchoCharacter = '•'
	ti.Prompt = "API key: "
	return &loginForm{input: ti}
}

// checkAccount runs `account/read` and opens the login form when needed.
func (m *Model) checkAccount() tea.Cmd {
	c := m.client
	if c == nil {
		return nil
	}
	return callCmd(func(ctx context.Context) tea.Msg {
		r, err := c.ReadAccount(ctx)
		return accountMsg{resp: r, err: err}
	})
}

func (m *Model) onAccount(msg accountMsg) tea.Cmd {
	if msg.err != nil || !msg.resp.NeedsLogin() {
		return m.releasePrompt() // paste.go: the command line's prompt
	}
	m.login = newLoginForm()
	m.banner(ui.BannerWarning, "codex needs you to log in before it can answer", nil)
	if m.turn.held != "" {
		m.setNotice(noticeLoginCheck, "your prompt is sent once you log in (or skip with esc)")
	}
	return nil
}

// loginKey handles a key press in the login form.
func (m *Model) loginKey(k tea.KeyPressMsg) tea.Cmd {
	f := m.login
	km := m.keys
	if key.Matches(k, km.Quit) {
		return m.quit()
	}
	switch f.stage {
	case loginChoose:
		switch {
		case key.Matches(k, km.FormUp, km.FormDown, km.ListComplete):
			f.choice = 1 - f.choice
		case key.Matches(k, km.FormAbort):
			m.login = nil
			m.setNotice(noticeInfo, "not logged in — turns will fail until you do")
			return m.releasePrompt()
		case key.Matches(k, km.FormChoose):
			f.err = ""
			if f.choice == 0 {
				f.stage = loginAPIKey
				return f.input.Focus()
			}
			f.stage = loginWaiting
			return m.startLogin(backend.LoginStartParams{Type: "chatgptDeviceCode"})
		}
		return nil
	case loginAPIKey:
		switch {
		case key.Matches(k, km.FormAbort):
			f.stage = loginChoose
			f.input.Blur()
			return nil
		case key.Matches(k, km.FormChoose):
			v := strings.TrimSpace(f.input.Value())
			if v == "" {
				return nil
			}
			f.input.SetValue("")
			f.stage = loginWaiting
			return m.startLogin(backend.LoginStartParams{Type: "apiKey", APIKey: v})
		}
		var cmd tea.Cmd
		f.input, cmd = f.input.Update(k)
		return cmd
	case loginWaiting:
		if key.Matches(k, km.FormAbort) {
			var cmd tea.Cmd
			if c := m.client; c != nil && f.loginID != "" {
				id := f.loginID
				cmd = func() tea.Msg {
					ctx, cancel := callCtx()
					defer cancel()
					_ = c.CancelLogin(ctx, id)
					return nil
				}
			}
			f.stage, f.loginID, f.url, f.code = loginChoose, "", "", ""
			return cmd
		}
	}
	return nil
}

// update passes other messages (the cursor's blink) to the key input.
func (f *loginForm) update(msg tea.Msg) tea.Cmd {
	if f.stage != loginAPIKey {
		return nil
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	return cmd
}

// paste adds pasted text to the API key.
func (f *loginForm) paste(text string) {
	f.input.SetValue(f.input.Value() + strings.TrimSpace(text))
}

func (m *Model) startLogin(p backend.LoginStartParams) tea.Cmd {
	c := m.client
	if c == nil {
		return nil
	}
	return callCmd(func(ctx context.Context) tea.Msg {
		r, err := c.Login(ctx, p)
		return loginStartedMsg{resp: r, err: err}
	})
}

func (m *Model) onLoginStarted(msg loginStartedMsg) tea.Cmd {
	f := m.login
	if f == nil {
		return nil
	}
	if msg.err != nil {
		f.stage = loginChoose
		f.err = oneLine(msg.err)
		return nil
	}
	if msg.resp.Type == "apiKey" {
		// An API key is checked and stored by the call itself.
		m.login = nil
		m.banner(ui.BannerInfo, "Logged in with an API key", nil)
		return m.releasePrompt()
	}
	f.loginID, f.url, f.code = msg.resp.LoginID, msg.resp.VerificationURL, msg.resp.UserCode
	return nil
}

func (m *Model) onLoginCompleted(e backend.LoginCompletedEvent) tea.Cmd {
	f := m.login
	if f == nil {
		return nil
	}
	if f.loginID != "" && e.LoginID != nil && *e.LoginID != f.loginID {
		return nil
	}
	if !e.Success {
		f.stage = loginChoose
		f.err = "login failed"
		if e.Error != nil && *e.Error != "" {
			f.err += ": " + *e.Error
		}
		return nil
	}
	m.login = nil
	m.stat.Apply(act.Settings{LoggedOut: act.Bool(false)})
	m.banner(ui.BannerInfo, "Logged in", nil)
	return m.releasePrompt()
}

// view draws the form.
func (f *loginForm) view(st ui.Styles, width int) []string {
	out := []string{st.Accent.Render("Log in to use Codex")}
	switch f.stage {
	case loginChoose:
		for i, opt := range []string{"Use an API key", "Sign in with ChatGPT (device code)"} {
			mark, sty := "  ", st.Dim
			if i == f.choice {
				mark, sty = "› ", st.Accent.Bold(true)
			}
			out = append(out, mark+sty.Render(opt))
		}
		out = append(out, st.Dim.Render("↑/↓ choose · enter continue · esc skip"))
	case loginAPIKey:
		// Without a width the input shows one cell: the placeholder's "s".
		f.input.SetWidth(max(8, width-lipgloss.Width(f.input.Prompt)-1))
		out = append(out, f.input.View(), st.Dim.Render("enter log in · esc back"))
	case loginWaiting:
		if f.url == "" {
			out = append(out, st.Dim.Render("logging in…"))
		} else {
			out = append(out,
				"Open "+st.Accent.Render(ui.SanitizeLine(f.url))+" in a browser",
				"and enter the code "+st.User.Render(ui.SanitizeLine(f.code)),
				st.Dim.Render("waiting for sign-in… esc to cancel"))
		}
	}
	if f.err != "" {
		// Wrapped, not cut: the reason comes last in a long error.
		for _, l := range ui.Wrap(ui.SanitizeLine(f.err), max(1, width)) {
			out = append(out, st.Error.Render(l))
		}
	}
	for i := range out {
		out[i] = ui.Truncate(out[i], width)
	}
	return out
}

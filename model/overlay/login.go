package overlay

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/keys"
	"tandem/ui"
)

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

// CheckAccount asks for the account (`account/read`); the login form
// opens when it needs a login, and act.LoginChecked says when the check
// is over.
func (o *Overlay) CheckAccount() { o.out().Call(act.ToOverlay, act.ReadAccount{}) }

func (o *Overlay) onAccount(msg act.AccountRead) {
	if msg.Err != nil || !msg.Account.NeedsLogin() {
		o.out().Want(act.LoginChecked{})
		return
	}
	o.login = newLoginForm()
	o.out().Banner(ui.BannerWarning, "codex needs you to log in before it can answer", nil)
	o.out().Want(act.LoginAsked{})
}

// loginKey handles a key press in the login form.
func (o *Overlay) loginKey(k tea.KeyPressMsg) {
	f := o.login
	km := o.keys
	if key.Matches(k, km.Quit) {
		o.out().Want(act.Quit{})
		return
	}
	switch f.stage {
	case loginChoose:
		switch {
		case key.Matches(k, km.FormUp):
			f.choice = 0 // no wrapping round: the list stops at its ends
		case key.Matches(k, km.FormDown):
			f.choice = 1
		case key.Matches(k, km.ListComplete):
			f.choice = 1 - f.choice
		case key.Matches(k, km.FormAbort):
			o.login = nil
			o.out().Notice(act.NoticeInfo, "not logged in — turns will fail until you do")
			o.out().Want(act.LoginChecked{})
		case key.Matches(k, km.FormChoose):
			f.err = ""
			if f.choice == 0 {
				f.stage = loginAPIKey
				o.out().Cmd(f.input.Focus())
				return
			}
			f.stage = loginWaiting
			o.out().Call(act.ToOverlay, act.StartLogin{Params: backend.LoginStartParams{Type: "chatgptDeviceCode"}})
		}
	case loginAPIKey:
		switch {
		case key.Matches(k, km.FormAbort):
			f.stage = loginChoose
			f.input.Blur()
		case key.Matches(k, km.FormChoose):
			v := strings.TrimSpace(f.input.Value())
			if v == "" {
				return
			}
			f.input.SetValue("")
			f.stage = loginWaiting
			o.out().Call(act.ToOverlay, act.StartLogin{Params: backend.LoginStartParams{Type: "apiKey", APIKey: v}})
		default:
			var cmd tea.Cmd
			f.input, cmd = f.input.Update(k)
			o.out().Cmd(cmd)
		}
	case loginWaiting:
		if key.Matches(k, km.FormAbort) {
			if f.loginID != "" {
				o.out().Call(act.ToOverlay, act.CancelLogin{ID: f.loginID})
			}
			f.stage, f.loginID, f.url, f.code = loginChoose, "", "", ""
		}
	}
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

func (o *Overlay) onLoginStarted(msg act.LoginStarted) {
	f := o.login
	if f == nil {
		return
	}
	if msg.Err != nil {
		f.stage = loginChoose
		f.err = act.OneLine(msg.Err)
		return
	}
	if msg.Login.Type == "apiKey" {
		// An API key is checked and stored by the call itself.
		o.login = nil
		o.out().Banner(ui.BannerInfo, "Logged in with an API key", nil)
		o.out().Want(act.LoginChecked{})
		return
	}
	f.loginID, f.url, f.code = msg.Login.LoginID, msg.Login.VerificationURL, msg.Login.UserCode
}

// LoginCompleted takes `account/login/completed`: the login form closes
// on success, and says why on failure.
func (o *Overlay) LoginCompleted(e backend.LoginCompletedEvent) {
	f := o.login
	if f == nil {
		return
	}
	if f.loginID != "" && e.LoginID != nil && *e.LoginID != f.loginID {
		return
	}
	if !e.Success {
		f.stage = loginChoose
		f.err = "login failed"
		if e.Error != nil && *e.Error != "" {
			f.err += ": " + *e.Error
		}
		return
	}
	o.login = nil
	o.out().Want(act.Settings{LoggedOut: act.Bool(false)})
	o.out().Banner(ui.BannerInfo, "Logged in", nil)
	o.out().Want(act.LoginChecked{})
}

// view draws the form.
func (f *loginForm) view(st ui.Styles, km *keys.Map, width int) []string {
	choose, abort := km.FormChoose.Help().Key, km.FormAbort.Help().Key
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
		out = append(out, st.Dim.Render("↑/↓ choose · "+choose+" continue · "+abort+" skip"))
	case loginAPIKey:
		// Without a width the input shows one cell: the placeholder's "s".
		f.input.SetWidth(max(8, width-lipgloss.Width(f.input.Prompt)-1))
		out = append(out, f.input.View(), st.Dim.Render(choose+" log in · "+abort+" back"))
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

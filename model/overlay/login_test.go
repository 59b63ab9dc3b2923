package overlay

import (
	"errors"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/keys"
	"tandem/ui"
)

// calls are the calls to the app-server r's overlay asked for.
func calls(r *rig) []act.Action {
	var out []act.Action
	for _, q := range wanted[act.Request](r) {
		if q.For != act.ToOverlay {
			r.t.Errorf("a call for %v, not the overlay", q.For)
		}
		out = append(out, q.Do)
	}
	return out
}

// needLogin opens the login form as an account check that needs one does.
func needLogin(r *rig) {
	r.do(r.o.CheckAccount)
	if got := calls(r); !slices.Equal(got, []act.Action{act.ReadAccount{}}) {
		r.t.Fatalf("calls %v; want account/read", got)
	}
	r.do(func() { r.o.Result(act.AccountRead{Account: backend.AccountReadResponse{RequiresOpenaiAuth: true}}) })
	if !r.o.LoginOpen() || len(wanted[act.LoginAsked](r)) != 1 {
		r.t.Fatalf("login open %v, asked %v", r.o.LoginOpen(), wanted[act.LoginAsked](r))
	}
}

// The account check opens the login form only when a login is needed;
// otherwise (or when it fails) it says the check is over.
func TestAccountCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		read act.AccountRead
	}{
		{"logged in", act.AccountRead{Account: backend.AccountReadResponse{Account: &backend.Account{Type: "apiKey"}, RequiresOpenaiAuth: true}}},
		{"no auth needed", act.AccountRead{}},
		{"failed", act.AccountRead{Err: errors.New("boom")}},
	} {
		r := reqRig(t)
		r.do(func() { r.o.Result(tc.read) })
		if r.o.LoginOpen() || len(wanted[act.LoginChecked](r)) != 1 {
			t.Errorf("%s: login open %v, checked %v", tc.name, r.o.LoginOpen(), wanted[act.LoginChecked](r))
		}
	}
	r := reqRig(t)
	needLogin(r)
	if !strings.Contains(r.view(), "Log in to use Codex") || len(wanted[act.LoginChecked](r)) != 0 {
		t.Fatalf("login form not drawn, or the check said over:\n%s", r.view())
	}
	if !r.o.Waiting() {
		t.Error("the login form does not count as waiting for the user")
	}
}

// The login form takes every key: Esc skips it (the check is over), an
// API key typed masked is sent with account/login/start, Ctrl+C quits.
func TestLoginFormKeys(t *testing.T) {
	r := reqRig(t)
	needLogin(r)
	r.hit(tea.KeyEscape, 0)
	if r.o.LoginOpen() || len(wanted[act.LoginChecked](r)) != 1 || !strings.Contains(r.notice(), "not logged in") {
		t.Fatalf("esc: open %v, checked %v, notice %q", r.o.LoginOpen(), wanted[act.LoginChecked](r), r.notice())
	}

	r = reqRig(t)
	needLogin(r)
	r.hit(tea.KeyEnter, 0) // "Use an API key"
	if !r.paste("sk-") {
		t.Fatal("the key field did not take the paste")
	}
	r.typeText("secret")
	if v := r.view(); strings.Contains(v, "sk-secret") || !strings.Contains(v, "API key: ") {
		t.Fatalf("the key is not masked:\n%s", v)
	}
	r.hit(tea.KeyEnter, 0)
	want := act.StartLogin{Params: backend.LoginStartParams{Type: "apiKey", APIKey: "sk-secret"}}
	if got := calls(r); len(got) != 2 || got[1] != want {
		t.Fatalf("calls %v; want %v", got, want)
	}
	r.do(func() { r.o.Result(act.LoginStarted{Login: backend.LoginStartResponse{Type: "apiKey"}}) })
	if r.o.LoginOpen() || len(wanted[act.LoginChecked](r)) != 1 {
		t.Fatalf("logged in with a key: open %v, checked %v", r.o.LoginOpen(), wanted[act.LoginChecked](r))
	}

	r = reqRig(t)
	needLogin(r)
	r.hit('c', tea.ModCtrl)
	if len(wanted[act.Quit](r)) != 1 {
		t.Fatal("Ctrl+C in the login form did not quit")
	}
}

// The device-code login shows its URL and code and closes when its own
// login completes; Esc while it waits cancels it.
func TestDeviceCodeLogin(t *testing.T) {
	r := reqRig(t)
	needLogin(r)
	r.hit(tea.KeyDown, 0)
	r.hit(tea.KeyEnter, 0)
	if got := calls(r); len(got) != 2 || got[1] != (act.StartLogin{Params: backend.LoginStartParams{Type: "chatgptDeviceCode"}}) {
		t.Fatalf("calls %v", got)
	}
	r.do(func() {
		r.o.Result(act.LoginStarted{Login: backend.LoginStartResponse{Type: "chatgptDeviceCode", LoginID: "L1", VerificationURL: "https://x.example/dev", UserCode: "AB-12"}})
	})
	if v := r.view(); !strings.Contains(v, "https://x.example/dev") || !strings.Contains(v, "AB-12") {
		t.Fatalf("no URL or code:\n%s", v)
	}
	other, mine := "L0", "L1"
	r.do(func() { r.o.LoginCompleted(backend.LoginCompletedEvent{LoginID: &other, Success: true}) })
	if !r.o.LoginOpen() {
		t.Fatal("another login's completion closed the form")
	}
	r.do(func() { r.o.LoginCompleted(backend.LoginCompletedEvent{LoginID: &mine, Success: true}) })
	if r.o.LoginOpen() || len(wanted[act.LoginChecked](r)) != 1 {
		t.Fatalf("completed: open %v, checked %v", r.o.LoginOpen(), wanted[act.LoginChecked](r))
	}
	if s := wanted[act.Settings](r); len(s) != 1 || s[0].LoggedOut == nil || *s[0].LoggedOut {
		t.Errorf("settings %v; want logged out cleared", s)
	}

	r = reqRig(t)
	needLogin(r)
	r.hit(tea.KeyDown, 0)
	r.hit(tea.KeyEnter, 0)
	r.do(func() {
		r.o.Result(act.LoginStarted{Login: backend.LoginStartResponse{Type: "chatgptDeviceCode", LoginID: "L1"}})
	})
	r.hit(tea.KeyEscape, 0)
	if got := calls(r); len(got) != 3 || got[2] != (act.CancelLogin{ID: "L1"}) {
		t.Fatalf("esc while waiting: calls %v", got)
	}
	if !r.o.LoginOpen() || !strings.Contains(r.view(), "Use an API key") {
		t.Fatalf("esc while waiting did not go back to the choice:\n%s", r.view())
	}
}

// The login form's API key field shows its whole placeholder, and a long
// device-code error wraps so its reason is seen.
func TestLoginFormFieldAndErrorFit(t *testing.T) {
	st := ui.NewStyles(true)
	f := newLoginForm()
	f.stage = loginAPIKey
	v := ansi.Strip(strings.Join(f.view(st, keys.Default(), 60), "\n"))
	if !strings.Contains(v, "API key: sk-…") {
		t.Errorf("placeholder cut:\n%s", v)
	}
	f.stage = loginWaiting
	f.err = "account/login/start: the device code flow is not enabled for this workspace: ask your admin to enable it"
	lines := f.view(st, keys.Default(), 40)
	joined := strings.Join(strings.Fields(ansi.Strip(strings.Join(lines, " "))), " ")
	if !strings.Contains(joined, "ask your admin to enable it") {
		t.Errorf("error reason cut:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %q is %d cells wide; want ≤ 40", ansi.Strip(l), w)
		}
	}
}

// The login form's two choices stop at the ends: Up on the first keeps
// it, Down on the last keeps it (Tab still goes from one to the other).
func TestLoginChoicesStopAtTheEnds(t *testing.T) {
	r := reqRig(t)
	needLogin(r)
	r.hit(tea.KeyUp, 0)
	r.hit(tea.KeyEnter, 0)
	if got := calls(r); len(got) != 1 || !strings.Contains(r.view(), "API key: ") {
		t.Fatalf("Up on the first choice, Enter: calls %v\n%s", got, r.view())
	}

	r = reqRig(t)
	needLogin(r)
	r.hit(tea.KeyDown, 0)
	r.hit(tea.KeyDown, 0)
	r.hit(tea.KeyEnter, 0)
	want := act.StartLogin{Params: backend.LoginStartParams{Type: "chatgptDeviceCode"}}
	if got := calls(r); len(got) != 2 || got[1] != want {
		t.Fatalf("Down, Down, Enter: calls %v; want %v", got, want)
	}
}

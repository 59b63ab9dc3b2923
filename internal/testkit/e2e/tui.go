package e2e

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/backend"
	"tandem/model"
)

// Probe wraps a model so a test can read its screen from the program's own
// goroutine (no data race): send a ScreenMsg and read the reply. With
// Freeze, spinner ticks are dropped so screens are deterministic (goldens).
type Probe struct {
	tea.Model
	Freeze bool
	// sizes counts the WindowSizeMsgs seen (nil: not counted).
	sizes *atomic.Int32
}

// ScreenMsg asks a Probe for its current screen as plain text.
type ScreenMsg struct{ Reply chan string }

// AltScreenMsg asks a Probe whether its view is drawn in the alternate
// screen (--no-alt-screen draws inline but for the full screens).
type AltScreenMsg struct{ Reply chan bool }

// PastingMsg asks a Probe whether its model is in a paste burst
// (model.Model.Pasting).
type PastingMsg struct{ Reply chan bool }

// StateMsg asks a Probe for its model's State (model.Model.State), read
// on the program's goroutine.
type StateMsg struct{ Reply chan model.State }

// Init implements tea.Model.
func (p Probe) Init() tea.Cmd { return p.Model.Init() }

// Update implements tea.Model, answering ScreenMsg itself.
func (p Probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(ScreenMsg); ok {
		s.Reply <- ansi.Strip(p.Model.View().Content)
		return p, nil
	}
	if a, ok := msg.(AltScreenMsg); ok {
		a.Reply <- p.Model.View().AltScreen
		return p, nil
	}
	if s, ok := msg.(PastingMsg); ok {
		pm, _ := p.Model.(interface{ State() model.State })
		s.Reply <- pm != nil && pm.State().Pasting
		return p, nil
	}
	if s, ok := msg.(StateMsg); ok {
		pm, _ := p.Model.(interface{ State() model.State })
		var st model.State
		if pm != nil {
			st = pm.State()
		}
		s.Reply <- st
		return p, nil
	}
	if _, ok := msg.(spinner.TickMsg); ok && p.Freeze {
		return p, nil
	}
	if _, ok := msg.(tea.WindowSizeMsg); ok && p.sizes != nil {
		defer p.sizes.Add(1)
	}
	m, cmd := p.Model.Update(msg)
	return Probe{m, p.Freeze, p.sizes}, cmd
}

// View implements tea.Model.
func (p Probe) View() tea.View { return p.Model.View() }

// TUI is a running tandem model under teatest, optionally wired to a live
// session.
type TUI struct {
	TM      *teatest.TestModel
	Session *backend.Session
	Model   *model.Model
}

// NewTUI starts the model in a headless program at w×h with a colour-free
// profile.
func NewTUI(t testing.TB, opts model.Options, w, h int) *TUI {
	return newTUI(t, opts, w, h, false)
}

// NewFrozenTUI is NewTUI with spinner ticks dropped, for golden screens
// (pin Options.Now too).
func NewFrozenTUI(t testing.TB, opts model.Options, w, h int) *TUI {
	return newTUI(t, opts, w, h, true)
}

func newTUI(t testing.TB, opts model.Options, w, h int, freeze bool) *TUI {
	t.Helper()
	opts.NoColor = true
	m := model.New(opts)
	sizes := new(atomic.Int32)
	tm := teatest.NewTestModel(t, Probe{m, freeze, sizes}, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	t.Cleanup(func() { _ = tm.Quit() })
	// The initial size arrives twice: teatest sends it, and the program
	// sends it again from a goroutine of its own (bubbletea's Run), which
	// may land after a test's own WindowSizeMsg and undo it. Wait for both.
	deadline := time.Now().Add(Patience)
	for sizes.Load() < initialSizeMsgs {
		if time.Now().After(deadline) {
			t.Fatalf("the program saw %d of its %d initial window sizes", sizes.Load(), initialSizeMsgs)
		}
		time.Sleep(time.Millisecond)
	}
	return &TUI{TM: tm, Model: m}
}

// initialSizeMsgs is how many WindowSizeMsgs a teatest program receives at
// start (teatest.NewTestModel's and tea.Program.Run's).
const initialSizeMsgs = 2

// Connect starts a session on the env's app-server whose events feed the
// TUI, opens a thread and sends SessionReadyMsg.
func (u *TUI) Connect(t testing.TB, e *Env, approval, sandbox string) {
	t.Helper()
	u.connect(t, Patience, e.Transport(), e.Dir, approval, sandbox)
}

// ConnectTraced is Connect with the protocol traced to trace (a
// sessions.Recorder's Trace records the session as --record does).
func (u *TUI) ConnectTraced(t testing.TB, e *Env, approval, sandbox string, trace func(backend.Direction, []byte)) {
	t.Helper()
	u.connectTraced(t, Patience, e.Transport(), e.Dir, approval, sandbox, trace)
}

// connect starts a session over tr within timeout whose events feed the
// TUI, opens a thread in cwd and sends SessionReadyMsg.
func (u *TUI) connect(t testing.TB, timeout time.Duration, tr backend.Transport, cwd, approval, sandbox string) {
	t.Helper()
	u.connectTraced(t, timeout, tr, cwd, approval, sandbox, nil)
}

func (u *TUI) connectTraced(t testing.TB, timeout time.Duration, tr backend.Transport, cwd, approval, sandbox string, trace func(backend.Direction, []byte)) {
	t.Helper()
	s, resp := startSession(t, timeout, tr, cwd, approval, sandbox, trace, func(msg any) { u.TM.Send(msg) })
	u.Session = s
	u.TM.Send(readyMsg(s, resp))
}

// ask sends the program the probe msg carrying reply and waits for its
// answer; a program that does not answer within Patience fails the test.
func ask[T any](t testing.TB, u *TUI, what string, reply chan T, msg tea.Msg) T {
	t.Helper()
	u.TM.Send(msg)
	select {
	case v := <-reply:
		return v
	case <-time.After(Patience):
		t.Fatalf("the program did not answer a %s probe", what)
		var zero T
		return zero
	}
}

// State returns the model's State, read on the program's goroutine.
func (u *TUI) State(t testing.TB) model.State {
	t.Helper()
	reply := make(chan model.State, 1)
	return ask(t, u, "state", reply, StateMsg{Reply: reply})
}

// Screen returns the current screen as plain text.
func (u *TUI) Screen(t testing.TB) string {
	t.Helper()
	reply := make(chan string, 1)
	return ask(t, u, "screen", reply, ScreenMsg{Reply: reply})
}

// AltScreen reports whether the view is drawn in the alternate screen.
func (u *TUI) AltScreen(t testing.TB) bool {
	t.Helper()
	reply := make(chan bool, 1)
	return ask(t, u, "alt-screen", reply, AltScreenMsg{Reply: reply})
}

// WaitScreen polls the screen until cond holds, failing after timeout with
// the last screen in the message.
func (u *TUI) WaitScreen(t testing.TB, timeout time.Duration, what string, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var s string
	for time.Now().Before(deadline) {
		s = u.Screen(t)
		if cond(s) {
			return s
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatalf("timed out after %v waiting for %s; screen:\n%s", timeout, what, s)
	return ""
}

// Contains returns a WaitScreen condition that holds when every part is on
// screen.
func Contains(parts ...string) func(string) bool {
	return func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	}
}

// Submit types text into the composer and presses Enter (after Type's
// wait, so the Enter sends).
func (u *TUI) Submit(text string) {
	u.Type(text)
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
}

// Type types text into the composer, a key a rune. Keys sent this fast
// are a paste burst to tandem (model/burst.go), in which Enter is a new
// line: Type waits until the program has taken them and the burst has
// ended, so a key sent next is one a person pressed.
func (u *TUI) Type(text string) {
	u.TM.Type(text)
	u.settled()
	time.Sleep(20 * time.Millisecond) // past burstGap: the next key starts no run
	u.settled()
}

// settled waits until the program has taken the keys sent so far and
// they are settled: no paste burst under way, no decisive key waiting
// for a next one (model.Model.Pasting).
func (u *TUI) settled() {
	pasting := func() bool {
		reply := make(chan bool, 1)
		u.TM.Send(PastingMsg{Reply: reply}) // answered after the keys sent before it
		select {
		case p := <-reply:
			return p
		case <-time.After(Patience):
			return false
		}
	}
	for deadline := time.Now().Add(Patience); pasting() && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
}

// Key sends one key press and waits until it has acted (an Enter, or a
// key to a form, waits a moment for a paste: model/hold.go).
func (u *TUI) Key(k tea.KeyPressMsg) {
	u.TM.Send(k)
	u.settled()
}

// Squash drops all whitespace, so text wrapped at any width compares.
func Squash(s string) string { return strings.Join(strings.Fields(s), "") }

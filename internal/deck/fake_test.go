package deck

import (
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/model"
)

// fakePane is a lane's model for tests of the deck alone: it records the
// messages it gets and how often it is drawn, reports the state set on
// it, and answers a message with the command cmdFor gives.
type fakePane struct {
	mu     sync.Mutex
	name   string
	got    []tea.Msg
	views  int
	state  model.State
	cmdFor func(tea.Msg) tea.Cmd
}

func (f *fakePane) Init() tea.Cmd { return nil }

func (f *fakePane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	f.mu.Lock()
	f.got = append(f.got, msg)
	fn := f.cmdFor
	f.mu.Unlock()
	if fn != nil {
		return f, fn(msg)
	}
	return f, nil
}

func (f *fakePane) View() tea.View {
	f.mu.Lock()
	f.views++
	f.mu.Unlock()
	return tea.NewView("the lane " + f.name)
}

func (f *fakePane) State() model.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state
}

// set changes the state the pane reports.
func (f *fakePane) set(fn func(*model.State)) {
	f.mu.Lock()
	fn(&f.state)
	f.mu.Unlock()
}

// received are the messages of type T the pane got.
func received[T any](f *fakePane) []T {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []T
	for _, m := range f.got {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

func (f *fakePane) viewCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.views
}

var epoch = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// newFakeDeck is a deck over fake panes named a, b, c, … (lane ids 1, 2,
// …), 100×30, focused on the first.
func newFakeDeck(t testing.TB, opts Options, names ...string) (*Model, []*fakePane) {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return epoch }
	}
	if opts.Every == nil {
		opts.Every = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil } // no clock: the tests' time stands
	}
	if opts.KeyTime == nil { // keys at a person's pace: a second apart
		keyAt := epoch
		opts.KeyTime = func() time.Time { keyAt = keyAt.Add(time.Second); return keyAt }
	}
	if opts.Home == "" {
		opts.Home = "/home/dev"
	}
	var lanes []Lane
	var panes []*fakePane
	for i, n := range names {
		p := &fakePane{name: n}
		p.state.Summary = model.Summary{ThreadID: "th-" + n, Name: n, Phase: model.PhaseIdle, Cwd: "/home/dev/src/" + n}
		panes = append(panes, p)
		lanes = append(lanes, Lane{ID: LaneID(i + 1), Model: p})
	}
	d := New(opts, lanes...)
	d.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return d, panes
}

// run runs cmd and the commands of the batches it gives, and returns the
// messages they produce (no sequence: the deck's own commands are
// batches).
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, run(c)...)
		}
		return out
	default:
		return []tea.Msg{m}
	}
}

// keyOf is a key press of a binding's first key, as a terminal sends it.
func keyOf(code rune, mod tea.KeyMod) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Mod: mod} }

func text(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// pendingReq is a request of a fake pane's state.
func pendingReq(t testing.TB, rep interface {
	Reply(any, *backend.RPCError) error
}, id string) backend.ServerRequest {
	t.Helper()
	r, err := backend.DecodeRequest(backend.MethodCommandApproval, backend.RequestID(id),
		[]byte(`{"threadId":"th","turnId":"tu","itemId":"call_`+id+`","kind":"command","startedAtMs":1,"environmentId":null,"command":"git push","cwd":"/w"}`), rep.Reply)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func stripped(s string) string { return ansi.Strip(s) }

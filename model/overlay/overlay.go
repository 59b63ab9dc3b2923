package overlay

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"tandem/model/act"
	"tandem/model/keys"
	"tandem/thread"
	"tandem/ui"
)

// Options configure an Overlay.
type Options struct {
	// Keys is the keymap (nil: keys.Default()).
	Keys *keys.Map
	// Grace is how long a form is shown whole before it may take the keys,
	// Quiet how long no key must have been pressed (grace.go); see
	// Periods for the defaults.
	Grace, Quiet time.Duration
	// Now is the time threads' ages are told from in the resume picker
	// (nil: time.Now).
	Now func() time.Time
	// Workspace is the absolute cwd the resume picker lists threads of
	// (all workspaces on Ctrl+A).
	Workspace string
	// World is what the overlay reads of the rest of the model.
	World World
}

// World is what the overlay reads of the rest of the model when it needs
// it; the root implements it.
type World interface {
	// Room is the window and what is drawn under a form.
	Room() Room
	// Draft is the composer's text: one typed since a form appeared keeps
	// the keys from it (grace.go).
	Draft() string
	// ThreadOf is the fold (read only) holding thread id's items — a
	// sub-agent's own, else the session thread's: a file-change approval
	// shows its item's diff from the thread that asks.
	ThreadOf(id string) *thread.State
	// ThreadCwd is the thread's workspace on the server: paths under it are
	// shown relative to it.
	ThreadCwd() string
	// AskerOf names who asks a request of thread id ("Sub-agent Dewey"),
	// "" for the session's thread.
	AskerOf(id string) string
	// Drivers names the drivers of a shared session (a watcher's waiting
	// line).
	Drivers() string
}

// Room is the window as the overlay lays a form out in it.
type Room struct {
	// Width is the content width (at least 20); Height the window's rows
	// (0 before the size is known).
	Width, Height int
	// Below is how many rows are drawn under a form inline: the rule, the
	// composer and the status line.
	Below int
}

// Look is what the overlay draws with.
type Look struct {
	Styles ui.Styles
	// Theme is the forms' huh theme.
	Theme huh.Theme
	// Inline (--no-alt-screen) draws blank rules: a rule as wide as the
	// window would be left behind in the scrollback when the terminal
	// narrows.
	Inline bool
}

// Overlay is everything that takes the keyboard over the composer: the
// server requests waiting for an answer, one form at a time; the pickers;
// and the login form. Use New; it is used by pointer.
type Overlay struct {
	env   act.Env
	opts  Options
	keys  *keys.Map
	look  Look
	q     queue
	pick  *picker
	login *loginForm
	// resume is the open resume picker's scope, sort and pages; seq
	// numbers its queries (older answers are dropped).
	resume *resumeFilter
	seq    int
	// current is the model /model's picker marks ✓.
	current string
}

// Periods fills in a form's grace and quiet periods (Options): 0 takes
// 400 ms and 500 ms, but a quiet period left 0 with a grace period given
// is the grace period (tests shorten both at once).
func Periods(grace, quiet time.Duration) (time.Duration, time.Duration) {
	if quiet == 0 {
		quiet = 500 * time.Millisecond
		if grace != 0 {
			quiet = grace
		}
	}
	if grace == 0 {
		grace = 400 * time.Millisecond
	}
	return grace, quiet
}

// New returns an overlay with nothing shown.
func New(env act.Env, opts Options) *Overlay {
	opts.Grace, opts.Quiet = Periods(opts.Grace, opts.Quiet)
	if opts.Now == nil {
		opts.Now = time.Now
	}
	km := opts.Keys
	if km == nil {
		km = keys.Default()
	}
	return &Overlay{env: env, opts: opts, keys: km}
}

// SetLook draws with look from now on (a dark or light background).
func (o *Overlay) SetLook(look Look) {
	o.look = look
	o.q.dirty = true
}

func (o *Overlay) out() *act.Out { return o.env.Out }

// Msg is a message of the overlay's own (a form's focus check, a reply
// sent): the root hands it to Update.
type Msg interface{ overlayMsg() }

// FocusMsg gives the shown form the keyboard at once, if it is whole,
// without its grace period: tests send it (a program never does).
type FocusMsg struct{}

func (FocusMsg) overlayMsg() {}

// Update takes the overlay's own messages, and passes any other (a
// cursor's blink, a form's internals) to the shown form and the login
// form.
func (o *Overlay) Update(msg tea.Msg) {
	switch msg := msg.(type) {
	case formCheckMsg:
		o.onFormCheck(msg)
	case FocusMsg:
		if o.q.form != nil && o.q.whole {
			o.q.ready = true
		}
	case replySent:
		o.onReplySent(msg)
	case refusedAll:
		o.onRefusedAll(msg)
	default:
		if o.q.form != nil {
			o.formUpdate(msg)
			o.settle()
		}
		if o.login != nil {
			o.out().Cmd(o.login.update(msg))
		}
	}
}

// Result takes the answer to a call the overlay asked for (act.Done's
// Msg).
func (o *Overlay) Result(msg tea.Msg) {
	switch msg := msg.(type) {
	case act.ModelsListed:
		o.onModels(msg)
	case act.ThreadsListed:
		o.onThreads(msg)
	case act.AccountRead:
		o.onAccount(msg)
	case act.LoginStarted:
		o.onLoginStarted(msg)
	}
}

// HasForm reports whether a request's form is shown, with the keys or
// not yet.
func (o *Overlay) HasForm() bool { return o.q.form != nil }

// HasKeys reports whether the shown form has the keyboard.
func (o *Overlay) HasKeys() bool { return o.q.hasKeys() }

// Whole reports whether the shown form, as last laid out, shows the
// whole request and its highlighted choice: only then may it take the
// keys (whole.go).
func (o *Overlay) Whole() bool { return o.q.form != nil && o.q.whole }

// FullScreen reports whether the shown form is full screen: it takes
// every key (Key) and the whole window (FullView).
func (o *Overlay) FullScreen() bool { return o.q.full && o.q.form != nil }

// Open reports whether a picker or the login form is open: it takes the
// keys the shown form does not have.
func (o *Overlay) Open() bool { return o.pick != nil || o.login != nil }

// LoginOpen reports whether the login form is shown.
func (o *Overlay) LoginOpen() bool { return o.login != nil }

// Waiting reports whether something waits for this viewer: a request, or
// the login form (the window's title).
func (o *Overlay) Waiting() bool { return len(o.q.pending) > 0 || o.login != nil }

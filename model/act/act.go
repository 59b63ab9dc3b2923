// Package act is the vocabulary the model's components speak: what a
// component wants done (Out: client calls, intents for other components,
// status notices, transcript banners, and tea commands for its own
// effects), the client calls themselves (Action, run in one place: Run),
// the one clock (Clock) and the viewer's role (Role).
//
// A component never imports the root model or another component: it
// takes messages, reads the facts it is given, and answers with an Out,
// which the root carries out (model.Model.apply). Every call to the
// app-server goes through Run, here, and its result comes back to the
// component that asked (Done.For).
//
// It imports backend (the typed client), thread and ui (the values
// intents carry), internal/rewind (what a rewind's call does with the
// files), and Bubble Tea; nothing else of tandem.
package act

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"tandem/ui"
)

// Owner names a component: who asked for a call, or who an intent is
// for.
type Owner int

// The components (model/*) an Owner names.
const (
	ToRoot Owner = iota
	ToComposer
	ToOverlay
	ToPanes
	ToTurn
	ToCommands
	ToRewind
	ToStatus
)

// Intent is a value one component hands the root for another (or for the
// root itself): its type says what it is and who takes it
// (model.Model.apply routes by type). Intents are plain values.
type Intent any

// Out is what a component asks for while it handles one message. The
// root carries it out in order after the component returns: intents go
// to their owners (which may ask for more), calls run as commands, and
// Cmds run as they are.
type Out struct {
	Cmds    []tea.Cmd
	Intents []Intent
}

// Cmd adds a command of the component's own (a timer, the clipboard, an
// editor); nil is ignored.
func (o *Out) Cmd(c tea.Cmd) {
	if c != nil {
		o.Cmds = append(o.Cmds, c)
	}
}

// Want adds an intent for another component (or the root).
func (o *Out) Want(i Intent) { o.Intents = append(o.Intents, i) }

// Call asks for a call to the app-server whose result goes back to for.
func (o *Out) Call(for_ Owner, a Action) { o.Want(Request{For: for_, Do: a}) }

// Notice shows text on the status line as a notice of kind.
func (o *Out) Notice(kind NoticeKind, text string) { o.Want(SetNotice{Kind: kind, Text: text}) }

// Clear removes the status line's notice when it is of one of kinds (any
// kind when none is given).
func (o *Out) Clear(kinds ...NoticeKind) { o.Want(ClearNotice{Kinds: kinds}) }

// Banner adds a banner to the session thread's transcript, whichever
// pane is shown (a sub-agent's may be).
func (o *Out) Banner(kind ui.BannerKind, text string, detail []string) {
	o.Want(Banner{Kind: kind, Text: text, Detail: detail})
}

// ShownBanner adds a banner to the transcript on screen: the answer to
// something asked there (/help, /status with a sub-agent shown).
func (o *Out) ShownBanner(kind ui.BannerKind, text string, detail []string) {
	o.Want(Banner{Kind: kind, Text: text, Detail: detail, Shown: true})
}

// Take moves another Out's asks to the end of o's.
func (o *Out) Take(p *Out) {
	o.Cmds = append(o.Cmds, p.Cmds...)
	o.Intents = append(o.Intents, p.Intents...)
	p.Cmds, p.Intents = nil, nil
}

// NoticeKind says what a status-line notice is about, so it can be
// cleared when that ends without comparing its text.
type NoticeKind int

// The notice kinds.
const (
	NoticeNone         NoticeKind = iota
	NoticeInfo                    // a passing hint or result ("copied the last answer")
	NoticeStarting                // the app-server is starting
	NoticeQuit                    // Ctrl+C is armed to quit
	NoticeInterrupting            // turn/interrupt was sent
	NoticeSteering                // turn/steer is on its way
	NoticeBusy                    // a call waits to retry after -32001
	NoticeFormWait                // keys keep a new form unfocused
	NoticeLoginCheck              // the command line's prompt waits for the account check
	NoticeDead                    // the app-server is gone
	NoticeTimeout                 // the turn ran past --turn-timeout
	NoticeHeld                    // Enter was refused until the server or thread is ready: "your message stays here"
	NoticeOpening                 // a thread is being loaded (thread/resume)
	NoticeImageCheck              // Enter waits for model/list: does the model take images
	NoticeChecking                // a turn/start or turn/steer got no answer: the server is asked what happened
	// The notices below say why something was refused while a condition
	// holds, and are cleared when it ends.
	NoticeTurnStarting   // a steer before the turn's id is known: cleared once the turn started (or failed, or ended)
	NoticeNoAgents       // /agents with none: cleared when a sub-agent appears
	NoticeRequestWaiting // /agents refused while a form waits: cleared when its request is answered or withdrawn
)

// SetNotice shows Text on the status line (status).
type SetNotice struct {
	Kind NoticeKind
	Text string
}

// ClearNotice clears the status line's notice when it is of one of
// Kinds, or of any kind when Kinds is empty (status).
type ClearNotice struct{ Kinds []NoticeKind }

// Matches reports whether the clear applies to a notice of kind k.
func (c ClearNotice) Matches(k NoticeKind) bool {
	return len(c.Kinds) == 0 || slices.Contains(c.Kinds, k)
}

// Banner is a line (and its detail) in the session thread's transcript,
// or with Shown in the one on screen (panes).
type Banner struct {
	Kind   ui.BannerKind
	Text   string
	Detail []string
	Shown  bool
}

// Env is what every component is built with: the Out it asks into (the
// root's, carried out after each message), the clock and the viewer's
// role.
type Env struct {
	Out   *Out
	Clock Clock
	Role  Role
}

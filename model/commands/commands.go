// Package commands is the slash commands of the model: their table (the
// popup's list, /help), Enter on a draft that reads as a command (run by
// its whole name only, refused with the matches otherwise), the question
// a command asks before it runs (/stop during a turn), and each command's
// handler.
//
// A command does nothing itself: it reads the rest of the model through
// World, asks for calls to the app-server (their answers come back to
// Result), and hands what others do to the root as intents (model/act's
// intents_commands.go): a new thread, a turn, the overlay's pickers, a
// quit. It imports model/act and model/keys, never the root model or
// another component.
package commands

import (
	"strings"
	"time"

	"github.com/atotto/clipboard"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/keys"
	"tandem/ui"
)

// Options configure a Commands.
type Options struct {
	// Keys is the keymap (nil: keys.Default()): /help lists it, and the
	// question's Enter and Esc are its Submit and Interrupt.
	Keys *keys.Map
	// Grace is how long a command's question is shown before Enter
	// confirms it, Quiet how long no key must have come (0: 400 ms and
	// 500 ms, as a form's); measured by the Env's clock.
	Grace, Quiet time.Duration
	// Workspace is the local workspace: /skills lists it while the
	// thread's workspace on the server is not known.
	Workspace string
	// World is what the commands read of the rest of the model.
	World World
	// Clipboard writes text to the native clipboard (/copy; nil: the
	// system's, github.com/atotto/clipboard). An error means there is
	// none: OSC 52 alone carries the copy.
	Clipboard func(text string) error
	// Suspend says the terminal tandem runs on has job control, so Ctrl+Z
	// (and an outside SIGTSTP) may stop it: a shell will resume it
	// (Suspend, suspend.go). False for every viewer of tandem serve.
	Suspend bool
	// FindThreads searches across threads (/search; nil: not here).
	FindThreads act.ThreadFinder
}

// World is what the commands read of the rest of the model when a command
// runs; the root implements it. Every method only reads.
type World interface {
	// Turn is the turn machine's state.
	Turn() Turn
	// Server is the app-server and the session on it.
	Server() Server
	// Status is what /status shows, and /model marks.
	Status() Status
	// Draft is the composer's draft as typed (placeholders unexpanded);
	// Expand is s with its paste placeholders replaced by their text.
	Draft() string
	Expand(s string) string
	// Covered reports that the composer does not have the keys: a form
	// has them, or the pager or a picker is open.
	Covered() bool
	// FormShown reports a server request's form on the screen.
	FormShown() bool
	// AgentShown reports a sub-agent's pane on the screen; Agents lists
	// the rows of /agents' picker (none: there are no sub-agents).
	AgentShown() bool
	Agents() []Agent
	// ThreadCwd is the thread's workspace on the server ("" when not
	// known).
	ThreadCwd() string
	// Diff is the thread's last `turn/diff/updated` diff ("" for none).
	Diff() string
	// LastAnswer is the text of the last agent message ("" for none).
	LastAnswer() string
	// McpStartup is each MCP server's start-up state as last heard of.
	McpStartup() map[string]string
	// UndoBlocked says why /undo can't take back the last turn now (""
	// when it can).
	UndoBlocked() string
	// Recap is the shown thread's turns and the newest when it opened
	// (/recap, /side: aside.go).
	Recap() Recap
}

// Turn is the turn machine as the commands see it.
type Turn struct {
	// Running: a turn runs; Busy: one runs or is being started;
	// Switching: a thread is being opened.
	Running, Busy, Switching bool
	// Seq changes whenever a turn starts or ends.
	Seq int
}

// Server is the app-server as the commands see it.
type Server struct {
	// Online: there is a client to talk to; Ready: and the session is
	// ready (a command that calls the server needs both).
	Online, Ready bool
	// ThreadID is the open thread ("" for none); Version names the
	// app-server ("codex 0.169.0").
	ThreadID, Version string
	// Durable: the session is on the codex daemon; Detached: its link is
	// down.
	Durable, Detached bool
}

// Status is what /status shows.
type Status struct {
	// Info is the status line's values, with the thread's token usage.
	Info ui.StatusInfo
	// Next are the /model and /approvals choices for the next turns;
	// Effort the thread's reasoning effort.
	Next   backend.TurnOptions
	Effort string
}

// Agent is one row of /agents' picker: ID "" goes back to the thread.
type Agent struct{ ID, Name, Detail string }

// Commands is the slash commands and the question one of them waits on.
// Use New; it is used by pointer.
type Commands struct {
	env   act.Env
	opts  Options
	keys  *keys.Map
	world World
	// ask is the command waiting for its confirmation (nil: none).
	ask *asking
	// seq numbers /status' reads; status keeps what each showed before
	// the server's part came back.
	seq    int
	status map[int][]string
	// cur is the command running now; drafts the line each command ran
	// from last, by its name, given back if its call fails.
	cur    running
	drafts map[string]string
	// aside is the side question running (nil: none); looked the turn
	// each thread's last /recap covered, by thread id (aside.go).
	aside  *aside
	looked map[string]string
}

// running is a command as it runs: its name, the line it ran from, and
// whether that was a queued line (not the draft).
type running struct {
	name, raw string
	queued    bool
}

// New returns the slash commands.
func New(env act.Env, opts Options) *Commands {
	if opts.Grace == 0 {
		opts.Grace = 400 * time.Millisecond
	}
	if opts.Quiet == 0 {
		opts.Quiet = 500 * time.Millisecond
	}
	if opts.Clipboard == nil {
		opts.Clipboard = clipboard.WriteAll
	}
	km := opts.Keys
	if km == nil {
		km = keys.Default()
	}
	return &Commands{env: env, opts: opts, keys: km, world: opts.World, status: map[int][]string{}, drafts: map[string]string{}, looked: map[string]string{}}
}

func (c *Commands) out() *act.Out { return c.env.Out }

// Entry is a command as the popup lists it: its name (without "/") and
// what it does, with the key that does the same as the keymap binds it.
type Entry struct{ Name, About string }

// Entries lists the commands in the order /help lists them.
func (c *Commands) Entries() []Entry {
	out := make([]Entry, len(table))
	for i, cmd := range table {
		out[i] = Entry{Name: cmd.name, About: cmd.about(c.keys)}
	}
	return out
}

// Result takes the answer to a call a command asked for (act.Done's Msg).
func (c *Commands) Result(msg tea.Msg) {
	switch msg := msg.(type) {
	case act.ThreadRenamed:
		c.onRenamed(msg)
	case act.CompactStarted:
		c.onCompact(msg)
	case act.McpServersListed:
		c.onMcp(msg)
	case act.McpLoginURL:
		c.onMcpLogin(msg)
	case act.HooksListed:
		c.onHooks(msg)
	case act.StatusRead:
		c.onStatus(msg)
	case act.SkillsListed:
		c.onSkills(msg)
	case act.FileRead:
		c.onInitCheck(msg)
	case act.LoggedOut:
		c.onLogout(msg)
	case act.AsideAnswered:
		c.onAside(msg)
	case act.ThreadsFound:
		c.onThreadsFound(msg)
	}
}

// failed shows a command's call that failed as an error banner, and
// gives back the line the command ran from (keep); name is the command's
// name, then what it did ("mcp login").
func (c *Commands) failed(name string, err error) {
	c.out().Banner(ui.BannerError, "/"+name+": "+act.OneLine(err), nil)
	c.giveBack(name, "/"+name+" failed")
}

// giveBack keeps the line the command name ran from (its first word),
// once, saying why: a refusal decided after its call came back. It
// reports false when no line is known (nothing is said).
func (c *Commands) giveBack(name, why string) bool {
	cmd, _, _ := strings.Cut(name, " ")
	raw := c.drafts[cmd]
	if raw == "" {
		return false
	}
	delete(c.drafts, cmd)
	c.keep(raw, why)
	return true
}

// info shows a command's outcome as an info banner.
func (c *Commands) info(title string, lines []string) {
	c.out().Banner(ui.BannerInfo, title, lines)
}

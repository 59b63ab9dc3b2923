package thread

import (
	"strings"
	"time"
)

// Key names an item of a thread: the turn it belongs to and its id in
// that turn. A turn's plan has a key of tandem's own (see Apply).
type Key struct {
	Turn, Item string
}

// Kind says what an Item is and which of its fields are set.
type Kind int

// Item kinds.
const (
	User       Kind = iota // a userMessage: Text, Images
	Agent                  // an agentMessage: Text (Markdown), streamed
	Reasoning              // a reasoning summary: Text, streamed
	Command                // a commandExecution: Command, Cwd, Source, ExitCode, Duration, Output
	FileChange             // a fileChange: Files
	Tool                   // any other tool-like item: Type, Title, Detail, Markdown
	Plan                   // the turn's plan (`turn/plan/updated`): Text (explanation), Steps
)

// Item is one entry of a thread as the fold knows it. Rev increases with
// every change, so a view can cache what it drew of an item by (item,
// Rev, width). Fields not used by the item's Kind are zero.
type Item struct {
	Key  Key
	Kind Kind
	// Type is the protocol's item type ("commandExecution", "webSearch",
	// …); "" for plans.
	Type string
	Rev  int
	// Done is set once the item completed (item/completed, or history),
	// or was cut (Cut).
	Done bool
	// Cut says that an agent message or reasoning summary never completed:
	// its turn ended (an interrupt) or the user steered the turn while it
	// streamed. Done is set too, and Text is what streamed; a late
	// item/completed clears it.
	Cut bool
	// Status is the item's status as the server says it ("inProgress",
	// "completed", "failed", "declined"; "" when it has none).
	Status string

	// text is the item's text (see Text); TextGen changes when the text
	// is replaced rather than appended to (a final text that differs from
	// what streamed), so a view drawing it incrementally starts over.
	text    strings.Builder
	TextGen int

	// User: the message's images, a path on the server's machine for a
	// "localImage" input, the URL of an "image" input.
	Images []string

	// Command
	Command  string
	Cwd      string
	Source   string // "agent", "userShell", "unifiedExecStartup", …
	ExitCode *int
	Duration time.Duration
	Output   *Output

	// FileChange
	Files []FileDiff

	// Tool
	Title, Detail string
	// Markdown asks for Detail drawn as Markdown (a plan-mode plan).
	Markdown bool
	// Quiet asks for one dim line (a hook, an item kind tandem does not
	// know); Progress is an MCP tool call's latest progress message.
	Quiet    bool
	Progress string
	// Stdin is what the agent last typed into a running command (it was
	// waiting for terminal input).
	Stdin string

	// Plan
	Steps []PlanStep
}

// Text returns the item's text: the user's message, the agent's Markdown,
// the reasoning summary or the plan's explanation.
func (it *Item) Text() string { return it.text.String() }

// FileDiff is one file of a file change, as the server gave it: Path is
// absolute on the server's machine, Kind "add", "delete" or "update",
// Diff a unified diff (or the whole content of an added or deleted file),
// MovePath where an update moved the file ("" when it stayed).
type FileDiff struct {
	Path, Kind, Diff string
	MovePath         string
}

// The kinds of a FileDiff, as the server names them.
const (
	FileAdd    = "add"
	FileDelete = "delete"
	FileUpdate = "update"
)

// PlanStep is one step of a plan; Status is "pending", "inProgress" or
// "completed".
type PlanStep struct {
	Step, Status string
}

func (it *Item) setText(s string) {
	if s == it.text.String() {
		return
	}
	it.text.Reset()
	it.text.WriteString(s)
	it.TextGen++
}

func (it *Item) appendText(s string) { it.text.WriteString(s) }

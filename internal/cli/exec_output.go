package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/ui"
)

// execOutput turns the event stream into stdout/stderr output.
type execOutput struct {
	io     execIO
	jsonl  bool
	dark   bool
	answer string // the last completed agent message
	usage  *execUsage
	errMsg string // the last turn error that will not be retried
}

// execEvent is one line of `tandem exec --json`: Type names the event
// ("thread.started", "turn.started", "item.started", "item.completed",
// "approval.declined", "request.refused", "warning", "error",
// "turn.completed", "turn.failed", "server.exited") and only the fields
// that event has are set. Every line is redacted before it is written.
type execEvent struct {
	Type     string     `json:"type"`
	ThreadID string     `json:"thread_id,omitempty"`
	TurnID   string     `json:"turn_id,omitempty"`
	Model    string     `json:"model,omitempty"`
	Item     *execItem  `json:"item,omitempty"`
	Method   string     `json:"method,omitempty"`
	ItemID   string     `json:"item_id,omitempty"`
	Command  string     `json:"command,omitempty"`
	Tool     string     `json:"tool,omitempty"`
	Message  string     `json:"message,omitempty"`
	Retrying bool       `json:"will_retry,omitempty"`
	Status   string     `json:"status,omitempty"`
	Usage    *execUsage `json:"usage,omitempty"`
	Error    *execError `json:"error,omitempty"`
	Stderr   []string   `json:"stderr,omitempty"`
}

// execItem is a thread item as exec reports it (a subset of the
// protocol's `ThreadItem`, snake_case, variant fields only when set).
type execItem struct {
	ID         string           `json:"id"`
	Type       string           `json:"type"`
	Text       string           `json:"text,omitempty"`
	Summary    []string         `json:"summary,omitempty"`
	Command    string           `json:"command,omitempty"`
	Cwd        string           `json:"cwd,omitempty"`
	Status     string           `json:"status,omitempty"`
	ExitCode   *int             `json:"exit_code,omitempty"`
	Output     *string          `json:"output,omitempty"`
	DurationMs *int64           `json:"duration_ms,omitempty"`
	Changes    []execFileChange `json:"changes,omitempty"`
	Server     string           `json:"server,omitempty"`
	Tool       string           `json:"tool,omitempty"`
	Arguments  string           `json:"arguments,omitempty"`
	Success    *bool            `json:"success,omitempty"`
	Query      string           `json:"query,omitempty"`
	Path       string           `json:"path,omitempty"`
}

type execFileChange struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	Diff string `json:"diff,omitempty"`
}

// execUsage is the thread's token usage (tokens) when the turn ended.
type execUsage struct {
	InputTokens       int64 `json:"input_tokens"`
	CachedInputTokens int64 `json:"cached_input_tokens"`
	OutputTokens      int64 `json:"output_tokens"`
	ReasoningTokens   int64 `json:"reasoning_output_tokens"`
	TotalTokens       int64 `json:"total_tokens"`
}

type execError struct {
	Message string `json:"message"`
	Details string `json:"details,omitempty"`
}

func newExecItem(it backend.Item) *execItem {
	x := &execItem{ID: it.ID, Type: it.Type, Text: it.Text, Summary: it.Summary, Command: it.Command, Cwd: it.Cwd,
		Status: it.Status, ExitCode: it.ExitCode, Output: it.AggregatedOutput, DurationMs: it.DurationMs,
		Server: it.Server, Tool: it.Tool, Success: it.Success, Query: it.Query, Path: it.Path}
	if it.Type == "userMessage" {
		x.Text = it.UserText()
	}
	if len(it.Arguments) > 0 && string(it.Arguments) != "null" {
		x.Arguments = string(it.Arguments)
	}
	for _, c := range it.Changes {
		x.Changes = append(x.Changes, execFileChange{Path: c.Path, Kind: c.Kind.Type, Diff: c.Diff})
	}
	return x
}

// emit writes one redacted JSON line (in --json mode only).
func (o *execOutput) emit(ev execEvent) {
	if !o.jsonl {
		return
	}
	line, err := json.Marshal(ev)
	if err != nil {
		return
	}
	line = append(backend.RedactJSON(line), '\n')
	_, _ = o.io.Stdout.Write(line)
}

// note writes one redacted line to stderr (in text mode only).
func (o *execOutput) note(format string, args ...any) {
	if o.jsonl {
		return
	}
	fmt.Fprintln(o.io.Stderr, "tandem: "+ui.SanitizePlain(redact.String(fmt.Sprintf(format, args...))))
}

// handle folds one event or server request; done reports the end of the
// run, with err nil only for a completed turn.
func (o *execOutput) handle(v any, turnID string) (done bool, err error) {
	switch e := v.(type) {
	case backend.TurnStartedEvent:
		o.emit(execEvent{Type: "turn.started", ThreadID: e.ThreadID, TurnID: e.Turn.ID})
	case backend.ItemStartedEvent:
		o.emit(execEvent{Type: "item.started", ThreadID: e.ThreadID, TurnID: e.TurnID, Item: newExecItem(e.Item)})
	case backend.ItemCompletedEvent:
		o.emit(execEvent{Type: "item.completed", ThreadID: e.ThreadID, TurnID: e.TurnID, Item: newExecItem(e.Item)})
		if e.Item.Type == "agentMessage" && strings.TrimSpace(e.Item.Text) != "" {
			o.answer = e.Item.Text
		}
	case backend.TokenUsageEvent:
		t := e.TokenUsage.Total
		o.usage = &execUsage{InputTokens: t.InputTokens, CachedInputTokens: t.CachedInputTokens, OutputTokens: t.OutputTokens,
			ReasoningTokens: t.ReasoningOutputTokens, TotalTokens: t.TotalTokens}
	case backend.WarningEvent:
		o.emit(execEvent{Type: "warning", Message: e.Text()})
	case backend.ErrorEvent:
		o.emit(execEvent{Type: "error", ThreadID: e.ThreadID, TurnID: e.TurnID, Message: e.Error.Message, Retrying: e.WillRetry})
		if !e.WillRetry {
			o.errMsg = e.Error.Message
		}
	case backend.TurnCompletedEvent:
		if turnID != "" && e.Turn.ID != turnID {
			return false, nil
		}
		return true, o.finish(e)
	case backend.ServerExitedEvent:
		o.emit(execEvent{Type: "server.exited", Status: e.Status, Stderr: e.Stderr})
		msg := "app-server " + e.Status + " before the turn ended"
		if n := len(e.Stderr); n > 0 {
			msg += ": " + e.Stderr[n-1]
		}
		return true, errors.New(redact.String(msg))
	case backend.ServerRequest:
		o.refuse(e)
	}
	return false, nil
}

// refuse answers a server request without a person: auto-answered
// requests get their fixed answer, approvals are declined (fail closed),
// ask_user_question fails as a declined tool call, anything else gets its
// safest refusal.
func (o *execOutput) refuse(r backend.ServerRequest) {
	var err error
	switch q := r.(type) {
	case backend.AutoAnswered:
		err = q.AutoAnswer()
	case *backend.CommandApprovalRequest:
		err = q.Answer(backend.Decline)
		cmd := ""
		if q.Params.Command != nil {
			cmd = *q.Params.Command
		}
		o.emit(execEvent{Type: "approval.declined", Method: r.Method(), ItemID: q.Params.ItemID, Command: cmd})
		o.note("declined a command (approvals fail closed in exec; -a never runs commands without asking): %s", cmd)
	case *backend.FileChangeApprovalRequest:
		err = q.Answer(backend.Decline)
		o.emit(execEvent{Type: "approval.declined", Method: r.Method(), ItemID: q.Params.ItemID})
		o.note("declined a file change (approvals fail closed in exec; -a never applies changes without asking)")
	case *backend.ToolCallRequest:
		err = q.Fail("the user cannot be asked: tandem exec runs non-interactively; continue without an answer")
		o.emit(execEvent{Type: "request.refused", Method: r.Method(), Tool: q.Params.Tool})
		o.note("declined %s: nobody to ask in exec", q.Params.Tool)
	default:
		err = r.Refuse()
		o.emit(execEvent{Type: "request.refused", Method: r.Method()})
		o.note("refused %s: nobody to ask in exec", r.Method())
	}
	if err != nil {
		o.note("answering %s: %v", r.Method(), err)
	}
}

// finish reports the end of the turn: the answer (text mode) or the
// closing event (JSON mode).
func (o *execOutput) finish(e backend.TurnCompletedEvent) error {
	if e.Turn.Status == backend.TurnCompleted {
		o.emit(execEvent{Type: "turn.completed", ThreadID: e.ThreadID, TurnID: e.Turn.ID, Status: e.Turn.Status, Usage: o.usage})
		if !o.jsonl {
			o.printAnswer()
		}
		return nil
	}
	msg := o.errMsg
	var details string
	if e.Turn.Error != nil {
		msg = e.Turn.Error.Message
		if e.Turn.Error.AdditionalDetails != nil {
			details = *e.Turn.Error.AdditionalDetails
		}
	}
	if msg == "" {
		msg = "turn " + e.Turn.Status
	}
	o.emit(execEvent{Type: "turn.failed", ThreadID: e.ThreadID, TurnID: e.Turn.ID, Status: e.Turn.Status, Usage: o.usage, Error: &execError{Message: msg, Details: details}})
	return fmt.Errorf("turn %s: %s", e.Turn.Status, redact.String(msg))
}

// printAnswer writes the final agent message: rendered Markdown on a
// terminal, the Markdown source otherwise.
func (o *execOutput) printAnswer() {
	text := redact.String(o.answer)
	if text == "" {
		return
	}
	if !o.io.TTY {
		// The agent's text must not drive the reader's terminal (OSC 52,
		// clear screen, title) when the pipe ends on one.
		_, _ = io.WriteString(o.io.Stdout, strings.TrimRight(ui.SanitizePlain(text), "\n")+"\n")
		return
	}
	style := "light"
	if o.dark {
		style = "dark"
	}
	if os.Getenv("NO_COLOR") != "" {
		style = "notty"
	}
	width := o.io.Width
	if width <= 0 {
		width = 80
	}
	lines := ui.NewMarkdown(style).Render(ui.Sanitize(text), width)
	_, _ = io.WriteString(o.io.Stdout, strings.Join(lines, "\n")+"\n")
}

package sessions

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"tandem/backend"
	"tandem/internal/lib/redact"
	"tandem/internal/lib/shellwords"
	"tandem/internal/lib/termsafe"
)

// A cast's chapters are its markers ("m" events), one per turn, per
// approval and per question, labelled for a player's chapter list:
//
//	turn 3: fix the test        (the turn's number and its prompt)
//	approval: rm -rf build      (a command, or what else is asked)
//	question: which database?   (the agent's first question)
//
// Labels are one line of at most ChapterWidth characters, redacted.
// picture.IsTurnMarker recognises the turn labels (and the "turn
// started" of older casts).

// ChapterWidth is the most characters a chapter's label has.
const ChapterWidth = 72

// Chapters labels a session's chapters as its events come, counting
// turns. The zero value is ready to use; it is not safe for concurrent
// use.
type Chapters struct {
	turns  int
	prompt string // the last prompt sent, for the turn it starts
}

// Wire labels one raw JSON-RPC line of a live session (a trace hook's
// line): a turn/started, an approval or a question the server sent gives
// a label; a prompt tandem sent (turn/start) is kept for its turn's.
func (c *Chapters) Wire(dir backend.Direction, line []byte) (string, bool) {
	e := Entry{Dir: dir, Msg: line}
	m, ok := e.Message()
	if !ok {
		return "", false
	}
	switch {
	case dir == backend.Sent && m.Kind() == "request":
		if call, _ := backend.DecodeCall(m.Method, m.Params); call != nil {
			if p, ok := call.(backend.PromptCall); ok && !p.Steer {
				c.prompt = strings.Join(p.Texts, " ")
			}
		}
	case dir == backend.Received && m.Kind() == "notification":
		if ev, _ := backend.DecodeNotification(m.Method, m.Params); ev != nil {
			return c.Value(ev)
		}
	case dir == backend.Received && m.Kind() == "request":
		if req, _ := backend.DecodeRequest(m.Method, m.ID, m.Params, nil); req != nil {
			return c.Value(req)
		}
	}
	return "", false
}

// Prompt sets the prompt of the next turn's label (a Timeline's
// userMessage item comes after its turn/started: the caller looks ahead).
func (c *Chapters) Prompt(text string) { c.prompt = text }

// Value labels one decoded value (a backend.Event or ServerRequest, as a
// Timeline or the wire gives them): a turn start ("turn N: prompt", or
// "turn N" without a prompt), an approval or a question.
func (c *Chapters) Value(v any) (string, bool) {
	switch v := v.(type) {
	case backend.TurnStartedEvent:
		c.turns++
		label := "turn " + strconv.Itoa(c.turns)
		if p := c.prompt; strings.TrimSpace(p) != "" {
			label += ": " + p
		}
		c.prompt = ""
		return chapterLabel(label), true
	case *backend.CommandApprovalRequest:
		what := "run a command"
		if p := v.Params; p.Command != nil && *p.Command != "" {
			what = shellwords.Display(*p.Command) // as the screen shows it: no bash -lc wrapper
		} else if p.NetworkApprovalContext != nil {
			what = "network access"
		}
		return chapterLabel("approval: " + what), true
	case *backend.ExecCommandApprovalRequest:
		return chapterLabel("approval: " + shellwords.Join(v.Params.Command)), true
	case *backend.FileChangeApprovalRequest:
		return chapterLabel("approval: " + orElse(v.Params.Reason, "edit files")), true
	case *backend.ApplyPatchApprovalRequest:
		return chapterLabel("approval: edit " + strings.Join(v.Params.Paths(), ", ")), true
	case *backend.PermissionsApprovalRequest:
		return chapterLabel("approval: " + orElse(v.Params.Reason, "more permissions")), true
	case *backend.UserInputRequest:
		if qs := v.Params.Questions; len(qs) > 0 {
			return chapterLabel("question: " + qs[0].Question), true
		}
		return chapterLabel("question"), true
	case *backend.ToolCallRequest:
		if v.Params.Tool != backend.AskUserQuestionName {
			return "", false
		}
		if args, err := backend.ParseAskUserQuestion(v.Params.Arguments); err == nil && len(args.Questions) > 0 {
			return chapterLabel("question: " + args.Questions[0].Question), true
		}
		return chapterLabel("question"), true
	case *backend.ElicitationRequest:
		return chapterLabel("question: " + v.Params.Message), true
	}
	return "", false
}

// TimelineChapters labels the chapters of a Timeline: index → label. A
// turn's label takes its prompt from the turn's userMessage item, which
// codex sends after its turn/started (or one sent before it, since the
// turn before).
func TimelineChapters(tl []Timed) map[int]string {
	out := map[int]string{}
	var c Chapters
	before := ""   // a userMessage since the last turn started (a server that sends it first)
	ahead := false // this turn's prompt came from after its start: its userMessage is not the next turn's
	for i, t := range tl {
		if p, ok := UserPrompt(t.Value); ok && !ahead {
			before = p
		}
		if _, ok := t.Value.(backend.TurnStartedEvent); ok {
			ahead = before == ""
			if ahead {
				c.Prompt(promptAhead(tl[i+1:]))
			} else {
				c.Prompt(before)
			}
			before = ""
		}
		if label, ok := c.Value(t.Value); ok {
			out[i] = label
		}
	}
	return out
}

// promptAhead is the text of the first userMessage item before the next
// turn starts.
func promptAhead(tl []Timed) string {
	for _, t := range tl {
		if _, ok := t.Value.(backend.TurnStartedEvent); ok {
			return ""
		}
		if p, ok := UserPrompt(t.Value); ok {
			return p
		}
	}
	return ""
}

// UserPrompt is the prompt of a userMessage item's event (item/started
// or item/completed); ok is false for any other value.
func UserPrompt(v any) (string, bool) {
	var it backend.Item
	switch e := v.(type) {
	case backend.ItemStartedEvent:
		it = e.Item
	case backend.ItemCompletedEvent:
		it = e.Item
	default:
		return "", false
	}
	return it.UserText(), it.Type == "userMessage"
}

func orElse(s *string, def string) string {
	if s == nil || strings.TrimSpace(*s) == "" {
		return def
	}
	return *s
}

// chapterLabel is s redacted, its controls and escape sequences shown
// visibly (termsafe.Controls: a prompt's "\x1b]0;…\x07" cannot reach the
// terminal of whoever plays the cast), on one line (runs of white space
// one space), cut to ChapterWidth characters with an ellipsis.
func chapterLabel(s string) string {
	s = strings.Join(strings.Fields(termsafe.Controls(redact.String(s))), " ")
	if utf8.RuneCountInString(s) <= ChapterWidth {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:ChapterWidth-1]), " ") + "…"
}

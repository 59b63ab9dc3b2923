package mockapi

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Response is what the mock answers to one POST /v1/responses (one model
// round). A model turn that calls tools spans several rounds: one Response
// carrying the function_call items, then (after codex ran the tools and
// POSTed their outputs) another Response, usually with the final text.
type Response struct {
	// Items are the output items, streamed in order.
	Items []Item
	// Usage is reported in the closing response.completed event. A zero
	// TotalTokens is filled in as InputTokens+OutputTokens.
	Usage Usage
	// ChunkDelay is slept between consecutive SSE events (slow streams,
	// interrupt tests). The stream stops early when the client goes away.
	ChunkDelay time.Duration
	// FailStatus, if non-zero, makes the mock answer with this HTTP status
	// and a JSON error body instead of an SSE stream.
	FailStatus int
	// FailMessage is the error message used with FailStatus; a default is
	// used when empty.
	FailMessage string
	// When, if set, says which request this response answers: the server
	// gives each request the first queued response whose When accepts it
	// (nil accepts any). Requests that run at once — a sub-agent's and
	// its parent's — get their own responses this way.
	When func(Request) bool
}

// Usage is the token usage reported in response.completed. Codex turns it
// into the thread/tokenUsage/updated notification (inputTokens,
// cachedInputTokens, outputTokens, reasoningOutputTokens, totalTokens).
type Usage struct {
	// InputTokens is usage.input_tokens.
	InputTokens int64
	// OutputTokens is usage.output_tokens.
	OutputTokens int64
	// ReasoningTokens is usage.output_tokens_details.reasoning_tokens.
	ReasoningTokens int64
	// CachedTokens is usage.input_tokens_details.cached_tokens.
	CachedTokens int64
	// TotalTokens is usage.total_tokens; 0 means InputTokens+OutputTokens.
	TotalTokens int64
}

// ItemKind says which kind of Responses API output item an Item is.
type ItemKind int

const (
	// KindMessage is an assistant message (type "message", role "assistant").
	KindMessage ItemKind = iota
	// KindFunctionCall is a function tool call (type "function_call").
	KindFunctionCall
	// KindReasoning is a reasoning item with one summary part.
	KindReasoning
)

// String returns the Responses API item type of k.
func (k ItemKind) String() string {
	switch k {
	case KindMessage:
		return "message"
	case KindFunctionCall:
		return "function_call"
	case KindReasoning:
		return "reasoning"
	}
	return fmt.Sprintf("ItemKind(%d)", int(k))
}

// Item is one output item of a Response. Build it with Text, TextChunks,
// Call, CallID, ExecCommand or Reasoning.
type Item struct {
	// Kind selects which of the fields below apply.
	Kind ItemKind
	// Chunks are the streamed deltas of a message (their concatenation is the
	// message text) or of a reasoning summary.
	Chunks []string
	// Name is the function name of a function_call; Namespace the tool
	// namespace it belongs to ("multi_agent_v1" for the sub-agent tools),
	// "" for a top-level tool.
	Name      string
	Namespace string
	// CallID is the call_id of a function_call.
	CallID string
	// Arguments is the JSON-encoded arguments string of a function_call.
	Arguments string
}

// Text returns the concatenation of the item's chunks: the message text or
// the reasoning summary.
func (it Item) Text() string {
	n := 0
	for _, c := range it.Chunks {
		n += len(c)
	}
	b := make([]byte, 0, n)
	for _, c := range it.Chunks {
		b = append(b, c...)
	}
	return string(b)
}

// DefaultChunkRunes is how many runes Text and Reasoning put in one delta.
const DefaultChunkRunes = 4

// Text returns an assistant message streamed in small deltas of
// DefaultChunkRunes runes each. A UTF-8 rune is never split (invalid bytes
// count as one rune each and are kept as they are).
func Text(markdown string) Item {
	return Item{Kind: KindMessage, Chunks: SplitRunes(markdown, DefaultChunkRunes)}
}

// TextChunks returns an assistant message streamed as exactly these deltas.
func TextChunks(chunks ...string) Item {
	return Item{Kind: KindMessage, Chunks: append([]string(nil), chunks...)}
}

var callSeq atomic.Int64

// NewCallID returns a fresh, process-unique call_id ("call_mock_N").
func NewCallID() string {
	return fmt.Sprintf("call_mock_%d", callSeq.Add(1))
}

// Call returns a function_call item with a generated call_id. argumentsJSON
// is sent verbatim as the "arguments" string.
func Call(name, argumentsJSON string) Item {
	return CallID(NewCallID(), name, argumentsJSON)
}

// CallID returns a function_call item with the given call_id.
func CallID(callID, name, argumentsJSON string) Item {
	return Item{Kind: KindFunctionCall, Name: name, CallID: callID, Arguments: argumentsJSON}
}

// NamespacedCall returns a function_call of tool name in namespace (the
// sub-agent tools are in "multi_agent_v1": spawn_agent, send_input,
// wait_agent, close_agent, resume_agent).
func NamespacedCall(namespace, name, argumentsJSON string) Item {
	it := Call(name, argumentsJSON)
	it.Namespace = namespace
	return it
}

// ExecCommandArgs are the arguments codex 0.169.0's unified exec tool
// ("exec_command") accepts. Only Cmd is required; zero values are omitted.
type ExecCommandArgs struct {
	// Cmd is the shell command line, run with the user's shell (`-lc`).
	Cmd string `json:"cmd"`
	// Workdir is the working directory; defaults to the turn's cwd.
	Workdir string `json:"workdir,omitempty"`
	// Shell overrides the shell binary.
	Shell string `json:"shell,omitempty"`
	// Login selects a login shell (-lc instead of -c); nil leaves codex's default.
	Login *bool `json:"login,omitempty"`
	// TTY allocates a pseudo terminal.
	TTY bool `json:"tty,omitempty"`
	// YieldTimeMs is how long codex waits for output before yielding.
	YieldTimeMs int `json:"yield_time_ms,omitempty"`
	// MaxOutputTokens caps the returned output.
	MaxOutputTokens int `json:"max_output_tokens,omitempty"`
	// SandboxPermissions is "use_default" or "require_escalated" (the latter
	// asks for approval to run outside the sandbox).
	SandboxPermissions string `json:"sandbox_permissions,omitempty"`
	// Justification is shown to the user when escalation is requested.
	Justification string `json:"justification,omitempty"`
	// PrefixRule is a reusable approval prefix (only with require_escalated).
	PrefixRule []string `json:"prefix_rule,omitempty"`
}

// ExecCommand returns Call("exec_command", `{"cmd": cmd}`): a call of codex's
// unified exec tool.
func ExecCommand(cmd string) Item {
	return ExecCommandWith(ExecCommandArgs{Cmd: cmd})
}

// ApplyPatch returns an exec_command call of apply_patch with patch (the
// "*** Begin Patch … *** End Patch" text), which codex intercepts and
// applies as a file change item (item/fileChange, turn/diff/updated).
func ApplyPatch(patch string) Item {
	return ExecCommand("apply_patch <<'EOF'\n" + patch + "EOF\n")
}

// ExecCommandWith returns an exec_command call with the given arguments.
func ExecCommandWith(args ExecCommandArgs) Item {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err) // cannot happen: plain struct of strings, ints and bools
	}
	return Call("exec_command", string(b))
}

// Reasoning returns a reasoning item whose summary is streamed as
// reasoning_summary_text deltas.
func Reasoning(summary string) Item {
	return Item{Kind: KindReasoning, Chunks: SplitRunes(summary, DefaultChunkRunes)}
}

// SplitRunes splits s into pieces of n runes (the last may be shorter),
// never splitting a UTF-8 encoded rune. n < 1 is treated as 1. An empty s
// gives no pieces.
func SplitRunes(s string, n int) []string {
	if n < 1 {
		n = 1
	}
	var out []string
	for len(s) > 0 {
		i, k := 0, 0
		for k < n && i < len(s) {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			k++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// SplitBytes splits s into `parts` pieces of roughly equal byte size,
// cutting only at rune boundaries. When s has fewer runes than parts it
// gives one piece per rune; an empty s gives no pieces.
func SplitBytes(s string, parts int) []string {
	if s == "" {
		return nil
	}
	starts := make([]int, 0, len(s))
	for i := range s {
		starts = append(starts, i)
	}
	runes := len(starts)
	if parts < 1 {
		parts = 1
	}
	if parts > runes {
		parts = runes
	}
	out := make([]string, 0, parts)
	prev := 0 // rune index where the current piece starts
	for k := 1; k < parts; k++ {
		target := len(s) * k / parts
		idx := sort.SearchInts(starts, target)
		// keep at least one rune in this piece and in each remaining piece
		idx = max(idx, prev+1)
		idx = min(idx, runes-(parts-k))
		out = append(out, s[starts[prev]:starts[idx]])
		prev = idx
	}
	return append(out, s[starts[prev]:])
}

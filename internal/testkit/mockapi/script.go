package mockapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// scriptFile is the JSON script format read by LoadScript/ParseScript.
type scriptFile struct {
	Responses []scriptResponse `json:"responses"`
}

type scriptResponse struct {
	Items        []scriptItem   `json:"items"`
	Usage        *scriptUsage   `json:"usage"`
	ChunkDelayMs float64        `json:"chunk_delay_ms"`
	FailStatus   int            `json:"fail_status"`
	FailMessage  string         `json:"fail_message"`
	BigMarkdown  *scriptBigMark `json:"big_markdown"`
	// WhenUser / UnlessUser route the response (Response.When): it answers
	// only a request whose user texts contain WhenUser and not UnlessUser.
	WhenUser   string `json:"when_user_contains"`
	UnlessUser string `json:"unless_user_contains"`
}

type scriptUsage struct {
	InputTokens     int64 `json:"input_tokens"`
	OutputTokens    int64 `json:"output_tokens"`
	ReasoningTokens int64 `json:"reasoning_tokens"`
	CachedTokens    int64 `json:"cached_tokens"`
	TotalTokens     int64 `json:"total_tokens"`
}

type scriptBigMark struct {
	Bytes  int `json:"bytes"`
	Deltas int `json:"deltas"`
}

type scriptItem struct {
	Text       *string         `json:"text"`
	ChunkRunes int             `json:"chunk_runes"`
	Chunks     []string        `json:"chunks"`
	Reasoning  *string         `json:"reasoning"`
	Exec       json.RawMessage `json:"exec"`
	Call       string          `json:"call"`
	Namespace  string          `json:"namespace"`
	Arguments  json.RawMessage `json:"arguments"`
	CallID     string          `json:"call_id"`
}

// LoadScript reads a JSON script file (see ParseScript for the format).
func LoadScript(path string) ([]Response, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rs, err := ParseScript(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rs, nil
}

// ParseScript parses a JSON script: an object {"responses": [...]} or just
// the array. Each response is an object with
//
//	"items":          [item, ...]            output items, streamed in order
//	"usage":          {"input_tokens", "output_tokens", "reasoning_tokens",
//	                   "cached_tokens", "total_tokens"}   (all optional)
//	"chunk_delay_ms": number                 delay between SSE events
//	"fail_status":    HTTP status            answer with an error instead
//	"fail_message":   string                 error message for fail_status
//	"big_markdown":   {"bytes": N, "deltas": M}  the BigMarkdown benchmark
//	                  message (defaults 100000 / 8500), before any "items"
//	"when_user_contains", "unless_user_contains": string   answer only a
//	                  request whose user texts contain (or lack) it: a
//	                  sub-agent's requests race its parent's
//	                  (Response.When)
//
// and each item is one of
//
//	{"text": "markdown", "chunk_runes": 4}   message in deltas of chunk_runes
//	                                         runes (default DefaultChunkRunes)
//	{"chunks": ["a", "b"]}                   message in exactly these deltas
//	{"reasoning": "summary"}                 reasoning item with a summary
//	{"exec": "echo hi"}                      exec_command call; "exec" may also
//	                                         be an object of ExecCommandArgs
//	                                         ({"cmd", "workdir",
//	                                         "sandbox_permissions", ...})
//	{"call": "name", "arguments": {...}}     function_call; "arguments" is a
//	                                         JSON object or a JSON-encoded
//	                                         string; optional "call_id" and
//	                                         "namespace" ("multi_agent_v1"
//	                                         for spawn_agent, wait_agent, …)
//
// Unknown fields are errors, to catch typos.
func ParseScript(data []byte) ([]Response, error) {
	var sf scriptFile
	trimmed := bytes.TrimSpace(data)
	var err error
	if len(trimmed) > 0 && trimmed[0] == '[' {
		err = decodeStrict(trimmed, &sf.Responses)
	} else {
		err = decodeStrict(trimmed, &sf)
	}
	if err != nil {
		return nil, err
	}
	out := make([]Response, 0, len(sf.Responses))
	for i, sr := range sf.Responses {
		r, err := sr.response()
		if err != nil {
			return nil, fmt.Errorf("response %d: %w", i, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the script")
	}
	return nil
}

func (sr scriptResponse) response() (Response, error) {
	var r Response
	if sr.BigMarkdown != nil {
		n, d := sr.BigMarkdown.Bytes, sr.BigMarkdown.Deltas
		if n <= 0 {
			n = BigMarkdownBytes
		}
		if d <= 0 {
			d = BigMarkdownDeltas
		}
		r = BigMarkdown(n, d)
	}
	for j, si := range sr.Items {
		it, err := si.item()
		if err != nil {
			return r, fmt.Errorf("item %d: %w", j, err)
		}
		r.Items = append(r.Items, it)
	}
	if u := sr.Usage; u != nil {
		r.Usage = Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			ReasoningTokens: u.ReasoningTokens, CachedTokens: u.CachedTokens,
			TotalTokens: u.TotalTokens,
		}
	}
	if sr.ChunkDelayMs < 0 {
		return r, errors.New("negative chunk_delay_ms")
	}
	r.ChunkDelay = time.Duration(sr.ChunkDelayMs * float64(time.Millisecond))
	r.FailStatus = sr.FailStatus
	r.FailMessage = sr.FailMessage
	if when, unless := sr.WhenUser, sr.UnlessUser; when != "" || unless != "" {
		r.When = func(req Request) bool {
			u := strings.Join(req.UserTexts(), "\n")
			return (when == "" || strings.Contains(u, when)) && (unless == "" || !strings.Contains(u, unless))
		}
	}
	if r.FailStatus != 0 && (r.FailStatus < 400 || r.FailStatus > 599) {
		return r, fmt.Errorf("fail_status %d is not an HTTP error status", r.FailStatus)
	}
	return r, nil
}

func (si scriptItem) item() (Item, error) {
	kinds := 0
	for _, set := range []bool{si.Text != nil, si.Chunks != nil, si.Reasoning != nil, len(si.Exec) > 0, si.Call != ""} {
		if set {
			kinds++
		}
	}
	if kinds != 1 {
		return Item{}, errors.New(`an item needs exactly one of "text", "chunks", "reasoning", "exec", "call"`)
	}
	if si.ChunkRunes != 0 && si.Text == nil {
		return Item{}, errors.New(`"chunk_runes" only goes with "text"`)
	}
	if (len(si.Arguments) > 0 || si.CallID != "" || si.Namespace != "") && si.Call == "" {
		return Item{}, errors.New(`"arguments", "call_id" and "namespace" only go with "call"`)
	}
	switch {
	case si.Text != nil:
		n := si.ChunkRunes
		if n <= 0 {
			n = DefaultChunkRunes
		}
		return Item{Kind: KindMessage, Chunks: SplitRunes(*si.Text, n)}, nil
	case si.Chunks != nil:
		return TextChunks(si.Chunks...), nil
	case si.Reasoning != nil:
		return Reasoning(*si.Reasoning), nil
	case len(si.Exec) > 0:
		var cmd string
		if json.Unmarshal(si.Exec, &cmd) == nil {
			return ExecCommand(cmd), nil
		}
		var args ExecCommandArgs
		if err := decodeStrict(si.Exec, &args); err != nil {
			return Item{}, fmt.Errorf(`"exec": %w`, err)
		}
		if args.Cmd == "" {
			return Item{}, errors.New(`"exec" needs "cmd"`)
		}
		return ExecCommandWith(args), nil
	default:
		args := "{}"
		if len(si.Arguments) > 0 {
			var s string
			if json.Unmarshal(si.Arguments, &s) == nil {
				args = s
			} else {
				var buf bytes.Buffer
				if err := json.Compact(&buf, si.Arguments); err != nil {
					return Item{}, fmt.Errorf(`"arguments": %w`, err)
				}
				args = buf.String()
			}
		}
		it := Call(si.Call, args)
		if si.CallID != "" {
			it = CallID(si.CallID, si.Call, args)
		}
		it.Namespace = si.Namespace
		return it, nil
	}
}

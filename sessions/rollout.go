package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// PendingCall is a tool call in a rollout that has no output recorded.
type PendingCall struct {
	CallID string
	Type   string // "function_call", "custom_tool_call", "local_shell_call", …
	Name   string // the tool's name, when the call has one
}

// rolloutLine is one line of a codex rollout file (JSONL): a timestamp, a
// type ("session_meta", "response_item", "event_msg", "turn_context", …)
// and its payload.
type rolloutLine struct {
	Type    string `json:"type"`
	Payload struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Name   string `json:"name"`
	} `json:"payload"`
}

var callIDKey = []byte(`"call_id"`)

// UnfinishedToolCalls scans the rollout file at path and returns the tool
// calls (response items whose type ends in "_call" and that carry a
// call_id: function_call, custom_tool_call, local_shell_call, …) for which
// no output item (type ending in "_output" with the same call_id) follows,
// in file order. Resuming such a thread sends the model a history it
// rejects, so callers warn and offer to fork or start fresh. Lines that
// don't decode are skipped; an unreadable file is an error.
func UnfinishedToolCalls(path string) ([]PendingCall, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading rollout: %w", err)
	}
	defer f.Close()
	var calls []PendingCall
	done := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, callIDKey) {
			continue // messages, events, metadata: no JSON decoding needed
		}
		var l rolloutLine
		if json.Unmarshal(line, &l) != nil || l.Type != "response_item" || l.Payload.CallID == "" {
			continue
		}
		switch t := l.Payload.Type; {
		case strings.HasSuffix(t, "_output"):
			done[l.Payload.CallID] = true
		case strings.HasSuffix(t, "_call"):
			calls = append(calls, PendingCall{CallID: l.Payload.CallID, Type: t, Name: l.Payload.Name})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading rollout %s: %w", path, err)
	}
	var out []PendingCall
	for _, c := range calls {
		if !done[c.CallID] {
			out = append(out, c)
		}
	}
	return out, nil
}

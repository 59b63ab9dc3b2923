package backend

import (
	"encoding/json"
	"strings"
)

// compact returns raw JSON as trimmed text, "" for none or null.
func compact(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return ""
	}
	return s
}

// ArgumentsText returns a tool call item's arguments as compact JSON text,
// "" when there are none.
func (it Item) ArgumentsText() string { return compact(it.Arguments) }

// ResultText renders an mcpToolCall item's outcome for display: "error:
// MSG" when it failed, else the text of its result's content blocks, one
// per line (non-text blocks as JSON); "" while there is no result.
func (it Item) ResultText() string {
	if it.Error != nil && it.Error.Message != "" {
		return "error: " + it.Error.Message
	}
	if compact(it.Result) == "" {
		return ""
	}
	var r struct {
		Content []json.RawMessage `json:"content"`
	}
	if json.Unmarshal(it.Result, &r) != nil {
		return compact(it.Result)
	}
	parts := make([]string, 0, len(r.Content))
	for _, c := range r.Content {
		var t struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(c, &t) == nil && t.Type == "text" {
			parts = append(parts, t.Text)
		} else {
			parts = append(parts, compact(c))
		}
	}
	return strings.Join(parts, "\n")
}

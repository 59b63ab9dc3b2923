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

// AnswerQuestions answers an ask_user_question call with success and the
// JSON of answers (question id → chosen values) as its one inputText item.
func (r *ToolCallRequest) AnswerQuestions(answers map[string][]string) error {
	if answers == nil {
		answers = map[string][]string{}
	}
	b, err := json.Marshal(answers)
	if err != nil {
		return err
	}
	return r.Succeed(string(b))
}

// DefaultValue returns an elicitation property's default as a Go value —
// a string, float64, bool or []string (a multi-select's strings) — or nil
// when there is none or it has another shape.
func (p ElicitProperty) DefaultValue() any {
	if compact(p.Default) == "" {
		return nil
	}
	var d any
	if json.Unmarshal(p.Default, &d) != nil {
		return nil
	}
	if arr, ok := d.([]any); ok {
		ss := make([]string, 0, len(arr))
		for _, v := range arr {
			if s, ok := v.(string); ok {
				ss = append(ss, s)
			}
		}
		return ss
	}
	switch d.(type) {
	case string, float64, bool:
		return d
	}
	return nil
}

// ElicitValue is one answered field of an elicitation form; it encodes as
// the JSON value of its kind. Build it with ElicitString, ElicitNumber,
// ElicitInteger, ElicitBool or ElicitList.
type ElicitValue struct {
	v any
}

// ElicitString is a string (or single-enum) answer.
func ElicitString(s string) ElicitValue { return ElicitValue{s} }

// ElicitNumber is a number answer.
func ElicitNumber(f float64) ElicitValue { return ElicitValue{f} }

// ElicitInteger is an integer answer.
func ElicitInteger(i int64) ElicitValue { return ElicitValue{i} }

// ElicitBool is a boolean answer.
func ElicitBool(b bool) ElicitValue { return ElicitValue{b} }

// ElicitList is a multi-enum answer.
func ElicitList(ss []string) ElicitValue { return ElicitValue{append([]string{}, ss...)} }

// MarshalJSON writes the answer's JSON value.
func (v ElicitValue) MarshalJSON() ([]byte, error) { return json.Marshal(v.v) }

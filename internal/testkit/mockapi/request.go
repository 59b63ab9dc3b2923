package mockapi

import (
	"encoding/json"
	"strings"
)

// inputItem is the part of a Responses API input item the helpers read.
type inputItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Output    json.RawMessage `json:"output"`
	Content   []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL string `json:"image_url"`
	} `json:"content"`
}

func (r Request) inputs() []inputItem {
	var b struct {
		Input []inputItem `json:"input"`
	}
	_ = json.Unmarshal(r.Raw, &b)
	return b.Input
}

// Input returns the raw items of the request's "input" array.
func (r Request) Input() []json.RawMessage {
	var b struct {
		Input []json.RawMessage `json:"input"`
	}
	_ = json.Unmarshal(r.Raw, &b)
	return b.Input
}

// Model returns the request's "model" field.
func (r Request) Model() string { return gjsonString(r.Raw, "model") }

// ToolNames returns the names of the tools offered in the request, in order
// (a namespace tool gives its namespace name; tools without a name, such as
// web_search, give their type).
func (r Request) ToolNames() []string {
	var b struct {
		Tools []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(r.Raw, &b)
	var out []string
	for _, t := range b.Tools {
		if t.Name != "" {
			out = append(out, t.Name)
		} else {
			out = append(out, t.Type)
		}
	}
	return out
}

// FunctionCallOutputs returns call_id -> output text of the input items of
// type function_call_output (and custom_tool_call_output). An output given
// as a list of content items is flattened to the concatenation of their
// texts.
func (r Request) FunctionCallOutputs() map[string]string {
	out := map[string]string{}
	for _, it := range r.inputs() {
		if it.Type != "function_call_output" && it.Type != "custom_tool_call_output" {
			continue
		}
		out[it.CallID] = outputText(it.Output)
	}
	return out
}

// FunctionCalls returns call_id -> function name of the function_call items
// in the request's input (the calls codex replays from earlier rounds).
func (r Request) FunctionCalls() map[string]string {
	out := map[string]string{}
	for _, it := range r.inputs() {
		if it.Type == "function_call" {
			out[it.CallID] = it.Name
		}
	}
	return out
}

// outputText turns a function_call_output "output" (a string, or a list of
// {type, text} content items, or an object with a "content" field) into text.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	var o struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &o) == nil && len(o.Content) > 0 {
		return outputText(o.Content)
	}
	return string(raw)
}

// UserTexts returns the texts (input_text parts) of the user message input
// items, in order. Besides what the user typed this includes the context
// codex injects as user messages, such as "<environment_context>…".
func (r Request) UserTexts() []string {
	return r.roleTexts("user")
}

// LastUserText returns the last of UserTexts, or "".
func (r Request) LastUserText() string {
	ts := r.UserTexts()
	if len(ts) == 0 {
		return ""
	}
	return ts[len(ts)-1]
}

// AssistantTexts returns the texts of the assistant message input items (the
// earlier answers codex replays), in order.
func (r Request) AssistantTexts() []string {
	return r.roleTexts("assistant")
}

func (r Request) roleTexts(role string) []string {
	var out []string
	for _, it := range r.inputs() {
		if it.Type != "message" || it.Role != role {
			continue
		}
		for _, c := range it.Content {
			if c.Type == "input_text" || c.Type == "output_text" {
				out = append(out, c.Text)
			}
		}
	}
	return out
}

// InputImages returns the image_url of every input_image part of the
// user message input items, in order: how codex sends a turn's
// "localImage" inputs, as data: URLs ("data:image/png;base64,…").
func (r Request) InputImages() []string {
	var out []string
	for _, it := range r.inputs() {
		if it.Type != "message" || it.Role != "user" {
			continue
		}
		for _, c := range it.Content {
			if c.Type == "input_image" {
				out = append(out, c.ImageURL)
			}
		}
	}
	return out
}

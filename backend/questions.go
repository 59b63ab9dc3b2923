package backend

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// This file holds the requests that ask the user something: the dynamic
// tool call (tandem's ask_user_question), the agent's user-input
// questions and MCP elicitations.

// ToolCallParams are the params of `item/tool/call` (`DynamicToolCallParams`).
// Arguments is the tool's JSON arguments as sent by the model.
type ToolCallParams struct {
	ThreadID  string          `json:"threadId"`
	TurnID    string          `json:"turnId"`
	CallID    string          `json:"callId"`
	Namespace *string         `json:"namespace"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolCallRequest is `item/tool/call`: the model called a dynamic tool
// tandem registered in `thread/start`.
type ToolCallRequest struct {
	*Request
	Params ToolCallParams
}

// Succeed replies {success:true, contentItems:[{type:"inputText", text}]}.
func (r *ToolCallRequest) Succeed(text string) error {
	return r.Respond(DynamicToolCallResponse{Success: true, ContentItems: []ContentItem{{Type: "inputText", Text: text}}})
}

// Fail replies {success:false, contentItems:[{type:"inputText", text}]}.
func (r *ToolCallRequest) Fail(text string) error {
	return r.Respond(DynamicToolCallResponse{Success: false, ContentItems: []ContentItem{{Type: "inputText", Text: text}}})
}

// Refuse implements ServerRequest: a failed call saying the user declined.
func (r *ToolCallRequest) Refuse() error { return r.Fail("user declined to answer") }

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

// UserInputOption is `ToolRequestUserInputOption`.
type UserInputOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// UserInputQuestion is `ToolRequestUserInputQuestion`: IsOther offers free
// text besides the options, IsSecret masks the answer.
type UserInputQuestion struct {
	ID       string            `json:"id"`
	Header   string            `json:"header"`
	Question string            `json:"question"`
	IsOther  bool              `json:"isOther"`
	IsSecret bool              `json:"isSecret"`
	Options  []UserInputOption `json:"options"`
}

// UserInputParams are the params of `item/tool/requestUserInput`.
type UserInputParams struct {
	ItemRef
	Questions  []UserInputQuestion `json:"questions"`
	IsBlocking bool                `json:"isBlocking"`
}

// UserInputRequest is `item/tool/requestUserInput`: the agent asks the
// user one to three questions.
type UserInputRequest struct {
	*Request
	Params UserInputParams
}

// UserInputResponse is the response of `item/tool/requestUserInput`: the
// answers keyed by question id.
type UserInputResponse struct {
	Answers map[string]UserInputAnswer `json:"answers"`
}

// UserInputAnswer is one question's answers (`ToolRequestUserInputAnswer`).
type UserInputAnswer struct {
	Answers []string `json:"answers"`
}

// Answer replies {"answers": {id: {"answers": [...]}}} with answers keyed
// by question id.
func (r *UserInputRequest) Answer(answers map[string][]string) error {
	out := make(map[string]UserInputAnswer, len(answers))
	for id, a := range answers {
		out[id] = UserInputAnswer{Answers: nonNil(a)}
	}
	return r.Respond(UserInputResponse{Answers: out})
}

// Refuse implements ServerRequest: it answers no question ({"answers":{}}).
func (r *UserInputRequest) Refuse() error { return r.Answer(nil) }

// Elicitation modes of `mcpServer/elicitation/request`.
const (
	ElicitForm             = "form"
	ElicitURL              = "url"
	ElicitUserVerification = "openai/userVerification"
)

// ElicitationParams are the params of `mcpServer/elicitation/request`. Mode
// "form" (also "openai/form", "openaiForm") carries Message and
// RequestedSchema; "url" carries Message, URL and ElicitationID;
// "openai/userVerification" carries Title, Description and Challenge.
type ElicitationParams struct {
	ThreadID        string          `json:"threadId"`
	TurnID          *string         `json:"turnId"`
	ServerName      string          `json:"serverName"`
	Mode            string          `json:"mode"`
	Meta            json.RawMessage `json:"_meta"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
	Title           string          `json:"title"`
	Description     string          `json:"description"`
	Challenge       string          `json:"challenge"`
}

// IsForm reports whether the mode asks for a form.
func (p ElicitationParams) IsForm() bool {
	return p.Mode == ElicitForm || p.Mode == "openai/form" || p.Mode == "openaiForm"
}

// ElicitOption is one choice of an enum property (`McpElicitationConstOption`).
type ElicitOption struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

// ElicitProperty is one property of an elicitation schema
// (`McpElicitationPrimitiveSchema`). Kind says which field it needs.
type ElicitProperty struct {
	Name        string          `json:"-"`
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Format      string          `json:"format"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Default     json.RawMessage `json:"default"`
	Enum        []string        `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []ElicitOption  `json:"oneOf"`
	Items       *struct {
		Type  string         `json:"type"`
		Enum  []string       `json:"enum"`
		AnyOf []ElicitOption `json:"anyOf"`
	} `json:"items"`
	Required bool `json:"-"`
}

// Property kinds returned by ElicitProperty.Kind.
const (
	KindString    = "string"
	KindNumber    = "number"
	KindInteger   = "integer"
	KindBoolean   = "boolean"
	KindEnum      = "enum"
	KindMultiEnum = "multiEnum"
)

// Kind is one of KindString, KindNumber, KindInteger, KindBoolean,
// KindEnum (single choice) or KindMultiEnum, or "" when unsupported.
func (p ElicitProperty) Kind() string {
	switch p.Type {
	case "string":
		if len(p.Enum) > 0 || len(p.OneOf) > 0 {
			return KindEnum
		}
		return KindString
	case "number":
		return KindNumber
	case "integer":
		return KindInteger
	case "boolean":
		return KindBoolean
	case "array":
		if p.Items != nil && (len(p.Items.Enum) > 0 || len(p.Items.AnyOf) > 0) {
			return KindMultiEnum
		}
	}
	return ""
}

// Options lists an enum property's choices (value and title), whichever
// of the schema's enum forms it uses.
func (p ElicitProperty) Options() []ElicitOption {
	if len(p.OneOf) > 0 {
		return p.OneOf
	}
	enum := p.Enum
	if p.Items != nil {
		if len(p.Items.AnyOf) > 0 {
			return p.Items.AnyOf
		}
		enum = p.Items.Enum
	}
	out := make([]ElicitOption, 0, len(enum))
	for i, v := range enum {
		title := v
		if i < len(p.EnumNames) && p.EnumNames[i] != "" {
			title = p.EnumNames[i]
		}
		out = append(out, ElicitOption{Const: v, Title: title})
	}
	return out
}

// Schema decodes RequestedSchema into its properties, in the order they
// appear on the wire, with Required set. It fails on anything that is not
// an object schema.
func (p ElicitationParams) Schema() ([]ElicitProperty, error) {
	var s struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(p.RequestedSchema, &s); err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("requestedSchema: type %q is not \"object\"", s.Type)
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	if isNull(s.Properties) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(s.Properties))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("requestedSchema: properties is not an object")
	}
	var out []ElicitProperty
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("requestedSchema: %w", err)
		}
		name, _ := t.(string)
		var prop ElicitProperty
		if err := dec.Decode(&prop); err != nil {
			return nil, fmt.Errorf("requestedSchema: property %q: %w", name, err)
		}
		prop.Name, prop.Required = name, req[name]
		out = append(out, prop)
	}
	return out, nil
}

// ElicitationRequest is `mcpServer/elicitation/request`: an MCP server asks
// the user for input (a form) or to visit a URL.
type ElicitationRequest struct {
	*Request
	Params ElicitationParams
}

// Elicitation actions (`McpServerElicitationAction`).
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitationResponse is the response of `mcpServer/elicitation/request`
// (`McpServerElicitationRequestResponse`): the action and, for an accepted
// form, its values keyed by property name (null otherwise).
type ElicitationResponse struct {
	Meta    json.RawMessage        `json:"_meta"`
	Action  string                 `json:"action"`
	Content map[string]ElicitValue `json:"content"`
}

// Accept replies {"action":"accept","content":content,"_meta":null};
// content is the form's values keyed by property name (nil for URL mode).
func (r *ElicitationRequest) Accept(content map[string]ElicitValue) error {
	return r.Respond(ElicitationResponse{Action: ElicitAccept, Content: content})
}

// Decline replies {"action":"decline","content":null,"_meta":null}.
func (r *ElicitationRequest) Decline() error {
	return r.Respond(ElicitationResponse{Action: ElicitDecline})
}

// Cancel replies {"action":"cancel","content":null,"_meta":null}.
func (r *ElicitationRequest) Cancel() error {
	return r.Respond(ElicitationResponse{Action: ElicitCancel})
}

// Refuse implements ServerRequest: it cancels.
func (r *ElicitationRequest) Refuse() error { return r.Cancel() }

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

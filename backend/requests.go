package backend

import (
	"encoding/json"
	"fmt"
	"sync"
)

// ReplyFunc sends the answer to one server request: a result (marshalled
// to JSON) or, when rpcErr is non-nil, an error. It is the one way replies
// leave tandem, so a replay or the pairing hub can supply its own.
type ReplyFunc func(result any, rpcErr *RPCError) error

// ServerRequest is a server→client request decoded into its typed params,
// awaiting exactly one answer. Implementations: *CommandApprovalRequest,
// *FileChangeApprovalRequest, *ToolCallRequest (and more in requests_*.go).
type ServerRequest interface {
	// Thread is the threadId the request belongs to ("" if none).
	Thread() string
	// ID is the JSON-RPC id, echoed exactly in the answer.
	ID() RequestID
	// Method is the JSON-RPC method, e.g. "item/commandExecution/requestApproval".
	Method() string
	// Refuse answers the safest way for this kind of request (decline,
	// cancel or a declined tool call). It is used when tandem quits with
	// the request pending and never accepts anything.
	Refuse() error
	// Answered reports whether an answer has been sent.
	Answered() bool
}

// Request holds what every ServerRequest shares. Respond and RespondError
// send at most once; later calls return an error.
type Request struct {
	id       RequestID
	method   string
	threadID string
	reply    ReplyFunc
	mu       sync.Mutex
	answered bool
}

// NewRequest builds the shared part of a server request.
func NewRequest(method string, id RequestID, threadID string, reply ReplyFunc) *Request {
	return &Request{id: id, method: method, threadID: threadID, reply: reply}
}

// ID implements ServerRequest.
func (r *Request) ID() RequestID { return r.id }

// Method implements ServerRequest.
func (r *Request) Method() string { return r.method }

// Thread implements ServerRequest.
func (r *Request) Thread() string { return r.threadID }

// Answered implements ServerRequest.
func (r *Request) Answered() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.answered
}

// Respond sends result as the answer.
func (r *Request) Respond(result any) error { return r.send(result, nil) }

// RespondError answers with a JSON-RPC error.
func (r *Request) RespondError(code int, message string) error {
	return r.send(nil, &RPCError{Code: code, Message: message})
}

func (r *Request) send(result any, rpcErr *RPCError) error {
	r.mu.Lock()
	if r.answered {
		r.mu.Unlock()
		return fmt.Errorf("%s %s: already answered", r.method, r.id)
	}
	r.answered = true
	r.mu.Unlock()
	return r.reply(result, rpcErr)
}

// Decision is an approval decision. Name is one of "accept",
// "acceptForSession", "decline", "cancel" (v2), or for the legacy requests
// "approved", "approved_for_session", "denied", "abort". Amendment variants
// are added by their own constructors.
type Decision struct {
	Name string
	// raw, when set, is sent instead of the Name string (object variants
	// such as acceptWithExecpolicyAmendment).
	raw json.RawMessage
}

// MarshalJSON writes the decision as the protocol expects.
func (d Decision) MarshalJSON() ([]byte, error) {
	if d.raw != nil {
		return d.raw, nil
	}
	return json.Marshal(d.Name)
}

// The plain v2 decisions of `CommandExecutionApprovalDecision` and
// `FileChangeApprovalDecision`.
var (
	Accept           = Decision{Name: "accept"}
	AcceptForSession = Decision{Name: "acceptForSession"}
	Decline          = Decision{Name: "decline"}
	Cancel           = Decision{Name: "cancel"}
)

// CommandApprovalParams are the params of
// `item/commandExecution/requestApproval`.
type CommandApprovalParams struct {
	ThreadID                        string                   `json:"threadId"`
	TurnID                          string                   `json:"turnId"`
	ItemID                          string                   `json:"itemId"`
	Kind                            string                   `json:"kind"`
	Reason                          *string                  `json:"reason"`
	Command                         *string                  `json:"command"`
	Cwd                             *string                  `json:"cwd"`
	ProposedExecpolicyAmendment     []string                 `json:"proposedExecpolicyAmendment"`
	ProposedNetworkPolicyAmendments []NetworkPolicyAmendment `json:"proposedNetworkPolicyAmendments"`
	AvailableDecisions              []json.RawMessage        `json:"availableDecisions"`
	NetworkApprovalContext          *NetworkApprovalContext  `json:"networkApprovalContext"`
}

// NetworkPolicyAmendment is the protocol's `NetworkPolicyAmendment`;
// Action is "allow" or "deny".
type NetworkPolicyAmendment struct {
	Host   string `json:"host"`
	Action string `json:"action"`
}

// CommandApprovalRequest is `item/commandExecution/requestApproval`.
// Answer it with Answer.
type CommandApprovalRequest struct {
	*Request
	Params CommandApprovalParams
}

// Answer replies {"decision": d}.
func (r *CommandApprovalRequest) Answer(d Decision) error {
	return r.Respond(map[string]any{"decision": d})
}

// Refuse implements ServerRequest: it answers "cancel".
func (r *CommandApprovalRequest) Refuse() error { return r.Answer(Cancel) }

// FileChangeApprovalParams are the params of
// `item/fileChange/requestApproval`. The diff itself arrives on the
// fileChange item (item/started), found by ItemID.
type FileChangeApprovalParams struct {
	ThreadID  string  `json:"threadId"`
	TurnID    string  `json:"turnId"`
	ItemID    string  `json:"itemId"`
	Reason    *string `json:"reason"`
	GrantRoot *string `json:"grantRoot"`
}

// FileChangeApprovalRequest is `item/fileChange/requestApproval`.
type FileChangeApprovalRequest struct {
	*Request
	Params FileChangeApprovalParams
}

// Answer replies {"decision": d}.
func (r *FileChangeApprovalRequest) Answer(d Decision) error {
	return r.Respond(map[string]any{"decision": d})
}

// Refuse implements ServerRequest: it answers "cancel".
func (r *FileChangeApprovalRequest) Refuse() error { return r.Answer(Cancel) }

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

// requestDecoders maps a server request method to its decoder. Files that
// add request kinds register them in init.
var requestDecoders = map[string]func(base *Request, params json.RawMessage) (ServerRequest, error){
	"item/commandExecution/requestApproval": func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &CommandApprovalRequest{Request: base}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ThreadID
		return r, err
	},
	"item/fileChange/requestApproval": func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &FileChangeApprovalRequest{Request: base}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ThreadID
		return r, err
	},
	"item/tool/call": func(base *Request, params json.RawMessage) (ServerRequest, error) {
		r := &ToolCallRequest{Request: base}
		err := json.Unmarshal(params, &r.Params)
		r.threadID = r.Params.ThreadID
		return r, err
	},
}

// DecodeRequest turns a server request into its typed ServerRequest whose
// answers go through reply. It returns (nil, nil) for a method tandem does
// not know (the caller answers -32601) and an error when params don't
// decode (the caller answers -32602).
func DecodeRequest(method string, id RequestID, params json.RawMessage, reply ReplyFunc) (ServerRequest, error) {
	dec, ok := requestDecoders[method]
	if !ok {
		return nil, nil
	}
	if len(params) == 0 {
		params = json.RawMessage("{}")
	}
	r, err := dec(NewRequest(method, id, "", reply), params)
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", method, err)
	}
	return r, nil
}

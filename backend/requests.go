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
// awaiting exactly one answer. Each kind in requestKinds is a struct that
// embeds *Request, holds Params, and has typed answer methods (Answer,
// Grant, Accept …) that build its response type; see approvals.go,
// questions.go and autoreply.go.
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
	// WithReply returns a copy of the request, of the same kind and
	// params, whose answers go through reply and which tracks its own
	// answered state (the pairing hub gives each driver one).
	WithReply(reply ReplyFunc) ServerRequest
	// View returns what a watcher may know of the request. It has no way
	// to answer.
	View() RequestView
}

// RequestView is a server request as a watcher sees it: which kind, for
// which thread, and for an approval of an item the turn and item it is
// about. It carries no reply and cannot be answered; the pairing hub hands
// watchers these instead of requests.
type RequestView struct {
	ID     RequestID
	Method string
	// ItemRef is where the request belongs: its thread and, when it is
	// about an item, the item's turn and id ("" when about none).
	ItemRef
}

// Request holds what every ServerRequest shares. Respond and RespondError
// send at most once; later calls return an error.
type Request struct {
	id     RequestID
	method string
	ref    ItemRef // where it belongs (RequestView)
	reply  ReplyFunc
	// rebuild makes a request of the same kind and params around a new
	// base (set by the request table).
	rebuild  func(*Request) ServerRequest
	mu       sync.Mutex
	answered bool
}

// ID implements ServerRequest.
func (r *Request) ID() RequestID { return r.id }

// Method implements ServerRequest.
func (r *Request) Method() string { return r.method }

// Thread implements ServerRequest.
func (r *Request) Thread() string { return r.ref.ThreadID }

// View implements ServerRequest.
func (r *Request) View() RequestView {
	return RequestView{ID: r.id, Method: r.method, ItemRef: r.ref}
}

// WithReply implements ServerRequest: the same request, answered
// through reply.
func (r *Request) WithReply(reply ReplyFunc) ServerRequest {
	return r.rebuild(&Request{id: r.id, method: r.method, ref: r.ref, reply: reply, rebuild: r.rebuild})
}

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

// requestKind is one row of the server request table: the method and how
// a request of the kind is decoded around its base (kind).
type requestKind struct {
	method string
	decode func(base *Request, params json.RawMessage) (ServerRequest, error)
}

// kind makes a table row for params type P: key says where a request
// belongs (its thread, and turn and item for an item's approval; nil for
// none), build makes the typed request around its base. The kind's answer
// methods send its response type.
func kind[P any](method string, key func(*P) ItemRef, build func(*Request, P) ServerRequest) requestKind {
	return requestKind{method: method, decode: func(base *Request, raw json.RawMessage) (ServerRequest, error) {
		var p P
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		if key != nil {
			base.ref = key(&p)
		}
		base.rebuild = func(b *Request) ServerRequest { return build(b, p) }
		return build(base, p), nil
	}}
}

// The server request methods of requestKinds, for code that names a
// kind (a watcher's RequestView carries only the method).
const (
	// MethodCommandApproval asks to run a command (v2).
	MethodCommandApproval = "item/commandExecution/requestApproval"
	// MethodFileChangeApproval asks to apply file changes (v2).
	MethodFileChangeApproval = "item/fileChange/requestApproval"
	// MethodExecCommandApproval is the legacy (v1) command approval.
	MethodExecCommandApproval = "execCommandApproval"
	// MethodApplyPatchApproval is the legacy (v1) patch approval.
	MethodApplyPatchApproval = "applyPatchApproval"
	// MethodPermissionsApproval asks for more sandbox permissions.
	MethodPermissionsApproval = "item/permissions/requestApproval"
	// MethodToolCall calls a client-side dynamic tool (AskUserQuestion).
	MethodToolCall = "item/tool/call"
	// MethodUserInput asks the user questions (request_user_input).
	MethodUserInput = "item/tool/requestUserInput"
	// MethodElicitation is an MCP server's elicitation.
	MethodElicitation = "mcpServer/elicitation/request"
	// MethodAuthTokensRefresh asks for fresh ChatGPT tokens.
	MethodAuthTokensRefresh = "account/chatgptAuthTokens/refresh"
	// MethodAttestation asks for a client attestation.
	MethodAttestation = "attestation/generate"
	// MethodCurrentTime asks for the client's clock.
	MethodCurrentTime = "currentTime/read"
)

// requestKinds is every server request of the 0.169.0 schema tandem
// serves (codex's `server_request_definitions!`): method, params and
// where it belongs; the response is what the kind's answer methods send.
// Adding a kind is one row here plus its struct; the model's
// adapter table must then have an entry too (a test walks both).
var requestKinds = []requestKind{
	kind(MethodCommandApproval,
		func(p *CommandApprovalParams) ItemRef { return p.ItemRef },
		func(b *Request, p CommandApprovalParams) ServerRequest {
			return &CommandApprovalRequest{decisionRequest{b}, p}
		}),
	kind(MethodFileChangeApproval,
		func(p *FileChangeApprovalParams) ItemRef { return p.ItemRef },
		func(b *Request, p FileChangeApprovalParams) ServerRequest {
			return &FileChangeApprovalRequest{decisionRequest{b}, p}
		}),
	kind(MethodExecCommandApproval,
		func(p *ExecCommandApprovalParams) ItemRef { return ItemRef{ThreadID: p.ConversationID} },
		func(b *Request, p ExecCommandApprovalParams) ServerRequest {
			return &ExecCommandApprovalRequest{decisionRequest{b}, p}
		}),
	kind(MethodApplyPatchApproval,
		func(p *ApplyPatchApprovalParams) ItemRef { return ItemRef{ThreadID: p.ConversationID} },
		func(b *Request, p ApplyPatchApprovalParams) ServerRequest {
			return &ApplyPatchApprovalRequest{decisionRequest{b}, p}
		}),
	kind(MethodPermissionsApproval,
		func(p *PermissionsApprovalParams) ItemRef { return p.ItemRef },
		func(b *Request, p PermissionsApprovalParams) ServerRequest { return &PermissionsApprovalRequest{b, p} }),
	kind(MethodToolCall,
		func(p *ToolCallParams) ItemRef { return ItemRef{ThreadID: p.ThreadID, TurnID: p.TurnID} },
		func(b *Request, p ToolCallParams) ServerRequest { return &ToolCallRequest{b, p} }),
	kind(MethodUserInput,
		func(p *UserInputParams) ItemRef { return p.ItemRef },
		func(b *Request, p UserInputParams) ServerRequest { return &UserInputRequest{b, p} }),
	kind(MethodElicitation,
		func(p *ElicitationParams) ItemRef { return ItemRef{ThreadID: p.ThreadID} },
		func(b *Request, p ElicitationParams) ServerRequest { return &ElicitationRequest{b, p} }),
	kind(MethodAuthTokensRefresh, nil,
		func(b *Request, p AuthTokensRefreshParams) ServerRequest { return &AuthTokensRefreshRequest{b, p} }),
	kind(MethodAttestation, nil,
		func(b *Request, _ struct{}) ServerRequest { return &AttestationRequest{b} }),
	kind(MethodCurrentTime,
		func(p *CurrentTimeParams) ItemRef { return ItemRef{ThreadID: p.ThreadID} },
		func(b *Request, p CurrentTimeParams) ServerRequest { return &CurrentTimeRequest{Request: b, Params: p} }),
}

// RequestMethods lists the methods of every server request kind tandem
// decodes, in table order.
func RequestMethods() []string {
	out := make([]string, 0, len(requestKinds))
	for _, k := range requestKinds {
		out = append(out, k.method)
	}
	return out
}

// DecodeRequest turns a server request into its typed ServerRequest whose
// answers go through reply. It returns (nil, nil) for a method tandem does
// not know (the caller answers -32601) and an error when params don't
// decode (the caller answers -32602).
func DecodeRequest(method string, id RequestID, params json.RawMessage, reply ReplyFunc) (ServerRequest, error) {
	for _, k := range requestKinds {
		if k.method != method {
			continue
		}
		if len(params) == 0 || string(params) == "null" {
			params = json.RawMessage("{}")
		}
		r, err := k.decode(&Request{id: id, method: method, reply: reply}, params)
		if err != nil {
			return nil, fmt.Errorf("decoding %s: %w", method, err)
		}
		return r, nil
	}
	return nil, nil
}

// CodeUnsupported is the JSON-RPC error code (in the implementation-defined
// server-error range) tandem answers requests it knows but cannot serve,
// such as `account/chatgptAuthTokens/refresh`.
const CodeUnsupported = -32000

// AutoAnswered is a ServerRequest that needs no person: the model calls
// AutoAnswer as soon as it arrives and shows Notice, if any, as a banner.
type AutoAnswered interface {
	ServerRequest
	// AutoAnswer sends the request's fixed answer.
	AutoAnswer() error
	// Notice is one line for the user saying what happened ("" = silent).
	Notice() string
}

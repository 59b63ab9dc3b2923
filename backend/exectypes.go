package backend

import "encoding/json"

// The wire values of `command/exec` (a standalone command on the
// server's machine, no thread or turn) and of `thread/attachment/add`
// (a record kept with a thread). Session.Exec and
// Session.AddThreadAttachment (exec.go) send them.

// CommandExecParams are the params of `command/exec`, buffered: no
// processId, no tty, no streaming, so the answer carries the whole
// (capped) output once the process exits.
type CommandExecParams struct {
	// Command is the argv (never empty; the server refuses an empty one).
	Command []string `json:"command"`
	// Cwd is an absolute directory on the server's machine; "" is the
	// server's own cwd.
	Cwd string `json:"cwd,omitempty"`
	// Env overrides the server-computed environment, name → value.
	Env map[string]string `json:"env,omitempty"`
	// OutputBytesCap caps each of stdout and stderr, in bytes; nil is the
	// server's default cap.
	OutputBytesCap *int `json:"outputBytesCap,omitempty"`
	// TimeoutMs bounds the run, in milliseconds; nil is the server's
	// default timeout.
	TimeoutMs *int64 `json:"timeoutMs,omitempty"`
	// SandboxPolicy is a `SandboxPolicy` (SandboxPolicyFor); nil is the
	// user's configured one.
	SandboxPolicy json.RawMessage `json:"sandboxPolicy,omitempty"`
}

// CommandExecResponse is the result of a buffered `command/exec`: the
// process's exit code and its captured output (each stream cut at the
// params' OutputBytesCap).
type CommandExecResponse struct {
	ExitCode int    `json:"exitCode"`
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
}

// ThreadAttachmentAddParams are the params of `thread/attachment/add`:
// an attachment of AttachmentType on ThreadID, one per IdentityKey (a
// second add with the same key finds the first), with any JSON Payload.
type ThreadAttachmentAddParams struct {
	ThreadID       string `json:"threadId"`
	AttachmentType string `json:"attachmentType"`
	IdentityKey    string `json:"identityKey"`
	Payload        any    `json:"payload"`
}

// ThreadAttachmentAddResponse is the result of `thread/attachment/add`:
// Outcome is "created" or "existing" (one with the same identity key was
// there already).
type ThreadAttachmentAddResponse struct {
	Attachment ThreadAttachment `json:"attachment"`
	Outcome    string           `json:"outcome"`
}

// ThreadAttachment is one attachment of a thread: its id, type, identity
// key, payload and creation time (Unix seconds, as the server gives it).
type ThreadAttachment struct {
	ID             string          `json:"id"`
	AttachmentType string          `json:"attachmentType"`
	IdentityKey    string          `json:"identityKey"`
	Payload        json.RawMessage `json:"payload"`
	CreatedAt      int64           `json:"createdAt"`
}

package backend

import (
	"context"
	"fmt"
	"time"
)

// ExecRequest is one command for Session.Exec to run on the server's
// machine (`command/exec`).
type ExecRequest struct {
	// Argv is the command and its arguments; it is run as is, by no shell.
	Argv []string
	// Cwd is the absolute directory it runs in, on the server's machine;
	// "" is the app-server's own cwd.
	Cwd string
	// Env are variables set for it on top of the server's environment.
	Env map[string]string
	// Sandbox is the -s mode it runs under ("read-only",
	// "workspace-write", "danger-full-access"); "" is the user's
	// configured sandbox, as for the agent's own commands.
	Sandbox string
	// Timeout bounds the run; 0 is DefaultExecTimeout. A command that
	// outlives it is killed by the server.
	Timeout time.Duration
	// OutputCap caps each of stdout and stderr, in bytes; 0 is
	// DefaultExecOutputCap. What is beyond it is cut by the server.
	OutputCap int
}

// ExecResult is what a command run by Session.Exec did: its exit code
// (non-zero is no error of Exec's) and its captured output, each stream
// at most the request's OutputCap bytes.
type ExecResult struct {
	ExitCode       int
	Stdout, Stderr string
}

// DefaultExecTimeout is how long Exec lets a command run when the
// request names no Timeout: long enough for a checkout of a large
// repository (git worktree add).
const DefaultExecTimeout = 10 * time.Minute

// DefaultExecOutputCap is the size (bytes, per stream) Exec captures
// when the request names no OutputCap.
const DefaultExecOutputCap = 4 << 20

// Exec runs r.Argv on the app-server's machine with `command/exec`,
// buffered (no process id, no tty), and returns its exit code and output
// once it has exited. The command runs where the agent runs: over --ssh
// and on the daemon too, never on tandem's machine (unless that is the
// server's). Errors: an empty Argv or unknown Sandbox, before anything is
// sent; else the call's (an *RPCError when the server refused it — a
// command that could not be started at all is refused so — or ctx's).
func (s *Session) Exec(ctx context.Context, r ExecRequest) (ExecResult, error) {
	if len(r.Argv) == 0 {
		return ExecResult{}, fmt.Errorf("%s: no command", CommandExec.Name())
	}
	sb, err := SandboxPolicyFor(r.Sandbox)
	if err != nil {
		return ExecResult{}, fmt.Errorf("%s: %w", CommandExec.Name(), err)
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultExecTimeout
	}
	ms := timeout.Milliseconds()
	capBytes := r.OutputCap
	if capBytes <= 0 {
		capBytes = DefaultExecOutputCap
	}
	resp, err := CommandExec.Call(ctx, s.conn, CommandExecParams{
		Command: r.Argv, Cwd: r.Cwd, Env: r.Env, SandboxPolicy: sb,
		TimeoutMs: &ms, OutputBytesCap: &capBytes,
	})
	if err != nil {
		return ExecResult{}, err
	}
	return ExecResult{ExitCode: resp.ExitCode, Stdout: resp.Stdout, Stderr: resp.Stderr}, nil
}

// StartThreadIn is StartThread with cwd as the thread's workspace instead
// of the session's Cwd (a worktree made for it: tandem --worktree); ""
// is the session's Cwd.
func (s *Session) StartThreadIn(ctx context.Context, cwd string) (ThreadResponse, error) {
	if cwd == "" {
		return s.StartThread(ctx)
	}
	cfg, err := s.threadConfig(ctx) // sandbox.go: --add-dir
	if err != nil {
		return ThreadResponse{}, err
	}
	return s.opened(ThreadStart.Call(ctx, s.conn, ThreadStartParams{
		Model:          s.opts.Model,
		Cwd:            cwd,
		ApprovalPolicy: s.opts.ApprovalPolicy,
		Sandbox:        s.opts.Sandbox,
		DynamicTools:   []DynamicToolSpec{AskUserQuestionTool()},
		Config:         cfg,
	}))
}

// AddThreadAttachment records payload on thread as an attachment of
// kind, one per key (`thread/attachment/add`): Outcome says whether it
// was created or found. An *RPCError when the server has no such method
// (codex before thread attachments) or refuses it.
func (s *Session) AddThreadAttachment(ctx context.Context, thread, kind, key string, payload any) (ThreadAttachmentAddResponse, error) {
	return ThreadAttachmentAdd.Call(ctx, s.conn, ThreadAttachmentAddParams{ThreadID: thread, AttachmentType: kind, IdentityKey: key, Payload: payload})
}

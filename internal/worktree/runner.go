// Package worktree makes, merges, lists and removes the git worktrees
// tandem runs agents in, and finds where live threads touch the same
// file (Overlaps).
//
// Every git command goes through a Runner: on the agent's machine
// through the app-server's `command/exec` (Server: over --ssh and on the
// daemon too), or here (Local: tests, a local checkout). Paths are the
// runner's machine's, absolute, '/'-separated.
//
// A worktree of NAME is the branch tandem/NAME checked out beside the
// repository, at <parent>/<repo>-<NAME>; the checkout it came from is
// kept in the repository's config (branch.tandem/NAME.tandembase), so
// Merge knows where to merge it back from any later session.
package worktree

import (
	"context"
	"errors"
	"os"
	"os/exec"

	"tandem/backend"
)

// Result is what one command did: its exit code (non-zero is no error
// of Run's) and its output.
type Result struct {
	ExitCode       int
	Stdout, Stderr string
}

// Runner runs argv (no shell) in dir, an absolute directory on the
// machine it runs on, and returns its exit code and output. Its error is
// for a command that could not be run at all (not found, the connection
// gone, ctx done), never for a non-zero exit.
type Runner interface {
	Run(ctx context.Context, dir string, argv ...string) (Result, error)
}

// gitEnv is set for every git command: messages in English (for the
// errors tandem passes on), no prompt for credentials, no editor.
var gitEnv = map[string]string{"LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0", "GIT_EDITOR": "true"}

// Execer is what Server runs commands with: *backend.Session.
type Execer interface {
	Exec(ctx context.Context, r backend.ExecRequest) (backend.ExecResult, error)
}

// Server runs commands on the app-server's machine with `command/exec`
// (backend.Session.Exec).
//
// They run unsandboxed (danger-full-access), on purpose — hardened
// against what an agent may have put in the repository (harden.go): they are
// tandem's own fixed git commands, asked for by the user (--worktree,
// merge, remove), never the model's. Under the user's sandbox they could
// not do their work: read-only (codex's default) writes nothing — `git
// worktree add` fails to lock its new branch's ref (checked on 0.169.0)
// — and workspace-write writes only inside its writable roots, where
// codex keeps each root's .git read-only, while the worktree goes beside
// the repository, in its parent directory, which is none of them.
type Server struct{ Exec Execer }

// Run implements Runner through Exec.
func (s Server) Run(ctx context.Context, dir string, argv ...string) (Result, error) {
	r, err := s.Exec.Exec(ctx, backend.ExecRequest{Argv: argv, Cwd: dir, Env: gitEnv, Sandbox: "danger-full-access"})
	if err != nil {
		return Result{}, err
	}
	return Result{ExitCode: r.ExitCode, Stdout: r.Stdout, Stderr: r.Stderr}, nil
}

// Local runs commands on this machine (os/exec), with Env added to
// tandem's environment (tests set git's identity there).
type Local struct{ Env []string }

// Run implements Runner with os/exec.
func (l Local) Run(ctx context.Context, dir string, argv ...string) (Result, error) {
	if len(argv) == 0 {
		return Result{}, errors.New("worktree: no command")
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	for k, v := range gitEnv {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, l.Env...)
	var out, errOut limited
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && ctx.Err() == nil {
		return Result{ExitCode: exit.ExitCode(), Stdout: out.String(), Stderr: errOut.String()}, nil
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Stdout: out.String(), Stderr: errOut.String()}, nil
}

// limited keeps the first backend.DefaultExecOutputCap bytes written to
// it, as the server caps command/exec's output.
type limited struct{ b []byte }

func (l *limited) Write(p []byte) (int, error) {
	if room := backend.DefaultExecOutputCap - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limited) String() string { return string(l.b) }

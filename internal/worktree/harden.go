package worktree

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// The agent in a worktree can write its repository's shared git dir
// (codex lets a thread whose workspace is a linked worktree write it), so
// a repository's own config may name commands to run: core.fsmonitor, a
// hook, a clean/smudge filter, a merge driver, a textconv. tandem's git
// commands run outside the agent's sandbox, so none of those may run:
//
//   - every git command gets hardened first: no fsmonitor, no hooks, no
//     pager (gitResult);
//   - before tandem writes anything in a repository (Create, Merge,
//     Remove) or reads its status (Changed: a filter runs there), its
//     local config is read (never run) and any key that runs a command
//     refuses the operation, naming the key (checkConfig).

// hardened are git's global options for every command tandem runs.

var hardened = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat", "--no-pager"}

// runsCommands matches the config keys that make git run a command.
const runsCommands = `^(core\.(fsmonitor|hookspath|sshcommand|editor|pager|askpass|gitproxy)|filter\..*\.(clean|smudge|process)|merge\..*\.driver|diff\..*\.(textconv|command)|diff\.external|sequence\.editor|credential\..*|include\..*|includeif\..*|uploadpack\..*|gpg\..*program|alias\..*)$`

// ErrRepoRunsCommands is the error checkConfig wraps: the repository's
// config names a command git would run.
var ErrRepoRunsCommands = errors.New("the repository's git config names commands to run")

// checkConfig refuses a repository (the checkout at dir belongs to) whose
// local config names a command git would run: the agent may have put it
// there, and tandem's git runs outside its sandbox. It reads the config,
// runs nothing from it.
func checkConfig(ctx context.Context, r Runner, dir string) error {
	res, err := gitResult(ctx, r, dir, "config", "--no-includes", "--local", "--name-only", "--get-regexp", runsCommands)
	if err != nil {
		return err
	}
	if res.ExitCode == 1 { // none
		return nil
	}
	if res.ExitCode != 0 {
		return gitError([]string{"config", "--get-regexp"}, res)
	}
	keys := strings.Fields(res.Stdout)
	return fmt.Errorf("%w (%s): tandem runs no git there outside the sandbox; look at %s's .git/config", ErrRepoRunsCommands, strings.Join(keys, ", "), dir)
}

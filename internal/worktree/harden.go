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
//   - what only reads (QueryOnly) runs under the read-only sandbox
//     (Server), so whatever a config still makes git run can neither
//     write nor reach the network;
//   - before tandem writes anything in a repository (Create, Merge,
//     Remove), its local config is read (never run) and any key that
//     runs a command refuses the operation, naming the key (checkConfig).

// hardened are git's global options for every command tandem runs.

var hardened = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat", "--no-pager"}

// QueryOnly reports whether argv (a git command line as Runner gets it,
// hardened options first) only reads the repository: what Server runs
// read-only.
func QueryOnly(argv []string) bool {
	if len(argv) == 0 || argv[0] != "git" {
		return false
	}
	rest := argv[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		if rest[0] == "-c" && len(rest) > 1 {
			rest = rest[2:]
			continue
		}
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return false
	}
	switch rest[0] {
	case "rev-parse", "status", "diff", "symbolic-ref", "check-ref-format", "show-ref", "for-each-ref", "merge-base", "log", "ls-files":
		return true
	case "config":
		return len(rest) > 1 && (rest[1] == "--get" || rest[1] == "--get-regexp" || rest[1] == "-z" || rest[1] == "--no-includes")
	case "worktree":
		return len(rest) > 1 && rest[1] == "list"
	}
	return false
}

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

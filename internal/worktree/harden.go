package worktree

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// Nothing is signed (commit.gpgSign, tag.gpgSign off): signing runs
// the commands the config names (gpg.program, gpg.ssh.defaultKeyCommand)
// and may ask for a passphrase, with no terminal to ask on.
var hardened = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat",
	"-c", "commit.gpgSign=false", "-c", "tag.gpgSign=false", "--no-pager"}

// runsCommands matches the config keys that make git run a command.
const runsCommands = `^(core\.(fsmonitor|hookspath|sshcommand|editor|pager|askpass|gitproxy)|filter\..*\.(clean|smudge|process)|merge\..*\.driver|diff\..*\.(textconv|command)|diff\.external|sequence\.editor|credential\..*|include\..*|includeif\..*|uploadpack\..*|gpg\..*(program|command)|alias\..*)$`

// ErrRepoRunsCommands is the error checkConfig wraps: the repository's
// config names a command git would run.
var ErrRepoRunsCommands = errors.New("the repository's git config names commands to run")

// checkConfig refuses a repository (the checkout at dir belongs to) whose
// local config names a command git would run: the agent may have put it
// there, and tandem's git runs outside its sandbox. It reads the config,
// runs nothing from it.
//
// Both the repository's config (--local) and the checkout's own
// (--worktree: config.worktree, read by git once extensions.worktreeConfig
// is set, which the agent can set) are read.
func checkConfig(ctx context.Context, r Runner, dir string) error {
	scopes := []string{"--local"}
	if ext, err := gitResult(ctx, r, dir, "config", "--no-includes", "--local", "--type=bool", "--get", "extensions.worktreeConfig"); err != nil {
		return err
	} else if strings.TrimSpace(ext.Stdout) == "true" {
		scopes = append(scopes, "--worktree")
	}
	var keys []string
	for _, scope := range scopes {
		res, err := gitResult(ctx, r, dir, "config", "--no-includes", scope, "--name-only", "--get-regexp", runsCommands)
		if err != nil {
			return err
		}
		if res.ExitCode == 1 { // none
			continue
		}
		if res.ExitCode != 0 {
			return gitError([]string{"config", "--get-regexp"}, res)
		}
		for _, k := range strings.Fields(res.Stdout) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	return fmt.Errorf("%w (%s): tandem runs no git there outside the sandbox; look at %s's .git/config", ErrRepoRunsCommands, strings.Join(keys, ", "), dir)
}

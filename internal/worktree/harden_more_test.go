package worktree

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Signing a commit runs commands the repository's config names
// (gpg.ssh.defaultKeyCommand with gpg.format ssh): tandem's commit signs
// nothing, so the commit and its merge run none of them.
func TestCommitAndMergeRunsNoSigningCommand(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	wt, err := Create(ctx, local, root, "signed")
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	run(t, root, "git", "config", "commit.gpgSign", "true")
	run(t, root, "git", "config", "gpg.format", "ssh")
	run(t, root, "git", "config", "gpg.ssh.defaultKeyCommand", "touch "+marker)
	write(t, wt.Path, map[string]string{"a.txt": "a agent\n"})
	_, err = CommitAndMerge(ctx, local, wt, "tandem: signed", []string{"a.txt"})
	if _, statErr := os.Stat(marker); statErr == nil {
		t.Fatalf("the repository's signing key command ran (CommitAndMerge = %v)", err)
	}
	if err != nil && !errors.Is(err, ErrRepoRunsCommands) {
		t.Fatalf("CommitAndMerge = %v", err)
	}
}

// A worktree's own config (extensions.worktreeConfig, config.worktree:
// the agent can write both) is checked as the repository's is: a filter
// there refuses the commit before `git add` would run it.
func TestCommitAndMergeRefusesWorktreeConfig(t *testing.T) {
	root := newRepo(t, map[string]string{"a.txt": "a\n"})
	wt, err := Create(ctx, local, root, "wtconfig")
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	run(t, root, "git", "config", "extensions.worktreeConfig", "true")
	run(t, wt.Path, "git", "config", "--worktree", "filter.x.clean", "touch "+marker+"; cat")
	write(t, wt.Path, map[string]string{"a.txt": "a agent\n", ".gitattributes": "*.txt filter=x\n"})
	_, err = CommitAndMerge(ctx, local, wt, "tandem: wtconfig", []string{".gitattributes", "a.txt"})
	if !errors.Is(err, ErrRepoRunsCommands) || !strings.Contains(err.Error(), "filter.x.clean") {
		t.Errorf("CommitAndMerge = %v, want the worktree's config refused", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the worktree config's filter ran")
	}
}

package worktree

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository whose config an agent set to run commands (fsmonitor, a
// hook, a filter) runs none of them through tandem's git: reading its
// changes does not run the fsmonitor or the hook, and making, merging or
// removing a worktree there is refused, naming the keys.
func TestHostileRepoConfigRunsNothing(t *testing.T) {
	ctx := context.Background()
	root := newRepo(t, map[string]string{"README": "one\n"})
	wt, err := Create(ctx, local, root, "task")
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	run(t, root, "git", "config", "core.fsmonitor", "touch "+marker+"; false")
	hook := filepath.Join(root, ".git", "hooks", "post-checkout")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, wt.Path, map[string]string{"README": "two\n"})
	if _, err := status(ctx, local, wt.Path); err != nil { // hardened: the fsmonitor is off
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("reading the worktree's status ran the repository's fsmonitor")
	}
	if _, err := Changed(ctx, local, wt.Path); !errors.Is(err, ErrRepoRunsCommands) {
		t.Fatalf("Changed in a repository whose config runs commands: %v", err)
	}
	_, err = Create(ctx, local, root, "other")
	if !errors.Is(err, ErrRepoRunsCommands) || !strings.Contains(err.Error(), "core.fsmonitor") {
		t.Fatalf("Create in a repository whose config runs commands: %v", err)
	}
	if _, err := Merge(ctx, local, wt); !errors.Is(err, ErrRepoRunsCommands) {
		t.Fatalf("Merge: %v", err)
	}
	if err := Remove(ctx, local, wt, true); !errors.Is(err, ErrRepoRunsCommands) {
		t.Fatalf("Remove: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a command of the repository's config or hooks ran")
	}
}

package worktree

import (
	"fmt"
	"strings"
)

// ConflictError is Merge's refusal of a merge that would conflict: the
// files it would conflict in, relative to the root. Nothing was changed
// in either checkout.
type ConflictError struct {
	Branch, Base string
	Files        []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("merging %s into %s would conflict in %s; nothing was changed", e.Branch, e.Base, names(e.Files))
}

// DirtyError is a refusal because of uncommitted changes (staged,
// unstaged or untracked) at Root: Files are the paths, relative to Root,
// and What says what was refused and what to do.
type DirtyError struct {
	Root  string
	Files []string
	What  string
}

func (e *DirtyError) Error() string {
	return fmt.Sprintf("%s has uncommitted changes in %s: %s", e.Root, names(e.Files), e.What)
}

// UnmergedError is Remove's refusal of a worktree whose branch has
// Commits commits its base checkout does not have.
type UnmergedError struct {
	Branch, Base string
	Commits      int
}

func (e *UnmergedError) Error() string {
	return fmt.Sprintf("%s has %d commit(s) not merged into %s: merge it first, or remove with force to drop them", e.Branch, e.Commits, e.Base)
}

// names lists files for a message: the first 10, then how many more.
func names(files []string) string {
	const most = 10
	if len(files) <= most {
		return strings.Join(files, ", ")
	}
	return strings.Join(files[:most], ", ") + fmt.Sprintf(" and %d more", len(files)-most)
}

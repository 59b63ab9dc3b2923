package worktree

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// A worktree's branch counts what it committed since it left its base
// (not what the base did since); a checkout that is no tandem worktree
// counts nothing.
func TestCommitted(t *testing.T) {
	ctx := context.Background()
	root := newRepo(t, map[string]string{"README": "one\n", "main.go": "package main\n"})
	wt, err := Create(ctx, local, root, "docs")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Committed(ctx, local, wt.Path); err != nil || len(got) != 0 {
		t.Fatalf("a fresh worktree: %v, %v; want nothing", got, err)
	}
	commit(t, wt.Path, "docs", map[string]string{"README": "two\n"})
	commit(t, root, "main", map[string]string{"main.go": "package main // changed\n"})
	got, err := Committed(ctx, local, wt.Path)
	if want := []string{filepath.Join(wt.Path, "README")}; err != nil || !slices.Equal(got, want) {
		t.Fatalf("Committed = %v, %v; want %v", got, err, want)
	}
	if got, err := Committed(ctx, local, root); err != nil || got != nil {
		t.Fatalf("the main checkout: %v, %v; want nil", got, err)
	}
}

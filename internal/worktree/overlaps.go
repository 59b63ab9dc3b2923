package worktree

import (
	"context"
	"path"
	"slices"
	"strings"
)

// Touched is what one thread (or lane: Key) has changed in one checkout:
// the repository's common git dir (Common: the same for a checkout and
// all its worktrees), the checkout's root (Root) and the changed paths,
// absolute (Paths: from its fileChange items and Changed).
type Touched struct {
	Key          string
	Common, Root string
	Paths        []string
}

// Conflict is one path (relative to the checkouts' roots) that two or
// more keys changed in one repository (Common): Keys sorted, each once.
type Conflict struct {
	Common, Path string
	Keys         []string
}

// Changed is the checkout dir is in, as Overlaps takes it: its
// repository (Common), root and the paths `git status --porcelain -z`
// reports there (changed, staged or untracked), made absolute. Key is
// left empty, for the caller. An error when dir is in no git checkout, or
// in one whose config names commands git would run (ErrRepoRunsCommands:
// git status could run a filter).
func Changed(ctx context.Context, r Runner, dir string) (Touched, error) {
	repo, err := Locate(ctx, r, dir)
	if err != nil {
		return Touched{}, err
	}
	if err := checkConfig(ctx, r, repo.Root); err != nil { // harden.go: status could run a filter
		return Touched{}, err
	}
	rel, err := status(ctx, r, repo.Root)
	if err != nil {
		return Touched{}, err
	}
	t := Touched{Common: repo.Common, Root: repo.Root}
	for _, p := range rel {
		t.Paths = append(t.Paths, path.Join(repo.Root, p))
	}
	return t, nil
}

// Overlaps finds the paths two or more keys changed in one repository:
// keys whose Touched share Common (the same checkout, or worktrees of one
// repository) and a path relative to their Root. A path outside its Root
// is left out (it is no file of that checkout); several Touched of one
// key count once. The conflicts come sorted by Common, then Path. Pure.
func Overlaps(touched []Touched) []Conflict {
	type spot struct{ common, path string }
	who := map[spot][]string{}
	for _, t := range touched {
		root := path.Clean(t.Root)
		for _, p := range t.Paths {
			rel, ok := strings.CutPrefix(path.Clean(p), root+"/")
			if !ok || rel == "" {
				continue
			}
			s := spot{t.Common, rel}
			if !slices.Contains(who[s], t.Key) {
				who[s] = append(who[s], t.Key)
			}
		}
	}
	var out []Conflict
	for s, keys := range who {
		if len(keys) > 1 {
			slices.Sort(keys)
			out = append(out, Conflict{Common: s.common, Path: s.path, Keys: keys})
		}
	}
	slices.SortFunc(out, func(a, b Conflict) int {
		if c := strings.Compare(a.Common, b.Common); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}

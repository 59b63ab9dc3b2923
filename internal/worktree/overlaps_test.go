package worktree

import (
	"reflect"
	"testing"
)

func TestOverlaps(t *testing.T) {
	main := func(key string, paths ...string) Touched {
		return Touched{Key: key, Common: "/src/repo/.git", Root: "/src/repo", Paths: abs("/src/repo", paths)}
	}
	wt := func(key, name string, paths ...string) Touched {
		root := "/src/repo-" + name
		return Touched{Key: key, Common: "/src/repo/.git", Root: root, Paths: abs(root, paths)}
	}
	other := func(key string, paths ...string) Touched {
		return Touched{Key: key, Common: "/src/other/.git", Root: "/src/other", Paths: abs("/src/other", paths)}
	}
	for _, tc := range []struct {
		name    string
		touched []Touched
		want    []Conflict
	}{
		{"nothing", nil, nil},
		{"one key", []Touched{main("A", "a.go", "b.go")}, nil},
		{"two keys, other files", []Touched{main("A", "a.go"), wt("B", "b", "b.go")}, nil},
		{"one checkout, one file", []Touched{main("A", "x/a.go"), main("B", "x/a.go")},
			[]Conflict{{Common: "/src/repo/.git", Path: "x/a.go", Keys: []string{"A", "B"}}}},
		{"a worktree and its checkout", []Touched{wt("B", "b", "a.go"), main("A", "a.go", "c.go")},
			[]Conflict{{Common: "/src/repo/.git", Path: "a.go", Keys: []string{"A", "B"}}}},
		{"two worktrees of one repository", []Touched{wt("B", "b", "x/y.go"), wt("C", "c", "x/y.go", "z.go"), main("A", "z.go")},
			[]Conflict{{"/src/repo/.git", "x/y.go", []string{"B", "C"}}, {"/src/repo/.git", "z.go", []string{"A", "C"}}}},
		{"two repositories, same relative path", []Touched{main("A", "a.go"), other("B", "a.go")}, nil},
		{"one key twice (fileChange and git status)", []Touched{main("A", "a.go"), main("A", "a.go")}, nil},
		{"three keys", []Touched{main("C", "a.go"), wt("A", "a", "a.go"), wt("B", "b", "a.go")},
			[]Conflict{{"/src/repo/.git", "a.go", []string{"A", "B", "C"}}}},
		{"a path outside its root", []Touched{main("A", "a.go"), {Key: "B", Common: "/src/repo/.git", Root: "/src/repo-b", Paths: []string{"/src/repo/a.go"}}}, nil},
		{"a root's prefix is no root", []Touched{main("A", "a.go"), {Key: "B", Common: "/src/repo/.git", Root: "/src/repo", Paths: []string{"/src/repository/a.go"}}}, nil},
		{"unclean paths", []Touched{main("A", "d/../a.go"), {Key: "B", Common: "/src/repo/.git", Root: "/src/repo/", Paths: []string{"/src/repo//a.go"}}},
			[]Conflict{{"/src/repo/.git", "a.go", []string{"A", "B"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Overlaps(tc.touched); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Overlaps =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}

func abs(root string, paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, root+"/"+p)
	}
	return out
}

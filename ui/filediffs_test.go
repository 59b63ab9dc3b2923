package ui

import (
	"testing"

	"tandem/thread"
)

// FileDiffs shows paths under the thread's workspace relative to it.
func TestFileDiffsRelative(t *testing.T) {
	cases := []struct{ dir, p, want string }{
		{"/w/project", "/w/project/greet.sh", "greet.sh"},
		{"/w/project/", "/w/project/src/a.go", "src/a.go"},
		{"/w/project", "/w/projectile/a.go", "/w/projectile/a.go"},
		{"/w/project", "/etc/hosts", "/etc/hosts"},
		{"", "/w/a.go", "/w/a.go"},
		{"/w", "rel/a.go", "rel/a.go"},
	}
	for _, tc := range cases {
		if got := FileDiffs([]thread.FileDiff{{Path: tc.p}}, tc.dir)[0].Path; got != tc.want {
			t.Errorf("FileDiffs(%q, %q) = %q; want %q", tc.dir, tc.p, got, tc.want)
		}
	}
}

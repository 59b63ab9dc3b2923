package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeNamesWhatTheTestsNeed: the README's two commands say what
// they need and what scripts/test.sh installs, as the scripts and go.mod
// have it today — the Go version of go.mod, Node and npm, the pinned
// codex and CODEX_NEXT, and every system package test.sh may install.
func TestReadmeNamesWhatTheTestsNeed(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile("../../" + p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	readme, testSh, install, gomod := read("README.md"), read("scripts/test.sh"), read("scripts/install-codex.sh"), read("go.mod")
	var want []string
	if m := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(gomod); m != nil {
		want = append(want, "Go "+m[1])
	} else {
		t.Error("go.mod has no go line")
	}
	if m := regexp.MustCompile(`(?m)^PINNED=(\S+)$`).FindStringSubmatch(install); m != nil {
		want = append(want, "codex "+m[1], "@openai/codex@"+m[1])
	} else {
		t.Error("scripts/install-codex.sh pins no version")
	}
	if m := regexp.MustCompile(`(?m)^CODEX_NEXT=(\S+)$`).FindStringSubmatch(testSh); m != nil {
		want = append(want, "codex "+m[1], ".codex-bin/"+m[1]+"/")
	} else {
		t.Error("scripts/test.sh has no CODEX_NEXT")
	}
	pkgs := regexp.MustCompile(`need\+=\(([a-z0-9.+-]+)\)`).FindAllStringSubmatch(testSh, -1)
	if len(pkgs) < 3 {
		t.Errorf("found %d packages test.sh installs", len(pkgs))
	}
	for _, p := range pkgs {
		want = append(want, "`"+p[1]+"`")
	}
	want = append(want, "Node.js and npm", "apt-get")
	for _, w := range want {
		if !strings.Contains(readme, w) {
			t.Errorf("README.md does not name %s", w)
		}
	}
}

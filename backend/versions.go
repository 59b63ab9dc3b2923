package backend

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The codex releases tandem is tested with: the pinned one
// (scripts/install-codex.sh) through the newest (scripts/test.sh's
// CODEX_NEXT), both run by CI.
const (
	TestedCodexMin = "0.169.0"
	TestedCodexMax = "0.171.0"
)

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// parseVersion reads the first "X.Y.Z" in s; ok is false without one.
func parseVersion(s string) (v [3]int, ok bool) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return v, false
	}
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v, true
}

func less(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// CodexVersionOf is the "X.Y.Z" in s (a user agent "codex_cli_rs/0.169.0
// (…)", or `codex --version`'s "codex-cli 0.169.0"); "" without one.
func CodexVersionOf(s string) string {
	m := versionRE.FindString(s)
	return m
}

// UntestedCodex says why codex version v (as CodexVersionOf reads it) is
// outside the tested range, or "" when it is inside or unknown.
func UntestedCodex(v string) string {
	ver, ok := parseVersion(v)
	if !ok {
		return ""
	}
	lo, _ := parseVersion(TestedCodexMin)
	hi, _ := parseVersion(TestedCodexMax)
	switch {
	case less(ver, lo):
		return "codex " + v + " is older than tandem is tested with (" + TestedCodexMin + "–" + TestedCodexMax + "): it may lack what tandem asks of it"
	case less(hi, ver):
		return "codex " + v + " is newer than tandem is tested with (" + TestedCodexMin + "–" + TestedCodexMax + "): it should work; nothing checked it yet"
	}
	return ""
}

// CodexBinaryVersion runs `codex --version` for the codex tandem would
// start (LocateCodexFrom's search, command "" for the default) and
// returns its path and version; it gives up after 10 s.
func CodexBinaryVersion(command, from string) (path, version string, err error) {
	path, err = LocateCodexFrom(command, from)
	if err != nil {
		return "", "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return path, "", err
	}
	return path, CodexVersionOf(strings.TrimSpace(string(out))), nil
}

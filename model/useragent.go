package model

import (
	"regexp"
	"strings"
)

// uaVersion finds the version in an `initialize` userAgent such as
// "tandem/0.169.0 (Debian 13; x86_64) xterm-256color (tandem; 0.1.0)":
// the first token is the client's originator name (tandem's own) followed
// by the codex version.
var uaVersion = regexp.MustCompile(`^[^/\s]+/(\d+\.\d+[^\s(]*)`)

// serverVersion names the app-server for /status: "codex 0.169.0", or the
// userAgent as sent when it has no version to parse.
func serverVersion(userAgent string) string {
	ua := strings.TrimSpace(userAgent)
	if m := uaVersion.FindStringSubmatch(ua); m != nil {
		return "codex " + m[1]
	}
	return ua
}

package backend

import (
	"regexp"
	"strings"
)

// backtraceFrame matches the lines of a Rust backtrace (RUST_BACKTRACE=1):
// "   8: <unknown>", "             at src/main.rs:3:5", "Stack backtrace:".
var backtraceFrame = regexp.MustCompile(`^\s*(\d+: |at \S|Stack backtrace:|stack backtrace:)`)

// IsBacktraceLine reports whether a stderr line is a backtrace frame or
// header, which says nothing to a user.
func IsBacktraceLine(l string) bool { return backtraceFrame.MatchString(l) }

// StderrReason picks the line of a peer's last stderr lines that says why
// it failed: the last one starting with "Error:" or "error:", else the
// last non-blank line that is not part of a backtrace; "" when none is.
func StderrReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "Error:") || strings.HasPrefix(l, "error:") {
			return l
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !IsBacktraceLine(lines[i]) {
			return l
		}
	}
	return ""
}

// MeaningfulStderr drops blank lines and backtrace frames from a peer's
// last stderr lines.
func MeaningfulStderr(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && !IsBacktraceLine(l) {
			out = append(out, l)
		}
	}
	return out
}

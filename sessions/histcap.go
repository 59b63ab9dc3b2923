package sessions

import (
	"fmt"
	"unicode/utf8"

	"tandem/internal/lib/redact"
)

// MaxHistoryEntry is the most bytes one stored history entry keeps; a
// longer prompt (a big paste) is stored cut, with a marker.
const MaxHistoryEntry = 16 << 10

// historyEntry is what the state file keeps of a prompt: secrets redacted
// (tandem/internal/lib/redact), then cut to MaxHistoryEntry bytes (marker included) on a
// rune boundary with a "[truncated …]" marker.
func historyEntry(prompt string) string {
	return capEntry(redact.String(prompt))
}

func capEntry(s string) string {
	if len(s) <= MaxHistoryEntry {
		return s
	}
	// The marker fits in the cap, so a cut entry is never cut again.
	marker := fmt.Sprintf("\n… [truncated: %d bytes in all]", len(s))
	n := MaxHistoryEntry - len(marker)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + marker
}

// capAll cuts over-long entries written before MaxHistoryEntry existed.
func capAll(h []string) []string {
	for i, e := range h {
		if len(e) > MaxHistoryEntry {
			h[i] = capEntry(e)
		}
	}
	return h
}

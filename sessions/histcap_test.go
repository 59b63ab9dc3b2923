package sessions

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// Stored history entries are redacted and cut to MaxHistoryEntry bytes, so
// a big paste cannot blow up workspaces.json; entries from an older,
// uncapped file are cut on read and on the next write.
func TestHistoryEntriesRedactedAndCapped(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"
	huge := strings.Repeat("ä line of a very large paste\n", 40000) // ~1.2 MB
	cases := []struct {
		name, prompt string
		check        func(t *testing.T, got string)
	}{
		{"short kept", "fix the tests", func(t *testing.T, got string) {
			if got != "fix the tests" {
				t.Errorf("got %q", got)
			}
		}},
		{"secret redacted", "use OPENAI_API_KEY=" + key + " here", func(t *testing.T, got string) {
			if strings.Contains(got, key) || !strings.Contains(got, "[REDACTED]") {
				t.Errorf("secret not redacted: %q", got)
			}
		}},
		{"huge cut", huge, func(t *testing.T, got string) {
			if len(got) > MaxHistoryEntry || !strings.Contains(got, "[truncated: ") || !strings.HasPrefix(huge, strings.SplitN(got, "\n… [truncated", 2)[0]) {
				t.Errorf("huge entry stored as %d bytes (tail %q)", len(got), got[max(0, len(got)-60):])
			}
			if !strings.Contains(got, "[truncated: "+itoa(len(huge))+" bytes") {
				t.Errorf("marker lacks the size: %q", got[len(got)-60:])
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t.TempDir())
			if err := s.AddHistory("/w", c.prompt); err != nil {
				t.Fatal(err)
			}
			h := s.History("/w")
			if len(h) != 1 {
				t.Fatalf("history %d entries", len(h))
			}
			c.check(t, h[0])
			if fi, err := os.Stat(s.Path()); err != nil || fi.Size() > 2*MaxHistoryEntry+1024 {
				t.Fatalf("state file size %v (%v)", fi.Size(), err)
			}
		})
	}

	// An old file with a huge entry: read cut, rewritten cut.
	dir := t.TempDir()
	s := Open(dir)
	if err := os.WriteFile(s.Path(), []byte(`{"/w":{"history":["`+strings.Repeat("x", 900000)+`"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if h := s.History("/w"); len(h) != 1 || len(h[0]) > MaxHistoryEntry {
		t.Fatalf("old huge entry read back as %d bytes", len(h[0]))
	}
	if err := s.AddHistory("/w", "next"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(s.Path()); fi.Size() > 2*MaxHistoryEntry {
		t.Fatalf("state file still %d bytes after a write", fi.Size())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

package transcript

import (
	"strings"
	"testing"
	"unicode/utf8"

	"tandem/thread"
)

// An answer's newest line: its last non-empty line, trimmed; of a long
// one its end after "…", at most maxLastLine runes, however long the
// answer.
func TestLastNonEmpty(t *testing.T) {
	long := strings.Repeat("word ", 100) + "end"
	cases := []struct{ name, in, want string }{
		{"one line", "Done.", "Done."},
		{"blank lines after", "First.\n\nLast one.  \n\n \n", "Last one."},
		{"only blanks", " \n\n", ""},
		{"a long last line", "Intro.\n" + long, "…" + long[len(long)-(maxLastLine-1):]},
		{"one line longer than the window", strings.Repeat("x", 5000) + "\n" + strings.Repeat("é", 2000), "…" + strings.Repeat("é", maxLastLine-1)},
		{"wide runes", "日本語の行", "日本語の行"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := lastNonEmpty(c.in)
			if got != c.want {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
			if n := utf8.RuneCountInString(got); n > maxLastLine {
				t.Errorf("%d runes, more than %d", n, maxLastLine)
			}
		})
	}
}

// A command's line is as its cell shows it: codex's `bash -lc` wrapper
// off, the first line of a longer script, then "…".
func TestItemLineOfACommand(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"/bin/bash -lc 'echo hi > b.txt'", "$ echo hi > b.txt"},
		{"/bin/bash -lc 'go test ./...\ngo vet ./...'", "$ go test ./... …"},
		{"ls -la", "$ ls -la"},
	} {
		if got := itemLine(&thread.Item{Kind: thread.Command, Command: tc.cmd}); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

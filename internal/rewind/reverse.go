package rewind

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// hunk is one "@@ -a,b +c,d @@" block of a unified diff: the old side
// (context and removed lines) and the new side (context and added lines),
// each line with its newline unless the diff says "\ No newline at end
// of file".
type hunk struct {
	oldStart, newStart int // 1-based; 0 with an empty side
	oldLines, newLines []string
}

// parseHunks reads the hunks of a unified diff; "---"/"+++" headers and
// anything before the first hunk are skipped, and each hunk takes the
// lines its header counts, so what follows the last one (codex ends a
// move's diff with "Moved to: PATH") is not read as context.
func parseHunks(diff string) ([]hunk, error) {
	var hs []hunk
	lines := strings.Split(diff, "\n")
	for n := 0; n < len(lines); n++ {
		l := lines[n]
		if !strings.HasPrefix(l, "@@") {
			continue
		}
		var h hunk
		var oldN, newN int
		var err error
		if h.oldStart, oldN, h.newStart, newN, err = hunkHeader(l); err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		for oldN > 0 || newN > 0 {
			n++
			if n >= len(lines) {
				return nil, fmt.Errorf("hunk at line %d: %d old and %d new lines missing", h.oldStart, oldN, newN)
			}
			l := lines[n]
			switch {
			case strings.HasPrefix(l, "+"):
				h.newLines = append(h.newLines, l[1:]+"\n")
				newN--
			case strings.HasPrefix(l, "-"):
				h.oldLines = append(h.oldLines, l[1:]+"\n")
				oldN--
			case strings.HasPrefix(l, `\`):
				// a marker for the line before: handled below
			default: // context (" x", or an empty line some diffs leave)
				text := strings.TrimPrefix(l, " ") + "\n"
				h.oldLines = append(h.oldLines, text)
				h.newLines = append(h.newLines, text)
				oldN--
				newN--
			}
			// "\ No newline at end of file" after a line: it has none.
			if n+1 < len(lines) && strings.HasPrefix(lines[n+1], `\`) {
				n++
				switch {
				case strings.HasPrefix(l, "+"):
					trimLast(h.newLines)
				case strings.HasPrefix(l, "-"):
					trimLast(h.oldLines)
				default:
					trimLast(h.newLines)
					trimLast(h.oldLines)
				}
			}
		}
		hs = append(hs, h)
	}
	return hs, nil
}

func trimLast(s []string) {
	if len(s) > 0 {
		s[len(s)-1] = strings.TrimSuffix(s[len(s)-1], "\n")
	}
}

// hunkHeader reads "@@ -a[,b] +c[,d] @@…".
func hunkHeader(l string) (oldStart, oldN, newStart, newN int, err error) {
	f := strings.Fields(l)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, 0, fmt.Errorf("bad hunk header %q", l)
	}
	rng := func(s string) (int, int, error) {
		a, b, found := strings.Cut(s, ",")
		start, err := strconv.Atoi(a)
		if err != nil {
			return 0, 0, err
		}
		n := 1
		if found {
			if n, err = strconv.Atoi(b); err != nil {
				return 0, 0, err
			}
		}
		return start, n, nil
	}
	if oldStart, oldN, err = rng(f[1][1:]); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("bad hunk header %q", l)
	}
	if newStart, newN, err = rng(f[2][1:]); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("bad hunk header %q", l)
	}
	return oldStart, oldN, newStart, newN, nil
}

// splitLines splits data into lines, each with its "\n" (the last one
// without, when data does not end in one).
func splitLines(data []byte) []string {
	var out []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, string(data))
			break
		}
		out = append(out, string(data[:i+1]))
		data = data[i+1:]
	}
	return out
}

// Reverse undoes diff (a unified diff that turned some old content into
// cur) on cur and returns the old content. Every hunk's new side must be
// in cur where the hunk says, line for line; otherwise cur was changed
// since, and Reverse fails naming the hunk.
func Reverse(cur []byte, diff string) ([]byte, error) {
	hs, err := parseHunks(diff)
	if err != nil {
		return nil, err
	}
	if len(hs) == 0 {
		return nil, fmt.Errorf("the change has no hunks")
	}
	lines := splitLines(cur)
	// Bottom-up, so earlier positions stay where the diff says.
	for i := len(hs) - 1; i >= 0; i-- {
		h := hs[i]
		at := h.newStart - 1
		if len(h.newLines) == 0 {
			at = h.newStart // an empty new side follows line newStart
		}
		if at < 0 || at+len(h.newLines) > len(lines) {
			return nil, fmt.Errorf("hunk %d (line %d) is past the end of the file", i+1, h.newStart)
		}
		for k, want := range h.newLines {
			if lines[at+k] != want {
				return nil, fmt.Errorf("line %d differs from what the agent wrote", at+k+1)
			}
		}
		rest := append([]string(nil), lines[at+len(h.newLines):]...)
		lines = append(append(lines[:at], h.oldLines...), rest...)
	}
	return []byte(strings.Join(lines, "")), nil
}

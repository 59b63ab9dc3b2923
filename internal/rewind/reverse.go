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
// anything before the first hunk are skipped.
func parseHunks(diff string) ([]hunk, error) {
	var hs []hunk
	lines := strings.Split(diff, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var h *hunk
	var last *[]string // the side the line before a "\" marker went to
	both := false
	for n, l := range lines {
		switch {
		case strings.HasPrefix(l, "@@"):
			var oldN, newN int
			hh := hunk{}
			var err error
			if hh.oldStart, oldN, hh.newStart, newN, err = hunkHeader(l); err != nil {
				return nil, fmt.Errorf("line %d: %w", n+1, err)
			}
			_, _ = oldN, newN
			hs = append(hs, hh)
			h = &hs[len(hs)-1]
			last = nil
		case h == nil:
			continue // headers
		case strings.HasPrefix(l, `\`):
			// "\ No newline at end of file": the line before has none.
			if last != nil && len(*last) > 0 {
				s := *last
				s[len(s)-1] = strings.TrimSuffix(s[len(s)-1], "\n")
				if both {
					o := h.oldLines
					o[len(o)-1] = strings.TrimSuffix(o[len(o)-1], "\n")
				}
			}
		case strings.HasPrefix(l, "+"):
			h.newLines = append(h.newLines, l[1:]+"\n")
			last, both = &h.newLines, false
		case strings.HasPrefix(l, "-"):
			h.oldLines = append(h.oldLines, l[1:]+"\n")
			last, both = &h.oldLines, false
		default: // context (" x", or an empty line some diffs leave)
			text := strings.TrimPrefix(l, " ") + "\n"
			h.oldLines = append(h.oldLines, text)
			h.newLines = append(h.newLines, text)
			last, both = &h.newLines, true
		}
	}
	return hs, nil
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

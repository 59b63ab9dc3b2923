package rewind

import (
	"bytes"
	"fmt"
	"strings"

	"tandem/internal/lib/unidiff"
)

// hunk is one "@@ -a,b +c,d @@" block of a unified diff: the old side
// (context and removed lines) and the new side (context and added lines),
// each line with its newline unless the diff says "\ No newline at end
// of file".
type hunk struct {
	oldStart, newStart int // 1-based; 0 with an empty side
	oldLines, newLines []string
}

// parseHunks reads the hunks of a unified diff with the shared reader
// (internal/lib/unidiff): each hunk takes the lines its header counts, so
// what follows the last one (codex ends a move's diff with "Moved to:
// PATH") is not read as context. A hunk whose lines disagree with its
// counts, or a bad header, is an error: such a diff is not reversed.
func parseHunks(diff string) ([]hunk, error) {
	f := unidiff.Parse(diff)
	if err := f.Err(); err != nil {
		return nil, err
	}
	hs := make([]hunk, 0, len(f.Hunks))
	for _, uh := range f.Hunks {
		h := hunk{oldStart: uh.OldStart, newStart: uh.NewStart}
		for _, l := range uh.Lines {
			text := l.Text
			if !l.NoNewline {
				text += "\n"
			}
			if l.Op != unidiff.Add {
				h.oldLines = append(h.oldLines, text)
			}
			if l.Op != unidiff.Delete {
				h.newLines = append(h.newLines, text)
			}
		}
		hs = append(hs, h)
	}
	return hs, nil
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

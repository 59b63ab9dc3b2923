// Package unidiff reads unified diffs into a typed structure: the one
// reader behind everything tandem shows or reverses of a file change (the
// transcript's cells, the approvals, /diff, the rewind).
//
// A hunk is read by its header's counts ("@@ -a,b +c,d @@", a count left
// out is 1): every line inside it is content, whatever its text starts
// with ("+++", "---", "@@", "diff "…). Only lines outside hunks can be
// headers. A hunk whose lines disagree with its counts keeps every line
// it has and says so (Hunk.Problem): nothing is cut silently.
//
// codex sends an added or deleted file's whole content rather than a
// diff; ReadChange reads a change by its kind, never by guessing from
// the text.
//
// It imports nothing of tandem.
package unidiff

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Op is what a hunk line does: Context, Add or Delete (its sign in the
// diff).
type Op byte

// The hunk line kinds, as their signs.
const (
	Context Op = ' '
	Add     Op = '+'
	Delete  Op = '-'
)

// Line is one line of a hunk.
type Line struct {
	Op Op
	// Text is the line without its sign and its "\n"; the "\r" of a
	// CRLF line is kept.
	Text string
	// NoNewline: "\ No newline at end of file" follows the line (the
	// file's last line has no "\n").
	NoNewline bool
	// Extra: the line comes after its hunk's counts were used up.
	Extra bool
}

// Hunk is one "@@ -a,b +c,d @@" block: the header's starts and counts
// (1-based starts, 0 with an empty side) and the lines that follow.
type Hunk struct {
	OldStart, OldCount, NewStart, NewCount int
	// Section is what follows the header's closing "@@" (a function's
	// name), trimmed.
	Section string
	Lines   []Line
	// At is the header's line in the diff, 1-based (0 for a file's
	// content read by Content).
	At int
	// Problem says how the lines disagree with the counts ("" when they
	// agree): some are missing, or there are more of them.
	Problem string
}

// Header is a line outside every hunk, in the diff's order: Before is
// the index (in File.Hunks) of the hunk it precedes, len(Hunks) when it
// follows the last.
type Header struct {
	Kind   HeaderKind
	Text   string // the whole line, "\r" trimmed
	Before int
	At     int // 1-based line in the diff
}

// HeaderKind is what a line outside the hunks is.
type HeaderKind int

// The kinds of lines outside hunks.
const (
	Other   HeaderKind = iota // anything else (a line that is not a diff's)
	GitDiff                   // "diff --git a/x b/y"
	Index                     // "index 1a2b..3c4d 100644"
	OldFile                   // "--- a/x"
	NewFile                   // "+++ b/x"
	Mode                      // "new file mode", "deleted file mode", "old mode", "rename from" …
	Moved                     // "Moved to: PATH" (codex ends a move's diff so)
	Binary                    // "Binary files a and b differ", "GIT binary patch"
)

// File is one file's diff.
type File struct {
	Headers []Header
	Hunks   []Hunk
	// OldPath and NewPath are the paths the headers name ("a/" and "b/"
	// stripped; "/dev/null" as is), "" when none does. MovedTo is the
	// path of a "Moved to:" line.
	OldPath, NewPath, MovedTo string
	// Binary: a header says the change is binary (no lines to show).
	Binary bool
	// Added and Removed count the hunks' "+" and "-" lines, extra lines
	// included (every line that is shown).
	Added, Removed int
	// Problems are the file's faults outside its hunks ("line 4: bad
	// hunk header …").
	Problems []string
}

// Path is the file's path: NewPath, or OldPath for a deleted file.
func (f *File) Path() string {
	if f.NewPath == "" || f.NewPath == "/dev/null" {
		return f.OldPath
	}
	return f.NewPath
}

// Err is the first of the file's problems and its hunks', nil when it
// has none.
func (f *File) Err() error {
	if len(f.Problems) > 0 {
		return errors.New(f.Problems[0])
	}
	for _, h := range f.Hunks {
		if h.Problem != "" {
			return fmt.Errorf("hunk at line %d: %s", h.At, h.Problem)
		}
	}
	return nil
}

// ReadChange reads one file change by its kind, as codex names it:
// "add" and "delete" carry the file's whole content (each line shown as
// added, or removed, exactly as it is in the file); any other kind a
// unified diff (Parse).
func ReadChange(kind, text string) File {
	switch kind {
	case "add":
		return Content(Add, text)
	case "delete":
		return Content(Delete, text)
	}
	return Parse(text)
}

// Content is a file's whole content as one hunk of op (Add: the file is
// new; Delete: it is gone) lines. Empty content has no hunk.
func Content(op Op, content string) File {
	var f File
	if content == "" {
		return f
	}
	lines := splitLines(content)
	h := Hunk{Lines: make([]Line, len(lines))}
	for i, l := range lines {
		h.Lines[i] = Line{Op: op, Text: l}
	}
	h.Lines[len(lines)-1].NoNewline = !strings.HasSuffix(content, "\n")
	if op == Delete {
		h.OldStart, h.OldCount = 1, len(lines)
		f.Removed = len(lines)
	} else {
		h.NewStart, h.NewCount = 1, len(lines)
		f.Added = len(lines)
	}
	f.Hunks = []Hunk{h}
	return f
}

// Parse reads diff as one file's unified diff: headers, hunks, and
// whatever else lies outside them (as Other headers).
func Parse(diff string) File {
	p := parser{lines: splitLines(diff)}
	return p.file(false)
}

// ParseAll reads a diff of many files (git's "diff --git" sections, or
// plain "---"/"+++" pairs), one File each in the diff's order. A file
// starts only outside a hunk.
func ParseAll(diff string) []File {
	p := parser{lines: splitLines(diff)}
	var out []File
	for p.i < len(p.lines) {
		if f := p.file(true); len(f.Headers)+len(f.Hunks)+len(f.Problems) > 0 {
			out = append(out, f) // blank lines alone are no file
		}
	}
	return out
}

// splitLines splits s at "\n"; a final "\n" ends the last line rather
// than starting an empty one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

type parser struct {
	lines []string
	i     int // the next line
}

// fileHeaderPair reports whether lines i and i+1 are a "---"/"+++" pair.
func (p *parser) fileHeaderPair(i int) bool {
	return i+1 < len(p.lines) && strings.HasPrefix(p.lines[i], "--- ") && strings.HasPrefix(p.lines[i+1], "+++ ")
}

// file reads one file; multi stops it where another file starts.
func (p *parser) file(multi bool) File {
	var f File
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if multi && (strings.HasPrefix(l, "diff ") && (f.started() || hasKind(f.Headers, GitDiff)) ||
			p.fileHeaderPair(p.i) && f.started()) {
			break
		}
		if strings.HasPrefix(l, "@@") {
			h, err := hunkHeader(l)
			if err == nil {
				h.At = p.i + 1
				p.i++
				p.hunk(&f, h)
				continue
			}
			f.Problems = append(f.Problems, fmt.Sprintf("line %d: %v", p.i+1, err))
		}
		p.header(&f, l)
		p.i++
	}
	return f
}

// started reports whether f has hunks or names its paths: a "---"/"+++"
// pair or a "diff" line now starts another file.
func (f *File) started() bool {
	return len(f.Hunks) > 0 || hasKind(f.Headers, OldFile) || hasKind(f.Headers, NewFile)
}

func hasKind(hs []Header, k HeaderKind) bool {
	for _, h := range hs {
		if h.Kind == k {
			return true
		}
	}
	return false
}

// header files line l (outside every hunk) under its kind; blank lines
// are dropped.
func (p *parser) header(f *File, l string) {
	text := strings.TrimSuffix(l, "\r")
	if strings.TrimSpace(text) == "" {
		return
	}
	h := Header{Kind: kindOf(text), Text: text, Before: len(f.Hunks), At: p.i + 1}
	switch h.Kind {
	case GitDiff:
		if a, b, ok := strings.Cut(strings.TrimPrefix(text, "diff --git "), " b/"); ok && f.OldPath == "" && f.NewPath == "" {
			f.OldPath, f.NewPath = strings.TrimPrefix(a, "a/"), b
		}
	case OldFile:
		f.OldPath = headerPath(text[4:], "a/")
	case NewFile:
		f.NewPath = headerPath(text[4:], "b/")
	case Moved:
		f.MovedTo = strings.TrimSpace(strings.TrimPrefix(text, "Moved to:"))
	case Binary:
		f.Binary = true
	case Mode:
		if v, ok := strings.CutPrefix(text, "rename from "); ok {
			f.OldPath = v
		} else if v, ok := strings.CutPrefix(text, "rename to "); ok {
			f.NewPath = v
		}
	}
	f.Headers = append(f.Headers, h)
}

// headerPath is the path of a "---"/"+++" line: its prefix ("a/", "b/")
// and a tab-separated timestamp dropped.
func headerPath(s, prefix string) string {
	s, _, _ = strings.Cut(s, "\t")
	if s == "/dev/null" {
		return s
	}
	return strings.TrimPrefix(s, prefix)
}

var modePrefixes = []string{"new file mode ", "deleted file mode ", "old mode ", "new mode ", "similarity index ",
	"dissimilarity index ", "rename from ", "rename to ", "copy from ", "copy to "}

func kindOf(l string) HeaderKind {
	switch {
	case strings.HasPrefix(l, "diff "):
		return GitDiff
	case strings.HasPrefix(l, "index "):
		return Index
	case strings.HasPrefix(l, "--- "):
		return OldFile
	case strings.HasPrefix(l, "+++ "):
		return NewFile
	case strings.HasPrefix(l, "Moved to:"):
		return Moved
	case strings.HasPrefix(l, "Binary files ") || l == "GIT binary patch":
		return Binary
	}
	for _, m := range modePrefixes {
		if strings.HasPrefix(l, m) {
			return Mode
		}
	}
	return Other
}

// hunk reads the lines of h, whose header was the line before p.i: as
// many as its counts say, whatever they start with, then any more "+",
// "-" or " " lines before something else (extra, and said so).
func (p *parser) hunk(f *File, h Hunk) {
	oldLeft, newLeft := h.OldCount, h.NewCount
	for p.i < len(p.lines) && (oldLeft > 0 || newLeft > 0) {
		l := p.lines[p.i]
		if l == "" || l == "\r" { // an empty context line whose " " was lost
			l = " " + l
		}
		switch l[0] {
		case ' ':
			oldLeft--
			newLeft--
		case '+':
			newLeft--
		case '-':
			oldLeft--
		case '\\':
			noNewline(&h)
			p.i++
			continue
		default: // not a hunk line: the hunk ends short
			p.endHunk(f, h, oldLeft, newLeft, false)
			return
		}
		h.Lines = append(h.Lines, Line{Op: Op(l[0]), Text: l[1:]})
		p.i++
	}
	extra := false
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l == "" || strings.IndexByte(" +-\\", l[0]) < 0 || p.fileHeaderPair(p.i) {
			break
		}
		if l[0] == '\\' {
			noNewline(&h)
		} else {
			h.Lines = append(h.Lines, Line{Op: Op(l[0]), Text: l[1:], Extra: true})
			extra = true
		}
		p.i++
	}
	p.endHunk(f, h, oldLeft, newLeft, extra)
}

// noNewline marks the hunk's last line as having no "\n".
func noNewline(h *Hunk) {
	if len(h.Lines) == 0 {
		if h.Problem == "" {
			h.Problem = `a "\ No newline" marker before any line`
		}
		return
	}
	h.Lines[len(h.Lines)-1].NoNewline = true
}

// endHunk counts h's lines into f and says how they disagree with its
// header: oldLeft and newLeft are what the counts still expected
// (negative: that many more came), extra whether lines came after them.
func (p *parser) endHunk(f *File, h Hunk, oldLeft, newLeft int, extra bool) {
	oldN, newN := 0, 0
	for _, l := range h.Lines {
		switch l.Op {
		case Add:
			f.Added++
			newN++
		case Delete:
			f.Removed++
			oldN++
		default:
			oldN++
			newN++
		}
	}
	short := oldLeft > 0 || newLeft > 0
	over := oldLeft < 0 || newLeft < 0 || extra
	header := fmt.Sprintf("-%d,%d +%d,%d", h.OldStart, h.OldCount, h.NewStart, h.NewCount)
	switch {
	case h.Problem != "":
	case short && !over:
		h.Problem = fmt.Sprintf("%d old and %d new lines missing (its header says %s)", max(0, oldLeft), max(0, newLeft), header)
	case over:
		h.Problem = fmt.Sprintf("its lines (-%d,%d +%d,%d) disagree with its header's counts (%s)", h.OldStart, oldN, h.NewStart, newN, header)
	}
	f.Hunks = append(f.Hunks, h)
}

// hunkHeader reads "@@ -a[,b] +c[,d] @@[ section]".
func hunkHeader(l string) (Hunk, error) {
	var h Hunk
	f := strings.Fields(l)
	if len(f) < 3 || f[0] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return h, fmt.Errorf("bad hunk header %q", l)
	}
	var err1, err2 error
	h.OldStart, h.OldCount, err1 = hunkRange(f[1][1:])
	h.NewStart, h.NewCount, err2 = hunkRange(f[2][1:])
	if err1 != nil || err2 != nil || len(f) > 3 && f[3] != "@@" {
		return h, fmt.Errorf("bad hunk header %q", l)
	}
	if _, rest, ok := strings.Cut(l[2:], "@@"); ok {
		h.Section = strings.TrimSpace(rest)
	}
	return h, nil
}

// hunkRange reads "a[,b]" (b left out is 1).
func hunkRange(s string) (start, n int, err error) {
	a, b, found := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil || start < 0 {
		return 0, 0, fmt.Errorf("bad range %q", s)
	}
	n = 1
	if found {
		if n, err = strconv.Atoi(b); err != nil || n < 0 {
			return 0, 0, fmt.Errorf("bad range %q", s)
		}
	}
	return start, n, nil
}

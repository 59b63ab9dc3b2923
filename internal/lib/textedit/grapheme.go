package textedit

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// cluster returns the byte length of the grapheme cluster that starts at
// pos, which must be a cluster boundary below len(s): x/ansi finds it
// (UAX #29, Unicode 15.1: an Indic conjunct such as स्ते is one), as
// lipgloss and the renderer do. Two ASCII bytes in a row are always two
// clusters (the buffer holds no CR), so ASCII text never reaches it.
func cluster(s string, pos int) int {
	if s[pos] < utf8.RuneSelf && (pos+1 == len(s) || s[pos+1] < utf8.RuneSelf) {
		return 1
	}
	c, _ := ansi.FirstGraphemeCluster(s[pos:], ansi.GraphemeWidth)
	return len(c)
}

// clusterWidth is cluster and the cluster's display width in cells as
// the terminal advances over it under m: with ansi.WcWidth (a terminal
// without Unicode core mode, 2027: tmux, xterm, most) the sum of its
// code points' widths (नमस्ते is 4 cells, 👩‍💻 is 4); with
// ansi.GraphemeWidth (mode 2027 on) the cluster's own width (3, 2). The
// renderer measures the same way, so the rows the buffer wraps are the
// rows the terminal shows.
func clusterWidth(s string, pos int, m ansi.Method) (n, w int) {
	if s[pos] < utf8.RuneSelf && (pos+1 == len(s) || s[pos+1] < utf8.RuneSelf) {
		return 1, 1
	}
	c, w := ansi.FirstGraphemeCluster(s[pos:], m)
	return len(c), w
}

// plain reports whether a cluster boundary is certain on both sides of r
// when its neighbour is plain too: no Unicode rule (UAX #29) joins two
// such runes. Latin below the combining marks (U+0300), CJK ideographs,
// kana without the combining sound marks, and precomposed Hangul
// syllables (a syllable never joins a syllable; only jamo join them).
func plain(r rune) bool {
	switch {
	case r < 0x300:
		return r != '\r'
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF:
		return true
	case r >= 0x3041 && r <= 0x3096, r >= 0x30A1 && r <= 0x30FA:
		return true
	case r >= 0xAC00 && r <= 0xD7A3:
		return true
	}
	return false
}

// safeStart returns a cluster boundary below pos (pos > 0): the nearest
// point between two plain runes, else 0. Segmenting forward from there is
// exact, and it is near pos in any text but a long run of emoji or
// combining marks.
func safeStart(s string, pos int) int {
	q := pos
	for q > 0 {
		r1, n1 := utf8.DecodeLastRuneInString(s[:q])
		p := q - n1
		if p == 0 {
			return 0
		}
		r0, _ := utf8.DecodeLastRuneInString(s[:p])
		if plain(r0) && plain(r1) {
			return p
		}
		q = p
	}
	return 0
}

// prevBoundary returns the start of the cluster that ends at pos (a
// boundary); 0 at the start.
func prevBoundary(s string, pos int) int {
	if pos <= 0 {
		return 0
	}
	if s[pos-1] < utf8.RuneSelf && (pos == 1 || s[pos-2] < utf8.RuneSelf) {
		return pos - 1
	}
	q := safeStart(s, pos)
	for {
		n := cluster(s, q)
		if q+n >= pos {
			return q
		}
		q += n
	}
}

// snap returns the first cluster boundary at or after pos: after an edit
// the cursor may sit inside a cluster the edit made (an e before a
// combining accent that was already there).
func snap(s string, pos int) int {
	if pos <= 0 {
		return 0
	}
	if pos >= len(s) {
		return len(s)
	}
	if s[pos-1] < utf8.RuneSelf && s[pos] < utf8.RuneSelf {
		return pos
	}
	q := safeStart(s, pos)
	for q < pos {
		n := cluster(s, q)
		q += n
	}
	return q
}

// isSpace reports whether the cluster at pos is white space (a word
// boundary for the word motions).
func isSpace(s string, pos int) bool {
	if c := s[pos]; c < utf8.RuneSelf {
		return c == ' '
	}
	r, _ := utf8.DecodeRuneInString(s[pos:])
	return unicode.IsSpace(r)
}

// tabSpaces is what a tab becomes: the composer draws no tab stops, and
// the textarea it replaced did the same.
const tabSpaces = "    "

// Sanitize makes s fit for the buffer: CRLF and a lone CR become LF, a tab
// becomes four spaces, other control characters (C0, DEL, C1), bidi
// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: they
// would reorder what the terminal shows of the draft) and invalid UTF-8
// are dropped, as termsafe shows them elsewhere. Text that needs none of
// it is returned as is, without a copy.
func Sanitize(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n') || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
		case r == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				n++ // CRLF: one LF
			}
			b.WriteByte('\n')
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString(tabSpaces)
		case unicode.IsControl(r), bidiControl(r):
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// bidiControl reports a bidi embedding, override or isolate.
func bidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// TextWidth returns the display width of s as the buffer measures it
// (see SetMethod), cluster by cluster.
func (b *Buffer) TextWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		n, cw := clusterWidth(s, i, b.method)
		i += n
		w += cw
	}
	return w
}

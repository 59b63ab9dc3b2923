package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize makes text from the server, a tool or a file safe to draw: no
// byte of it can move the cursor, start an escape sequence or reorder what
// the terminal shows, so what is drawn is what will run. It keeps "\n",
// turns "\r\n" into "\n", expands tabs, and shows every other control
// visibly:
//
//   - ESC as the four characters `\x1b` (an escape sequence reads as text);
//   - "\r" as ␍, the other C0 controls as their control pictures (␀ … ␟),
//     DEL as ␡;
//   - C1 controls (U+0080–U+009F), bidi embeddings, overrides and isolates
//     (U+202A–U+202E, U+2066–U+2069) as <U+XXXX>;
//   - invalid UTF-8 bytes as U+FFFD.
//
// Text that needs none of this is returned as is, without allocating.
func Sanitize(s string) string {
	return ExpandTabs(sanitizeControls(s))
}

// SanitizeLine is Sanitize for a single line: "\n" is shown as ␊ too.
func SanitizeLine(s string) string {
	return strings.ReplaceAll(Sanitize(s), "\n", "␊")
}

// sanitizeControls is Sanitize without the tab expansion (tabs depend on
// the column, so text sanitized in pieces expands them once assembled).
func sanitizeControls(s string) string {
	i := firstUnsafe(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
				// CRLF is a line break.
			case c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f):
				b.WriteByte(c)
			case c == 0x1b:
				b.WriteString(`\x1b`)
			case c == 0x7f:
				b.WriteRune('␡')
			default:
				b.WriteRune(rune(0x2400 + int(c))) // control pictures
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case unsafeRune(r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe returns the index of the first byte Sanitize would change,
// or len(s).
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || unsafeRune(r) {
			return i
		}
		i += n
	}
	return len(s)
}

// unsafeRune reports a non-ASCII rune that must not reach the terminal:
// a C1 control or a bidi embedding, override or isolate.
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// safeText keeps a sanitized mirror of text that only grows (a streamed
// message), sanitizing each new piece once. A piece may end inside a
// UTF-8 sequence or between "\r" and "\n": that end is held back until
// more arrives or the text is final.
type safeText struct {
	b    strings.Builder
	from int // bytes of the source already sanitized
}

// update brings the mirror up to src (which extends what was seen so far)
// and returns it; final flushes what was held back.
func (t *safeText) update(src string, final bool) string {
	if t.from > len(src) {
		t.reset()
	}
	chunk := src[t.from:]
	if !final {
		chunk = chunk[:completePrefix(chunk)]
	}
	if chunk != "" {
		t.b.WriteString(sanitizeControls(chunk))
		t.from += len(chunk)
	}
	return t.b.String()
}

func (t *safeText) reset() {
	t.b.Reset()
	t.from = 0
}

// completePrefix returns the length of s without a trailing incomplete
// UTF-8 sequence or a trailing "\r".
func completePrefix(s string) int {
	n := len(s)
	// back up over at most 3 continuation/lead bytes of an unfinished rune
	for k := 1; k <= 3 && k <= n; k++ {
		c := s[n-k]
		if c < utf8.RuneSelf {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRuneInString(s[n-k:]) {
				n -= k
			}
			break
		}
	}
	if n > 0 && s[n-1] == '\r' {
		n--
	}
	return n
}

package ui

import (
	"strings"
	"unicode/utf8"

	"tandem/internal/termsafe"
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
	return ExpandTabs(termsafe.Controls(s))
}

// SanitizeLine is Sanitize for a single line: "\n" is shown as ␊ too.
func SanitizeLine(s string) string {
	return strings.ReplaceAll(Sanitize(s), "\n", "␊")
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
		t.b.WriteString(termsafe.Controls(chunk))
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

// SanitizePlain prepares text for a pipe or a file that may be shown on a
// terminal later (termsafe.Plain): complete escape sequences are dropped,
// other controls shown as Sanitize does; "\n" and tabs are kept.
func SanitizePlain(s string) string { return termsafe.Plain(s) }

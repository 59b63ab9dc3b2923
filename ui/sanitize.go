package ui

import (
	"strings"

	"tandem/internal/lib/termsafe"
)

// Sanitize makes text from the server, a tool or a file safe to draw: no
// byte of it can move the cursor, start an escape sequence or reorder what
// the terminal shows, so what is drawn is what will run. It keeps "\n",
// turns "\r\n" into "\n", expands tabs, and shows every other control
// visibly:
//
//   - an escape sequence as a marker: ␛ and its whole payload, its
//     controls as control pictures ("\x1b]0;title\x07" → "␛]0;title␇",
//     "\x1b[2J" → "␛[2J"; termsafe.Marker), so what the model reads of it
//     is on the screen too;
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
// UTF-8 sequence, between "\r" and "\n" or inside an escape sequence:
// that end is held back (termsafe.Stable) until more arrives or the text
// is final.
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
		chunk = chunk[:termsafe.Stable(chunk)]
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

// SanitizePlain prepares text for a pipe or a file that may be shown on a
// terminal later (termsafe.Plain): as Sanitize, but colours (SGR
// sequences) are dropped, and "\n" and tabs are kept. Every other escape
// sequence is kept as its marker.
func SanitizePlain(s string) string { return termsafe.Plain(s) }

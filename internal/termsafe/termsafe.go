// Package termsafe makes text from the server, tools and files safe to
// write to a terminal. It is the one sanitizer: ui draws through it
// (ui.Sanitize), exec and export write through it. It imports nothing of
// tandem.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Controls makes s safe to write to a terminal: it keeps "\n" and tabs,
// turns "\r\n" into "\n", and shows every other control visibly: ESC as
// the four characters `\x1b`, "\r" as ␍, the other C0 controls as their
// control pictures (␀ … ␟), DEL as ␡, C1 controls (U+0080–U+009F) and
// bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
// as <U+XXXX>, invalid UTF-8 bytes as U+FFFD. Text that needs none of
// this is returned as is, without allocating. ui.Sanitize builds on it.
func Controls(s string) string {
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

// Plain prepares text for a pipe or a file that may be shown on a
// terminal later: complete escape sequences (colours, OSC 52, titles,
// clear screen) are dropped, and whatever control is left is shown as
// Controls does; "\n" and tabs are kept.
func Plain(s string) string {
	if firstUnsafe(s) == len(s) {
		return s
	}
	return Controls(ansi.Strip(s))
}

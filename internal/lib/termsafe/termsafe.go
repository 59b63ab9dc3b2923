// Package termsafe makes text from the server, tools and files safe to
// write to a terminal. It is the one sanitizer: ui draws through it
// (ui.Sanitize); exec, export, /copy and the spill files $PAGER shows
// write through it (Writer for a stream). It imports nothing of tandem.
//
// What is written is what the model reads: no byte is hidden. An escape
// sequence a terminal would act on without drawing (a title, OSC 52, a
// hyperlink, a DCS or APC payload, a cursor move) is shown as a marker,
// its whole payload in control pictures ("\x1b]0;title\x07" →
// "␛]0;title␇"; see Marker). Only SGR sequences (colours, bold, conceal)
// may be dropped, by Plain and by callers of Spans that ask for it; they
// draw nothing and dropping them can't conceal text.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Controls makes s safe to write to a terminal: it keeps "\n" and tabs,
// turns "\r\n" into "\n", and shows every other control visibly: an
// escape sequence (SGR included) as its Marker ("\x1b[2J" → "␛[2J"),
// "\r" as ␍, the other C0 controls as their control pictures (␀ … ␟),
// DEL as ␡, C1 controls (U+0080–U+009F) and bidi embeddings, overrides
// and isolates (U+202A–U+202E, U+2066–U+2069) as <U+XXXX>, invalid UTF-8
// bytes as U+FFFD. Text that needs none of this is returned as is,
// without allocating. ui.Sanitize builds on it.
func Controls(s string) string { return show(s, false) }

// Plain prepares text for a pipe or a file that may be shown on a
// terminal later: as Controls, but SGR sequences (colours) are dropped
// silently; every other escape sequence (OSC 52, titles, clear screen)
// is kept as its Marker, so what the model read is all there. "\n" and
// tabs are kept.
func Plain(s string) string { return show(s, true) }

// show is Controls, or Plain when dropSGR.
func show(s string, dropSGR bool) string {
	i := firstUnsafe(s)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	eol := -1 // end of the line i is on, for escape sequences
	for i < len(s) {
		if s[i] == 0x1b {
			if eol < i {
				eol = lineEnd(s, i)
			}
			n, _ := sequence(s[i:eol])
			if seq := s[i : i+n]; !dropSGR || !isSGR(seq) {
				writeMarker(&b, seq)
			}
			i += n
			continue
		}
		i += writeVisible(&b, s, i, false)
	}
	return b.String()
}

// writeVisible writes the visible form of the byte or rune at s[i] (or
// of the run of printable ASCII it begins) and returns how many bytes it
// took. In a marker (inMarker) tabs are shown as ␉ and ESC as ␛;
// outside, tabs and "\n" are kept and "\r\n" becomes "\n".
func writeVisible(b *strings.Builder, s string, i int, inMarker bool) int {
	c := s[i]
	if c >= 0x20 && c < 0x7f {
		// a run of printable ASCII at once
		j := i + 1
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
			j++
		}
		b.WriteString(s[i:j])
		return j - i
	}
	if c < utf8.RuneSelf {
		switch {
		case !inMarker && c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF is a line break.
		case !inMarker && (c == '\n' || c == '\t'):
			b.WriteByte(c)
		case c == 0x7f:
			b.WriteRune('␡')
		default:
			b.WriteRune(rune(0x2400 + int(c))) // control pictures; ESC is ␛
		}
		return 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && n == 1:
		b.WriteRune(utf8.RuneError)
	case unsafeRune(r) || invisible(s, i, r, n):
		fmt.Fprintf(b, "<U+%04X>", r)
	default:
		b.WriteString(s[i : i+n])
	}
	return n
}

// firstUnsafe returns the index of the first byte Controls would change,
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
		if (r == utf8.RuneError && n == 1) || unsafeRune(r) || invisible(s, i, r, n) {
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

// invisible reports a rune at s[i:i+n] that draws nothing, or next to
// nothing, and so could carry text a person would not see although a
// model reads it: zero-width spaces and joiners out of place, bidi marks,
// line and paragraph separators, the soft hyphen, fillers, invisible
// operators, and the variation selectors and tag characters that can
// spell whole words ("ASCII smuggling"). Where they do their visible job
// they pass: a zero-width joiner or non-joiner between two non-ASCII
// characters (an emoji sequence, Persian, Devanagari), an emoji or text
// presentation selector after a symbol or a keycap base, and tags inside
// a flag's tag sequence (🏴 … U+E007F).
func invisible(s string, i int, r rune, n int) bool {
	switch {
	case r < 0xad:
		return false
	case r == 0xad, r == 0x34f, r == 0x61c, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r == 0x180e,
		r == 0x200b, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029, r >= 0x2060 && r <= 0x2064,
		r == 0x3164, r == 0xfeff, r == 0xffa0, r >= 0xfff9 && r <= 0xfffb,
		r >= 0xfe00 && r <= 0xfe0d, r >= 0xe0100 && r <= 0xe01ef:
		return true
	case r == 0x200c || r == 0x200d: // ZWNJ, ZWJ
		prev, next := runeBefore(s, i), runeAfter(s, i+n)
		return prev < 0x80 || next < 0x80
	case r == 0xfe0e || r == 0xfe0f: // text or emoji presentation
		prev := runeBefore(s, i)
		return !(prev >= 0x2000 || prev == '#' || prev == '*' || prev >= '0' && prev <= '9')
	case r >= 0xe0000 && r <= 0xe007f: // tags
		return !inFlagTags(s, i)
	}
	return false
}

// runeBefore is the rune that ends s[:i] (-1 at the start).
func runeBefore(s string, i int) rune {
	if i <= 0 {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// runeAfter is the rune that starts s[j:] (-1 at the end).
func runeAfter(s string, j int) rune {
	if j >= len(s) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(s[j:])
	return r
}

// inFlagTags reports whether the tag character at s[i] belongs to a
// flag's tag sequence: a run of at most 16 tags right after U+1F3F4.
func inFlagTags(s string, i int) bool {
	for k := 0; k <= 16; k++ {
		r := runeBefore(s, i)
		switch {
		case r == 0x1f3f4:
			return true
		case r < 0xe0020 || r > 0xe007e:
			return false
		}
		_, n := utf8.DecodeLastRuneInString(s[:i])
		i -= n
	}
	return false
}

// Marker returns how the escape sequence seq (as Spans yields it) is
// shown: ESC as ␛ and every byte after it visible — printable text as
// is, controls as control pictures (BEL ␇, tab ␉, "\r" ␍), C1 controls
// and bidi controls as <U+XXXX>, invalid UTF-8 as U+FFFD. So
// "\x1b]8;;http://x\x1b\\" is "␛]8;;http://x␛\".
func Marker(seq string) string {
	var b strings.Builder
	b.Grow(len(seq) + 8)
	writeMarker(&b, seq)
	return b.String()
}

func writeMarker(b *strings.Builder, seq string) {
	for i := 0; i < len(seq); {
		i += writeVisible(b, seq, i, true)
	}
}

// Stable returns the length of the longest prefix of s that Controls and
// Plain draw the same however s is extended later: it leaves out a
// trailing escape sequence that is not complete yet, a trailing "\r"
// (it may begin "\r\n") and a trailing incomplete UTF-8 sequence. A
// streamed text is sanitized piece by piece up to there.
func Stable(s string) int {
	// An escape sequence ends at a line's end at the latest: only the
	// last line can hold one still open.
	line := strings.LastIndexByte(s, '\n') + 1
	if esc := strings.IndexByte(s[line:], 0x1b); esc >= 0 {
		for i := line + esc; i < len(s); {
			if s[i] != 0x1b {
				i++
				continue
			}
			k, open := sequence(s[i:])
			if open {
				return i
			}
			i += k
		}
	}
	return len(s) - unfinished(s)
}

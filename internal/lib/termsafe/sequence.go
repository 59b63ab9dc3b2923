package termsafe

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Kind says what a span of text is (see Spans).
type Kind uint8

const (
	// Text is text with no escape sequence in it; it may hold other
	// controls, which Controls shows.
	Text Kind = iota
	// Escape is an escape sequence other than SGR: ESC and what follows
	// it, to its terminator, or to the end of its line when it has none.
	// Marker shows it.
	Escape
	// SGR is a Select Graphic Rendition sequence (CSI … m: colours,
	// bold, conceal). It draws nothing; Marker shows it, or it may be
	// dropped.
	SGR
)

// Spans calls yield for each span of s, in order, as it was given (raw):
// runs of Text and, for each ESC, the escape sequence it starts (Escape
// or SGR). Concatenated, the spans are s. An escape sequence never
// spans a line: it ends at "\n" (or at "\r\n") at the latest.
func Spans(s string, yield func(span string, k Kind)) {
	start, eol := 0, -1
	for i := 0; i < len(s); {
		if s[i] != 0x1b {
			i++
			continue
		}
		if start < i {
			yield(s[start:i], Text)
		}
		if eol < i {
			eol = lineEnd(s, i)
		}
		n, _ := sequence(s[i:eol])
		seq := s[i : i+n]
		if isSGR(seq) {
			yield(seq, SGR)
		} else {
			yield(seq, Escape)
		}
		i += n
		start = i
	}
	if start < len(s) {
		yield(s[start:], Text)
	}
}

// lineEnd returns where the line holding s[i] ends: at its "\n", or at
// the "\r" of its "\r\n", or at len(s).
func lineEnd(s string, i int) int {
	j := strings.IndexByte(s[i:], '\n')
	if j < 0 {
		return len(s)
	}
	j += i
	if j > i && s[j-1] == '\r' {
		j--
	}
	return j
}

// sequence measures the escape sequence at the start of s (s[0] is ESC;
// s ends where the sequence must end at the latest). It returns its
// length n ≥ 1 and whether it is still open: it ran to the end of s
// without a terminator, so more text after s could extend it.
//
// CSI and two- or three-byte ESC sequences are measured by
// ansi.DecodeSequence. String sequences (OSC, DCS, APC, PM, SOS) are
// scanned here: that decoder takes any byte 0x9c for ST, and in UTF-8
// text 0x9c is as often part of a character ("✓" is E2 9C 93). A string
// ends after BEL (OSC only), after ST (ESC \ or U+009C), or before a
// CAN, a SUB or an ESC that does not begin ST (which cancel it).
func sequence(s string) (n int, open bool) {
	if len(s) < 2 {
		return len(s), true
	}
	switch s[1] {
	case ']', 'P', '_', '^', 'X':
		for j := 2; j < len(s); j++ {
			switch s[j] {
			case 0x07:
				if s[1] == ']' {
					return j + 1, false
				}
			case 0x18, 0x1a:
				return j, false
			case 0x1b:
				if j+1 == len(s) {
					return len(s), true
				}
				if s[j+1] == '\\' {
					return j + 2, false
				}
				return j, false
			case 0xc2:
				if j+1 < len(s) && s[j+1] == 0x9c {
					return j + 2, false
				}
			}
		}
		return len(s), true
	}
	_, _, n, state := ansi.DecodeSequence(s, ansi.NormalState, nil)
	if state != ansi.NormalState {
		return len(s), true
	}
	return n, false
}

// isSGR reports whether seq is a complete SGR sequence: ESC [, numeric
// parameters (digits, ";" and ":") and the final "m".
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for i := 2; i < len(seq)-1; i++ {
		if c := seq[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

package find

import "strings"

// The marks Mark draws with: reverse video for a match, reverse and
// underline for the current one. SGR attributes, not colours, so they
// read on any palette and with NO_COLOR.
const (
	markOn      = "\x1b[7m"
	markCurOn   = "\x1b[7;4m"
	markOff     = "\x1b[27;24m"
	escape      = '\x1b'
	bel         = '\a'
	csiIntroLen = 2
)

// Plain returns line without its escape sequences (CSI, OSC, and
// two-byte ones): the text a query is matched against.
func Plain(line string) string {
	if strings.IndexByte(line, escape) < 0 {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] == escape {
			i += seqLen(line[i:])
			continue
		}
		b.WriteByte(line[i])
		i++
	}
	return b.String()
}

// seqLen is the length of the escape sequence s starts with.
func seqLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[': // CSI: parameters, then a final byte 0x40–0x7E
		for j := csiIntroLen; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ST
		for j := 2; j < len(s); j++ {
			if s[j] == bel {
				return j + 1
			}
			if s[j] == escape && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return 2
}

// Mark returns line (styled with escape sequences) with spans of its
// plain text (Plain's offsets) marked; the span numbered cur (-1 for
// none) is marked as the current match. A style set inside a span (a
// reset) does not end the mark: it is drawn again after it.
func Mark(line string, spans []Span, cur int) string {
	if len(spans) == 0 {
		return line
	}
	var b strings.Builder
	b.Grow(len(line) + len(spans)*16)
	p, k := 0, 0 // plain offset, next span
	in := false
	on := func() string {
		if k == cur {
			return markCurOn
		}
		return markOn
	}
	for i := 0; i <= len(line); {
		if in && p == spans[k].End {
			b.WriteString(markOff)
			in = false
			k++
		}
		if !in && k < len(spans) && p == spans[k].Start {
			b.WriteString(on())
			in = true
		}
		if i == len(line) {
			break
		}
		if line[i] == escape {
			n := seqLen(line[i:])
			b.WriteString(line[i : i+n])
			if in && n > 2 && line[i+1] == '[' && line[i+n-1] == 'm' {
				b.WriteString(on()) // a reset inside the match: mark again
			}
			i += n
			continue
		}
		b.WriteByte(line[i])
		i++
		p++
	}
	if in {
		b.WriteString(markOff)
	}
	return b.String()
}

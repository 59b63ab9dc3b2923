package config

import (
	"strings"
)

// lineIndex maps each key of a TOML document to the line it is defined on,
// so validation errors found after decoding can still name a line. The
// decoder keeps key positions private; this small scanner covers what a
// config file uses: [table] and [[array]] headers, bare, quoted and dotted
// keys, comments, and multi-line strings (skipped). Keys inside inline
// tables resolve to the line of the inline table.
type lineIndex struct {
	lines map[string]int // key parts joined by "\x00" → 1-based line
}

func indexLines(data []byte) *lineIndex {
	idx := &lineIndex{lines: map[string]int{}}
	var table []string
	inMulti := ""
	for i, raw := range strings.Split(string(data), "\n") {
		n := i + 1
		line := strings.TrimSpace(raw)
		if inMulti != "" {
			if strings.Count(line, inMulti)%2 == 1 {
				inMulti = ""
			}
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		if strings.HasPrefix(line, "[") {
			hdr := strings.TrimPrefix(line, "[")
			hdr = strings.TrimPrefix(hdr, "[")
			end := indexOutsideQuotes(hdr, ']')
			if end < 0 {
				continue
			}
			table = splitKey(hdr[:end])
			idx.add(table, n)
			continue
		}
		eq := indexOutsideQuotes(line, '=')
		if eq < 0 {
			continue
		}
		key := append(append([]string{}, table...), splitKey(line[:eq])...)
		idx.add(key, n)
		val := strings.TrimSpace(line[eq+1:])
		for _, q := range []string{`"""`, `'''`} {
			if strings.HasPrefix(val, q) && strings.Count(val, q)%2 == 1 {
				inMulti = q
			}
		}
	}
	return idx
}

func (idx *lineIndex) add(key []string, n int) {
	k := strings.Join(key, "\x00")
	if _, ok := idx.lines[k]; !ok {
		idx.lines[k] = n
	}
}

// line returns the line of key, or of its nearest defined parent, or 0.
func (idx *lineIndex) line(key []string) int {
	if idx == nil {
		return 0
	}
	for l := len(key); l > 0; l-- {
		if n, ok := idx.lines[strings.Join(key[:l], "\x00")]; ok {
			return n
		}
	}
	return 0
}

// indexOutsideQuotes returns the index of the first stop byte in s that is
// not inside a quoted part, or -1. It finds the ] that ends a header and
// the = that ends a key.
func indexOutsideQuotes(s string, stop byte) int {
	q := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' {
				i++
			}
		case c == '"' || c == '\'':
			q = c
		case c == stop:
			return i
		}
	}
	return -1
}

// splitKey splits a dotted key into its parts, unquoting quoted parts.
func splitKey(s string) []string {
	var parts []string
	var cur strings.Builder
	q := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			q = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}

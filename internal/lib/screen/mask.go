package screen

import (
	"strings"

	"tandem/internal/lib/redact"
)

// The screen is redacted as it reads. A row's text starts after its
// indentation and decoration (the composer's "› " and "  ", the
// transcript's "▌ ", "│ "), and rows become logical lines: a row is
// joined to the next when the next row's first word would not have fit
// after its text (within joinSlack columns of the right edge), that is
// when a wrap put the word there. A row whose text reaches the edge was
// cut there, inside a word, so it is joined without a space (a key
// wrapped at the edge is one word again); one that stops short was
// wrapped at a space, so a space joins it. As a word may also end right
// at the edge, the rows are read a second time with a space at every
// join. In both readings redact.Find marks what redact.String would hide,
// redact.FindPartial the keys still being typed and redact.FindRandom
// runs that look like key material by themselves (the tail of a key
// whose first row, with its prefix, has scrolled out of view); those
// cells are overwritten with redact.Marker, clipped to the span or padded
// with blanks, continuing across rows, each cell keeping its style. A
// run FindRandom finds in the tight reading does not take in the plain
// words of a row above it (dropLeadingWords).

// joinSlack is how far short of the right edge a row's wrapping may stop.
const joinSlack = 3

// decoration reports whether a cell's content frames text rather than
// being part of it: blanks, bars and prompts at the start or the end of
// a row.
func decoration(c Cell) bool {
	if c.Width == 0 {
		return true
	}
	switch c.Content {
	case " ", "", "▌", "▐", "│", "┃", "║", "╎", "┆", "┊", "›", "❯", "»":
		return true
	}
	return false
}

// lead returns where a row's text begins, after its indentation and
// decoration.
func lead(row []Cell) int {
	i := 0
	for i < len(row) && decoration(row[i]) {
		i++
	}
	return i
}

// reading is the text of the screen read one way, and for each byte the
// position in the cell sequence it shows (-1 for separators).
type reading struct {
	text []byte
	pos  []int32
}

func (r *reading) reset() { r.text, r.pos = r.text[:0], r.pos[:0] }

func (r *reading) sep(c byte) {
	r.text = append(r.text, c)
	r.pos = append(r.pos, -1)
}

// mask overwrites the secrets shown in f.
func (s *Screen) mask(f *Frame) {
	w := f.Cols
	s.cells = s.cells[:0] // the cells read, in reading order
	tight, spaced := &s.reads[0], &s.reads[1]
	tight.reset()
	spaced.reset()
	for y := 0; y < f.Rows; y++ {
		row := f.Row(y)
		start, end := lead(row), w
		for end > start && decoration(row[end-1]) {
			end--
		}
		for x := start; x < end; x++ {
			c := row[x]
			if c.Width == 0 {
				continue
			}
			n := int32(len(s.cells))
			s.cells = append(s.cells, int32(y*w+x))
			tight.text = append(tight.text, c.Content...)
			spaced.text = append(spaced.text, c.Content...)
			for range len(c.Content) {
				tight.pos = append(tight.pos, n)
				spaced.pos = append(spaced.pos, n)
			}
		}
		// Does the next row continue this one?
		if y+1 < f.Rows && end > start {
			next := f.Row(y + 1)
			from := lead(next)
			word := from
			for word < w && next[word].Content != " " {
				word++
			}
			if word > from && end+1+(word-from) > w-joinSlack {
				if end < w-joinSlack {
					tight.sep(' ')
				}
				spaced.sep(' ')
				continue
			}
		}
		tight.sep('\n')
		spaced.sep('\n')
	}
	var runs [][2]int // of s.cells
	for n, r := range s.reads {
		str := string(r.text)
		random := redact.FindRandom(str)
		if n == 0 { // the tight reading
			random = s.dropLeadingWords(&r, str, random, w)
		}
		for _, b := range redact.MergeRanges(redact.Find(str), redact.FindPartial(str), random) {
			from, to := int32(-1), int32(-1)
			for _, p := range r.pos[b[0]:b[1]] {
				if p >= 0 {
					if from < 0 {
						from = p
					}
					to = p + 1
				}
			}
			if from >= 0 {
				runs = append(runs, [2]int{int(from), int(to)})
			}
		}
	}
	for _, run := range redact.MergeRanges(runs) {
		k := 0
		for _, i := range s.cells[run[0]:run[1]] {
			k = maskCell(f, int(i), k)
		}
	}
}

// dropLeadingWords returns the runs of redact.FindRandom found in the
// tight reading r (text str, rows w cells wide) less the rows of plain
// words they start with. Reading tight glues a word that ends at the
// right edge to the start of the next row, so "abcdefghijklmnopqr" above
// a key would be taken for part of it: a run's first row is dropped
// while it holds only lower-case letters, "-" and "_" (a row of key
// material, 20 characters or more of base64url, all but never does) and
// the rest is checked again.
func (s *Screen) dropLeadingWords(r *reading, str string, random [][2]int, w int) [][2]int {
	out := random[:0]
	for _, b := range random {
		start, end := b[0], b[1]
		for {
			row := s.cells[r.pos[start]] / int32(w)
			j := start
			for j < end && s.cells[r.pos[j]]/int32(w) == row {
				j++
			}
			if j == end || !plainWord(str[start:j]) {
				break
			}
			start = j
		}
		if start == b[0] {
			out = append(out, b)
			continue
		}
		for _, c := range redact.FindRandom(str[start:end]) {
			out = append(out, [2]int{start + c[0], start + c[1]})
		}
	}
	return out
}

// plainWord reports whether s holds only lower-case letters, "-" and "_".
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// maskCell writes the k-th character of the marker over cell i (both
// columns of a wide one) and returns the index of the next character.
func maskCell(f *Frame, i, k int) int {
	c := &f.Cells[i]
	wide := c.Width > 1 && i+1 < len(f.Cells)
	c.Content, c.Width = markerAt(k), 1
	k++
	if wide {
		n := &f.Cells[i+1]
		n.Content, n.Width = markerAt(k), 1
		k++
	}
	return k
}

func markerAt(k int) string {
	if k < len(redact.Marker) {
		return redact.Marker[k : k+1]
	}
	return " "
}

// find returns the ranges of s the screen masks: what redact.Find,
// redact.FindPartial and redact.FindRandom report, merged.
func find(s string) [][2]int {
	return redact.MergeRanges(redact.Find(s), redact.FindPartial(s), redact.FindRandom(s))
}

// MaskString returns s with what the screen masks (find) replaced by
// redact.Marker: what redact.String hides, keys still being typed and
// runs that look like key material. Frame titles are masked with it.
func MaskString(s string) string {
	rs := find(s)
	if len(rs) == 0 {
		return s
	}
	return maskRanges(s, rs)
}

// maskRanges replaces each of the ordered, disjoint ranges of s with
// redact.Marker.
func maskRanges(s string, rs [][2]int) string {
	var b strings.Builder
	pos := 0
	for _, r := range rs {
		b.WriteString(s[pos:r[0]])
		b.WriteString(redact.Marker)
		pos = r[1]
	}
	b.WriteString(s[pos:])
	return b.String()
}

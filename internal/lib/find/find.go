// Package find is the matching behind tandem's searches: a literal
// query, smart-case (a query with an upper-case letter matches case;
// one without ignores it, Unicode's simple case folding), counted in a
// long text or located in a line, and the line's matches marked without
// disturbing the escape sequences it is styled with.
//
// Offsets are byte offsets into the plain (escape-free) text unless
// named otherwise; the server's UTF-16 offsets are converted by UTF16.
//
// It imports nothing of tandem.
package find

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Query is a search term ready to match. The zero value matches nothing.
type Query struct {
	raw string
	// fold: the query has no upper-case letter, so case is ignored;
	// lower is the query lower-cased then.
	fold  bool
	lower string
}

// New returns the query for term: smart-case, literal (no pattern
// syntax). An empty term matches nothing.
func New(term string) Query {
	q := Query{raw: term, fold: true}
	for _, r := range term {
		if unicode.IsUpper(r) {
			q.fold = false
			break
		}
	}
	if q.fold {
		q.lower = strings.ToLower(term)
	}
	return q
}

// Term is the query as typed.
func (q Query) Term() string { return q.raw }

// Empty reports whether the query matches nothing (no term).
func (q Query) Empty() bool { return q.raw == "" }

// Folds reports whether the query ignores case: then Count wants the
// text as Fold gives it.
func (q Query) Folds() bool { return q.fold }

// Fold returns text as a case-ignoring query counts in it (lower-cased);
// a caller keeps it to count many queries in one long text.
func Fold(text string) string { return strings.ToLower(text) }

// Count returns how many times the query occurs in text, not
// overlapping. For a query that Folds, text must be Fold's (the same
// text lower-cased); otherwise the text as it is.
func (q Query) Count(text string) int {
	if q.raw == "" {
		return 0
	}
	if q.fold {
		return strings.Count(text, q.lower)
	}
	return strings.Count(text, q.raw)
}

// Span is one match: bytes [Start, End) of the plain text.
type Span struct{ Start, End int }

// Spans returns the query's matches in plain, left to right, not
// overlapping. Case is compared rune by rune (simple folding), so the
// offsets are plain's own even where lower-casing would change a
// rune's length.
func (q Query) Spans(plain string) []Span {
	if q.raw == "" || len(plain) < len(q.raw)/utf8.UTFMax {
		return nil
	}
	if !q.fold {
		var out []Span
		for i := 0; ; {
			j := strings.Index(plain[i:], q.raw)
			if j < 0 {
				return out
			}
			out = append(out, Span{i + j, i + j + len(q.raw)})
			i += j + len(q.raw)
		}
	}
	var out []Span
	first, _ := utf8.DecodeRuneInString(q.raw)
	for i := 0; i < len(plain); {
		r, n := utf8.DecodeRuneInString(plain[i:])
		if equalFold(r, first) {
			if end, ok := q.matchAt(plain, i); ok {
				out = append(out, Span{i, end})
				i = end
				continue
			}
		}
		i += n
	}
	return out
}

// matchAt reports whether the query matches plain at byte i, ignoring
// case, and where the match ends.
func (q Query) matchAt(plain string, i int) (int, bool) {
	for _, qr := range q.raw {
		if i >= len(plain) {
			return 0, false
		}
		r, n := utf8.DecodeRuneInString(plain[i:])
		if !equalFold(r, qr) {
			return 0, false
		}
		i += n
	}
	return i, true
}

// equalFold reports whether runes a and b are equal under simple case
// folding.
func equalFold(a, b rune) bool {
	if a == b {
		return true
	}
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		return 'A' <= a && a <= 'Z' && a+'a'-'A' == b || 'A' <= b && b <= 'Z' && b+'a'-'A' == a
	}
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// UTF16 converts the UTF-16 code-unit range [start, end) of s (the
// app-server's snippet ranges) to byte offsets, clamped to s; a range
// splitting a surrogate pair takes the whole rune.
func UTF16(s string, start, end int) (int, int) {
	bs, be := -1, len(s)
	u := 0
	for i, r := range s {
		if bs < 0 && u >= start {
			bs = i
		}
		if u >= end {
			be = i
			break
		}
		if r >= 0x10000 {
			u += 2
		} else {
			u++
		}
		if bs < 0 && u > start {
			bs = i
		}
	}
	if bs < 0 {
		bs = len(s)
	}
	return bs, max(bs, be)
}

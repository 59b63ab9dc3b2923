package redact

import (
	"sort"
	"strings"
)

// Find returns the byte ranges of s that String replaces with Marker, as
// [start, end) pairs in increasing order, merged where they overlap or
// touch; nil when String would return s unchanged. A caller that keeps
// its own layout (a terminal screen: one cell per character) masks these
// ranges in place instead of rewriting the text.
// Find and String share their finders (findSpans).
func Find(s string) [][2]int {
	hints := scan(s)
	if hints == 0 {
		return nil
	}
	spans := findSpans(s, hints)
	var out [][2]int
	for _, sp := range spans {
		out = append(out, [2]int{sp.start, sp.end})
	}
	return mergeRanges(out)
}

// MergeRanges returns the [start, end) byte ranges of all sets as one
// set: in order, overlapping or touching ranges joined, empty ones
// dropped; nil when there is none. The sets are left as they are.
func MergeRanges(sets ...[][2]int) [][2]int {
	var all [][2]int
	for _, s := range sets {
		all = append(all, s...)
	}
	return mergeRanges(all)
}

// mergeRanges sorts rs and merges the ones that overlap or touch; empty
// ranges are dropped.
func mergeRanges(rs [][2]int) [][2]int {
	if len(rs) == 0 {
		return nil
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	out := rs[:0]
	for _, r := range rs {
		if r[1] <= r[0] {
			continue
		}
		if n := len(out); n > 0 && r[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// partialPrefixes start the secrets String recognises by their shape
// (see findPrefixed and formats.go), longest first where one extends
// another. A word starting with one is a key being typed once a few
// characters follow it (FindPartial).
var partialPrefixes = []struct {
	prefix string
	fold   bool // match ignoring ASCII case, as findPrefixed does for sk-
	upper  bool // only A-Z and 0-9 may follow (AWS access key ids)
}{
	{prefix: "sk-proj-", fold: true},
	{prefix: "sk_live_"}, {prefix: "sk_test_"}, {prefix: "rk_live_"}, {prefix: "rk_test_"},
	{prefix: "sk-", fold: true},
	{prefix: "github_pat_"},
	{prefix: "ghp_"}, {prefix: "gho_"}, {prefix: "ghu_"}, {prefix: "ghs_"}, {prefix: "ghr_"},
	{prefix: "xoxb-"}, {prefix: "xoxp-"}, {prefix: "xoxa-"}, {prefix: "xoxr-"}, {prefix: "xoxs-"},
	{prefix: "AKIA", upper: true}, {prefix: "ASIA", upper: true},
	{prefix: "AIza"},
	{prefix: "eyJ"},
	{prefix: "bearer ", fold: true},
}

// PartialMin is how many characters must follow a secret's prefix before
// FindPartial reports the word: "sk-proj-Ab1" is, "sk-proj-Ab" not yet.
const PartialMin = 3

// FindPartial returns the byte ranges of words in s that look like a
// secret still being typed, or cut short, which String leaves alone
// because it is not complete yet: a word that starts at a word boundary
// with a known secret prefix (sk-, sk-proj-, ghp_ and the other GitHub
// prefixes, github_pat_, xoxb- and the other Slack ones, AKIA, ASIA,
// AIza, eyJ, sk_live_ and the other Stripe ones) followed by at least
// PartialMin characters (letters, digits, "-", "_", and "." after eyJ)
// among which is a digit, an upper-case letter, "-" or "_". Words such as
// "sk-learn" or "ghp_list" are not reported. After "Bearer " the token
// alone is reported, on the same terms. Ranges are [start, end) pairs in
// increasing order, merged where they overlap or touch.
func FindPartial(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != 's' && c != 'S' && c != 'r' && c != 'g' && c != 'x' && c != 'A' && c != 'e' && c != 'b' && c != 'B' {
			continue
		}
		if !wordBoundary(s, i) {
			continue
		}
		for _, p := range partialPrefixes {
			if !hasPrefix(s[i:], p.prefix, p.fold) {
				continue
			}
			start := i + len(p.prefix)
			if p.prefix == "bearer " {
				for start < len(s) && (s[start] == ' ' || s[start] == '\t') {
					start++
				}
			}
			end, ok := partialEnd(s, start, p.upper, p.prefix == "eyJ")
			if ok {
				from := i
				if p.prefix == "bearer " {
					from = start
				}
				out = append(out, [2]int{from, end})
				i = end - 1
			}
			break // the longest matching prefix decides
		}
	}
	return mergeRanges(out)
}

// partialEnd returns the end of the run of key characters from i and
// whether it makes a partial key: PartialMin or more characters, at least
// one of them a digit, an upper-case letter, "-" or "_".
func partialEnd(s string, i int, upper, dots bool) (int, bool) {
	j := i
	random := false
	for j < len(s) {
		c := s[j]
		switch {
		case '0' <= c && c <= '9', 'A' <= c && c <= 'Z':
			random = true
		case upper:
			// AKIA…: only upper-case letters and digits.
			return j, random && j-i >= PartialMin && (j == len(s) || !isAlnum(s[j]))
		case 'a' <= c && c <= 'z':
		case c == '-' || c == '_':
			random = true
		case c == '.' && dots:
		default:
			return j, random && j-i >= PartialMin
		}
		j++
	}
	return j, random && j-i >= PartialMin
}

// hasPrefix reports whether s starts with p, ignoring ASCII case when
// fold is set (p is then lower-case).
func hasPrefix(s, p string, fold bool) bool {
	if fold {
		return hasFold(s, p)
	}
	return strings.HasPrefix(s, p)
}

// RandomMin is the shortest run of key characters FindRandom reports.
const RandomMin = 32

// FindRandom returns the byte ranges of s that look like a credential by
// themselves, with no prefix or key name to say so: each maximal run of
// at least RandomMin bytes of [A-Za-z0-9_-] that holds an upper-case
// letter, a lower-case letter and a digit, as base64url key material
// does. Hex hashes (git SHAs: lower-case and digits), UUIDs, words,
// snake_case and CONSTANT_CASE names lack one of the three and are not
// reported; a long camel-case name with a digit is. Ranges are [start,
// end) pairs in increasing order, apart from each other; nil when there
// are none.
//
// It is for text a person sees, where part of a key can be shown without
// its prefix (the rows of a scrolled composer after the one holding
// "sk-proj-"): internal/lib/screen masks these runs too. String and Find do
// not use it, so the base64 payloads of protocol traces stay readable.
func FindRandom(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		if !isURLSafe(s[i]) {
			i++
			continue
		}
		j := i
		var upper, lower, digit bool
		for ; j < len(s) && isURLSafe(s[j]); j++ {
			switch c := s[j]; {
			case 'A' <= c && c <= 'Z':
				upper = true
			case 'a' <= c && c <= 'z':
				lower = true
			case '0' <= c && c <= '9':
				digit = true
			}
		}
		if j-i >= RandomMin && upper && lower && digit {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}

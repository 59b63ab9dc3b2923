package redact

import "strings"

// Values: where a secret value starts and ends once its name or prefix
// was found (valueSpan and the character classes the finders share).

// valueSpan returns the value starting at i. open is the value's opening
// quote including any backslashes that escape it ("" when unquoted).
//
// A quoted value ends at its closing quote, or, when the quote is never
// closed on its line, where the line ends (quotedEnd), as an unquoted one
// does: an unclosed quote never swallows the text after it.
func valueSpan(s string, i int, open string) (span, bool) {
	if strings.HasPrefix(s[i:], Marker) {
		return span{}, false
	}
	if open == "" {
		end := i
		for end < len(s) {
			c := s[end]
			if (c == '&' || c == ';') && end+1 < len(s) && !isValueEnd(s[end+1]) && !startsPair(s, end+1) {
				end++ // "Tr0ub4dor&3xyz": not a query's next pair
				continue
			}
			if m := requoteLen(s, end, c); m > 0 {
				end += m // inside a single-quoted word: 'K=abc'\''def'
				continue
			}
			if isValueEnd(c) {
				break
			}
			end++
		}
		return wordValue(s, i, end)
	}
	q := open[len(open)-1]
	n := len(open) - 1 // backslashes escaping the opening quote
	end := i
	for end < len(s) {
		c := s[end]
		if c == '\n' || c == '\r' || c == '\x1b' || c == '\a' {
			break
		}
		if c == '\\' {
			r := end
			for r < len(s) && s[r] == '\\' {
				r++
			}
			if r < len(s) && (s[r] == 'n' || s[r] == 'r') && escapedBreak(q, n, r-end) {
				break
			}
			end = r // the byte after the run is read on its own
			continue
		}
		if c == q {
			k := 0
			for k < end-i && s[end-1-k] == '\\' {
				k++
			}
			if (n == 0 && k%2 == 0) || (n > 0 && k == n) {
				if m := requoteLen(s, end, q); m > 0 {
					end += m // an escaped quote: the value goes on
					continue
				}
				break
			}
		}
		end++
	}
	if n > 0 {
		// The closing quote's escaping backslashes are not value.
		for end > i && s[end-1] == '\\' && end < len(s) && s[end] == q {
			end--
		}
	}
	if end == i || s[i:end] == Marker {
		return span{}, false
	}
	return span{start: i, end: end}, true
}

// requoteLen returns the length of the escaped single quote that starts
// at the quote s[i] of a single-quoted value (q), 0 when s[i] closes the
// value. Two forms escape a quote: YAML doubles it (2 bytes), and the
// POSIX shell closes the string, adds a backslash-escaped quote and
// reopens it (4 bytes, more when JSON escapes the backslash):
//
//	password: 'Tr0ub''4dor'
//	API_TOKEN='abc'\''def'
//	{"command":"API_TOKEN='abc'\\''def'"}
func requoteLen(s string, i int, q byte) int {
	if q != '\'' || i+1 >= len(s) {
		return 0
	}
	if s[i+1] == '\'' {
		return 2
	}
	j := i + 1
	for j < len(s) && s[j] == '\\' {
		j++
	}
	if j > i+1 && strings.HasPrefix(s[j:], "''") {
		return j + 2 - i
	}
	return 0
}

// escapedBreak reports whether a run of r backslashes followed by n or r,
// inside a value quoted with q escaped by n backslashes, writes a line
// break that ends the value rather than a character of it.
//
// A single-quoted value (shell, YAML, prose) has no escapes of its own:
// any such run is a JSON or C escape of the text around it (one
// backslash in a JSON-RPC line, two in JSON text inside one), so the
// value ends there however many backslashes write it. A double-quoted
// value is a JSON (or C) string whose own escapes are written with n+1
// or more backslashes ("password":"a\nb" holds a newline): those belong
// to the value, and only a run of n or fewer, a line break of the text
// the string sits in, ends it.
func escapedBreak(q byte, n, r int) bool {
	return q != '"' || r <= n
}

// wordValue returns the span s[i:end] of an unquoted value unless it is
// empty, a JSON or YAML literal (null, true, …) or Marker already.
func wordValue(s string, i, end int) (span, bool) {
	switch strings.ToLower(s[i:end]) {
	case "", "null", "true", "false", "none", "nil", "undefined", strings.ToLower(Marker):
		return span{}, false
	}
	return span{start: i, end: end}, true
}

// startsPair reports whether s[i:] starts the next name=value pair of a
// URL query or a connection string ("state=x", "User=x", "ids[]=1"), so
// the '&' or ';' before i ends a value rather than being part of it.
func startsPair(s string, i int) bool {
	j := i
	for j < len(s) && (isKeyChar(s[j]) || s[j] == '[' || s[j] == ']' || s[j] == '%') {
		j++
	}
	return j > i && j < len(s) && s[j] == '='
}

// lineStart reports whether the key starting at i starts a line: only
// indentation, list, quote and comment markers ("- ", "* ", "> ", "< ",
// "# "), "export " and ANSI CSI sequences (ESC [ … final, raw or as
// \u001b) stand between it and the start of s, a newline or carriage
// return, or a JSON or C escape of one (\n, \r). encoded is set in the
// last case: the line is inside an encoded JSON string.
func lineStart(s string, i int) (ok, encoded bool) {
	j := i
	// The key's run of name bytes may have taken in the letter of an
	// escape ("\npassword") or a CSI's parameters and final byte
	// ("ESC[1mpassword").
	switch {
	case j > 0 && j+1 < len(s) && s[j-1] == '\\' && (s[j] == 'n' || s[j] == 'r'):
		return true, true
	case j > 0 && j+1 < len(s) && s[j-1] == '\\' && s[j] == 't':
		j--
	case j > 0 && s[j-1] == '[':
		q := j
		for q < len(s) && (s[q] >= '0' && s[q] <= '9' || s[q] == ';' || s[q] == '?' || s[q] == ':') {
			q++
		}
		if q < len(s) {
			if k := csiStart(s, q+1); k >= 0 {
				j = k
			}
		}
	}
	for j > 0 {
		switch c := s[j-1]; {
		case c == ' ' || c == '\t' || c == '-' || c == '*' || c == '#' || c == '>' || c == '<':
			j--
			continue
		case c == '\n' || c == '\r':
			return true, false
		case j >= 2 && s[j-2] == '\\' && (c == 'n' || c == 'r'):
			return true, true
		case j >= 2 && s[j-2] == '\\' && c == 't':
			j -= 2 // an encoded tab indents
			continue
		case j >= 6 && s[j-6:j] == "export":
			j -= 6
			continue
		}
		if k := csiStart(s, j); k >= 0 {
			j = k
			continue
		}
		return false, false
	}
	return true, false
}

// csiStart returns the start of the ANSI CSI sequence (ESC [ params
// final letter, the ESC raw or JSON-encoded as \u001b) that ends right
// before i, or -1.
func csiStart(s string, i int) int {
	if i < 3 || !('a' <= s[i-1] && s[i-1] <= 'z' || 'A' <= s[i-1] && s[i-1] <= 'Z') {
		return -1
	}
	j := i - 2
	for j >= 0 && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == '?' || s[j] == ':') {
		j--
	}
	switch {
	case j < 1 || s[j] != '[':
		return -1
	case s[j-1] == '\x1b':
		return j - 1
	case j >= 6 && hasFold(s[j-6:j], `\u001b`):
		return j - 6
	}
	return -1
}

// lineValueSpan returns the value of a line-start assignment starting at
// i: the rest of the line without trailing blanks. The line ends at a
// newline, carriage return or terminal escape (ESC, BEL); in an encoded
// JSON string (encoded) also at a \n or \r escape, an encoded ESC or BEL
// (\u001b, \u0007) or the string's closing quote.
func lineValueSpan(s string, i int, encoded bool) (span, bool) {
	if strings.HasPrefix(s[i:], Marker) {
		return span{}, false
	}
	end := i
scan:
	for end < len(s) {
		switch s[end] {
		case '\n', '\r', '\x1b', '\a':
			break scan
		case '"':
			if encoded {
				break scan
			}
		case '\\':
			if !encoded {
				break
			}
			r := end
			for r < len(s) && s[r] == '\\' {
				r++
			}
			if r < len(s) && (s[r] == 'n' || s[r] == 'r' || hasFold(s[r:], "u001b") || strings.HasPrefix(s[r:], "u0007")) {
				break scan
			}
			if (r-end)%2 == 1 && r < len(s) {
				r++ // the escaped byte (\" is not the closing quote)
			}
			end = r
			continue
		}
		end++
	}
	for end > i && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	return wordValue(s, i, end)
}

// wordBoundary reports whether position i starts a word: at the start,
// after a non-alphanumeric byte, right after an escape of JSON or C text
// (\n, \t, \r, \b, \f, \uXXXX: a line break inside an encoded JSON-RPC
// message), or right after an ANSI CSI sequence (ESC [ params final).
func wordBoundary(s string, i int) bool {
	if i == 0 {
		return true
	}
	if !isAlnum(s[i-1]) || escapeBefore(s, i) {
		return true
	}
	// ESC [ 0-9;? ... final letter right before i?
	j := i - 2
	for j >= 0 && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == '?' || s[j] == ':') {
		j--
	}
	return j >= 1 && s[j] == '[' && s[j-1] == '\x1b'
}

// escapeBefore reports whether a backslash escape that stands for a
// control character (\n, \t, \r, \b, \f, \uXXXX) ends right before i —
// however many backslashes precede it: JSON-encoded text ("a\nghp_…"),
// and a printf or echo -e argument inside an encoded command
// ("printf 'a\\nghp_…'"), both break lines there.
func escapeBefore(s string, i int) bool {
	if i >= 2 && s[i-2] == '\\' && strings.IndexByte("ntrbf", s[i-1]) >= 0 {
		return true
	}
	return i >= 6 && s[i-6] == '\\' && s[i-5] == 'u' && isHex(s[i-4]) && isHex(s[i-3]) && isHex(s[i-2]) && isHex(s[i-1])
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isTokenChar(c byte) bool {
	return isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '='
}

// isValueEnd ends an unquoted value: whitespace, quotes, separators,
// brackets, backslash (JSON escapes) and terminal escapes.
func isValueEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', ',', ';', '&', '}', ']', ')', '\\', '\x1b', '\a', '<', '>', '`':
		return true
	}
	return false
}

// looksRandom tells a credential from a prose word: it has a digit, or a
// mix of upper and lower case past the first letter, or token punctuation.
func looksRandom(tok string) bool {
	var digit, upper, punct bool
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case '0' <= c && c <= '9':
			digit = true
		case 'A' <= c && c <= 'Z' && i > 0:
			upper = true
		case c == '.' || c == '_' || c == '-' || c == '+' || c == '/' || c == '=':
			punct = true
		}
	}
	return digit || upper || punct || len(tok) >= 24
}

// Package redact hides secrets in text before tandem shows or writes it.
//
// String and Bytes are the one redaction function used wherever an error,
// the app-server's stderr, a log record or a protocol trace is shown or
// written. They replace the secret value with Marker and keep the key name,
// so "OPENAI_API_KEY=sk-…" becomes "OPENAI_API_KEY=[REDACTED]".
//
// Covered forms:
//   - Authorization headers (any scheme) and bare "Bearer <token>";
//   - assignments to keys ending in api_key/apikey/api-key, token, secret,
//     password/passwd, passphrase, secret_access_key, secret_key,
//     private_key, access_key, encryption_key, signing_key, master_key or
//     credentials, or in a word pass or pwd after another word (DB_PASS,
//     MYSQL_PWD, dbPass; not PWD or OLDPWD), written as JSON ("k": "v", also
//     JSON-escaped \"k\":\"v\"), env or config (K=v, k: v) and CLI
//     (--k v, --k=v);
//   - OpenAI keys (sk-…, sk-proj-…) and AWS access key ids (AKIA…, ASIA…)
//     anywhere;
//   - GitHub, Slack, Google and Stripe tokens, JWTs, passwords in URLs
//     and PEM private key bodies, anywhere (see formats.go).
//
// An assignment's value ends where the value does, not at the end of the
// text:
//   - a quoted value at its closing quote (a single-quoted one goes on
//     through an escaped quote: YAML's doubled quote and the shell's
//     quote-backslash-quote-quote, see requoteLen), or, left unclosed,
//     at the end of its line: a newline or carriage return, raw or
//     written as a JSON or C escape (\n, \r), so
//     "password='abc\n\nThat's all" loses "abc" only (a double-quoted
//     JSON string keeps its own escapes: "password":"a\nb" is hidden
//     whole);
//   - a key that starts a line (after indentation, "- ", "* ", "#", the
//     "> " and "< " of curl -v, "export " or an ANSI sequence; a line
//     also starts after a JSON \n or \r escape) followed by ':', or by
//     '=' with a blank before it, is a config or header line: its value
//     runs to the end of the line ("password: correct horse" is hidden
//     whole), or in an encoded JSON string to its \n escape or closing
//     quote;
//   - any other unquoted value is a word: it ends at a blank, a quote
//     (not at an escaped quote inside a single-quoted word, requoteLen),
//     a bracket or a comma, and at '&' or ';' only when the next
//     name=value pair follows ("?access_token=…&state=x", "Password=…;User=x", but
//     "password=Tr0ub4dor&3xyz" is hidden whole). So "KEY=v cmd args"
//     and prose ("the password: x is wrong") lose one word only.
//
// NewWriter redacts a stream line by line (writer.go).
//
// Text may contain ANSI/OSC escape sequences: values end at ESC or BEL and
// a key right after an SGR sequence is still recognised. The package
// imports nothing from tandem.
package redact

import (
	"regexp"
	"strings"
	"unsafe"
)

// Marker replaces every redacted value.
const Marker = "[REDACTED]"

var (
	// authRE matches an Authorization header up to its credentials.
	authRE = regexp.MustCompile(`(?i)(authorization(\\*["'])?\s*[:=]\s*(\\*["'])?(?:(?:bearer|basic|token|digest|bot)[ \t]+)?)`)
	// bearerRE matches "Bearer "; findBearer checks that it starts a word
	// (wordBoundary, which also knows JSON escapes such as \n).
	bearerRE = regexp.MustCompile(`(?i)bearer[ \t]+`)
)

// needles start every key keyword; findAssign looks only at their hits.
var needles = []string{"key", "token", "secret", "pass", "pwd", "credential"}

// span is a byte range of the input to replace with Marker (quoted is set
// when the marker must be wrapped in quotes to keep JSON valid).
type span struct {
	start, end int
	quote      string
}

// String returns s with every secret value replaced by Marker. It returns
// s itself when nothing needs redacting.
func String(s string) string { return redactHinted(s, scan(s)) }

// redactHinted is String for s whose scan gave hints.
func redactHinted(s string, hints int) string {
	if hints == 0 {
		return s
	}
	spans := findSpans(s, hints)
	if len(spans) == 0 {
		return s
	}
	return apply(s, spans)
}

// findSpans runs the finders the hints call for (every secret String and
// Find know).
func findSpans(s string, hints int) []span {
	var spans []span
	if hints&hintKey != 0 {
		spans = findAssign(s, spans)
	}
	if hints&hintAuth != 0 {
		spans = findAuth(s, spans)
	}
	if hints&hintBearer != 0 {
		spans = findBearer(s, spans)
	}
	if hints&hintPrefix != 0 {
		spans = findPrefixed(s, spans)
	}
	if hints&hintToken != 0 {
		spans = findTokens(s, spans) // formats.go
	}
	if hints&hintURL != 0 {
		spans = findURLPasswords(s, spans)
	}
	if hints&hintPEM != 0 {
		spans = findPEM(s, spans)
	}
	return spans
}

// Bytes is String for a byte slice. It returns b itself when nothing needs
// redacting, and a new slice otherwise.
func Bytes(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	// A read-only view: String never keeps s, and returns it unchanged
	// only when nothing was redacted (then b itself is returned).
	s := unsafe.String(&b[0], len(b))
	hints := scan(s)
	if hints == 0 {
		return b
	}
	r := redactHinted(s, hints)
	if r == s {
		return b
	}
	return []byte(r)
}

// Hints from scan say which finders can match.
const (
	hintKey = 1 << iota
	hintAuth
	hintBearer
	hintPrefix
	hintToken // GitHub, Slack, Google, Stripe, JWT (formats.go)
	hintURL   // "://": a password in a URL
	hintPEM   // "-----BEGIN": a private key block
)

// hintWord is a word scan looks for and the hint it gives: a fold word
// is lower-case and matches in any case, another only as written.
type hintWord struct {
	word string
	fold bool
	hint int
}

// hintWords are scan's words besides the needles (hintKey): every pattern
// of the finders holds one of them or a needle.
var hintWords = [...]hintWord{
	{"authorization", true, hintAuth},
	{"bearer", true, hintBearer},
	{"sk-", true, hintPrefix}, {"AKIA", false, hintPrefix}, {"ASIA", false, hintPrefix},
	{"sk_", false, hintToken}, {"rk_", false, hintToken}, {"AIza", false, hintToken},
	{"gh", false, hintToken}, {"github_pat_", false, hintToken},
	{"xox", false, hintToken}, {"eyJ", false, hintToken},
	{"://", false, hintURL},
	{pemBegin, false, hintPEM},
}

// hintsAt holds the needles and hintWords by the byte they start with (a
// fold word's under its upper case too): scan tries only those.
var hintsAt = func() (at [256][]hintWord) {
	add := func(w hintWord) {
		c := w.word[0]
		at[c] = append(at[c], w)
		if w.fold && 'a' <= c && c <= 'z' {
			at[c-'a'+'A'] = append(at[c-'a'+'A'], w)
		}
	}
	for _, n := range needles {
		add(hintWord{n, true, hintKey})
	}
	for _, w := range hintWords {
		add(w)
	}
	return at
}()

// at reports whether s starts with w.
func (w hintWord) at(s string) bool {
	if len(s) < len(w.word) || lower(s[1], w.fold) != w.word[1] {
		return false // the second byte turns most text away cheaply
	}
	if w.fold {
		return hasFold(s, w.word)
	}
	return strings.HasPrefix(s, w.word)
}

// lower returns c in lower case when fold is set and c is an ASCII letter.
func lower(c byte, fold bool) byte {
	if fold && 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// scan is a cheap pre-filter: every pattern contains one of a few words
// (hintsAt), so text without any skips the finders.
func scan(s string) int {
	h := 0
	for i := 0; i < len(s); i++ {
		for _, w := range hintsAt[s[i]] {
			if h&w.hint == 0 && w.at(s[i:]) {
				h |= w.hint
			}
		}
	}
	return h
}

// hasFold reports whether s starts with the lower-case ASCII word w,
// ignoring case.
func hasFold(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

func findAuth(s string, spans []span) []span {
	for _, m := range authRE.FindAllStringSubmatchIndex(s, -1) {
		var open string
		start := m[1]
		switch {
		case m[6] >= 0 && m[4] >= 0:
			// "Authorization": "…": the value is quoted like the key.
			open = s[m[6]:m[7]]
		case m[6] >= 0:
			// An unquoted header followed by a quote ends a string
			// (`"Authorization: ",…`): the quote is not the value's.
			start = m[6]
		}
		if sp, ok := valueSpan(s, start, open); ok {
			spans = append(spans, sp)
		}
	}
	return spans
}

func findBearer(s string, spans []span) []span {
	for _, m := range bearerRE.FindAllStringIndex(s, -1) {
		if !wordBoundary(s, m[0]) {
			continue
		}
		end := m[1]
		for end < len(s) && isTokenChar(s[end]) {
			end++
		}
		tok := s[m[1]:end]
		if len(tok) < 8 || !looksRandom(tok) || tok == Marker {
			continue
		}
		spans = append(spans, span{start: m[1], end: end})
	}
	return spans
}

// findPrefixed finds sk-… keys and AWS access key ids.
func findPrefixed(s string, spans []span) []span {
	for i := 0; i+3 < len(s); i++ {
		c := s[i] | 0x20
		switch {
		case c == 's' && (s[i+1]|0x20) == 'k' && s[i+2] == '-':
			if !wordBoundary(s, i) {
				continue
			}
			end := i + 3
			for end < len(s) && (isAlnum(s[end]) || s[end] == '-' || s[end] == '_') {
				end++
			}
			if end-(i+3) >= 20 {
				spans = append(spans, span{start: i, end: end})
				i = end - 1
			}
		case s[i] == 'A' && (s[i+1:i+4] == "KIA" || s[i+1:i+4] == "SIA"):
			if !wordBoundary(s, i) || i+20 > len(s) {
				continue
			}
			ok := true
			for j := i + 4; j < i+20; j++ {
				if !('A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9') {
					ok = false
					break
				}
			}
			if ok && (i+20 == len(s) || !isAlnum(s[i+20])) {
				spans = append(spans, span{start: i, end: i + 20})
				i += 19
			}
		}
	}
	return spans
}

// apply replaces the spans (possibly overlapping, in any order) with
// Marker.
func apply(s string, spans []span) string {
	// insertion sort by start; spans are few
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].start < spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for _, sp := range spans {
		if sp.end <= pos {
			continue
		}
		if sp.start < pos {
			sp.start = pos
		}
		b.WriteString(s[pos:sp.start])
		b.WriteString(sp.quote)
		b.WriteString(Marker)
		b.WriteString(sp.quote)
		pos = sp.end
	}
	b.WriteString(s[pos:])
	return b.String()
}

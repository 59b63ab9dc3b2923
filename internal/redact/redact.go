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

// scan is a cheap pre-filter: every pattern contains one of a few needles
// (case-insensitively), so text without any skips the finders.
func scan(s string) int {
	h := 0
	for i := 0; i < len(s); i++ {
		switch s[i] | 0x20 {
		case 'k':
			if hasFold(s[i:], "key") {
				h |= hintKey
			}
		case 't':
			if hasFold(s[i:], "token") {
				h |= hintKey
			}
		case 's':
			if hasFold(s[i:], "secret") {
				h |= hintKey
			} else if hasFold(s[i:], "sk-") {
				h |= hintPrefix
			} else if strings.HasPrefix(s[i:], "sk_") {
				h |= hintToken
			}
		case 'p':
			if hasFold(s[i:], "pass") || hasFold(s[i:], "pwd") {
				h |= hintKey
			}
		case 'c':
			if hasFold(s[i:], "credential") {
				h |= hintKey
			}
		case 'a':
			if hasFold(s[i:], "authorization") {
				h |= hintAuth
			} else if s[i] == 'A' && (strings.HasPrefix(s[i:], "AKIA") || strings.HasPrefix(s[i:], "ASIA")) {
				h |= hintPrefix
			} else if strings.HasPrefix(s[i:], "AIza") {
				h |= hintToken
			}
		case 'b':
			if hasFold(s[i:], "bearer") {
				h |= hintBearer
			}
		case 'g':
			if strings.HasPrefix(s[i:], "gh") || strings.HasPrefix(s[i:], "github_pat_") {
				h |= hintToken
			}
		case 'x':
			if strings.HasPrefix(s[i:], "xox") {
				h |= hintToken
			}
		case 'r':
			if strings.HasPrefix(s[i:], "rk_") {
				h |= hintToken
			}
		case 'e':
			if strings.HasPrefix(s[i:], "eyJ") {
				h |= hintToken
			}
		case ':':
			if strings.HasPrefix(s[i:], "://") {
				h |= hintURL
			}
		case '-':
			if strings.HasPrefix(s[i:], pemBegin) {
				h |= hintPEM
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

// findAssign finds `key=v`, `key: v`, `"key": "v"`, `\"key\":\"v\"`,
// `--key v` and `--key=v` for secret-looking keys.
func findAssign(s string, spans []span) []span {
	for i := 0; i < len(s); i++ {
		switch s[i] | 0x20 {
		case 'k', 't', 's', 'p', 'c': // the needles' first letters
		default:
			continue
		}
		kwEnd := -1
		for _, n := range needles {
			if hasFold(s[i:], n) {
				kwEnd = i + len(n)
				break
			}
		}
		if kwEnd < 0 {
			continue
		}
		// Extend over the rest of the keyword ("passw"+"ord", "credential"+"s").
		for kwEnd < len(s) && isKeyChar(s[kwEnd]) && s[kwEnd] != '_' && s[kwEnd] != '-' && s[kwEnd] != '.' {
			kwEnd++
		}
		start := i
		for start > 0 && isKeyChar(s[start-1]) {
			start--
		}
		// "--key": the dashes are part of isKeyChar already.
		name := s[start:kwEnd]
		i = kwEnd - 1
		if !secretName(name) {
			continue
		}
		// Separator: closing quote of a quoted key, then = or :, or
		// whitespace after a --flag.
		j := kwEnd
		for j < len(s) && s[j] == '\\' {
			j++
		}
		keyQuote := ""
		if j < len(s) && (s[j] == '"' || s[j] == '\'') {
			keyQuote = s[kwEnd : j+1]
			j++
		} else {
			j = kwEnd
		}
		k := j
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		cli := false
		// toLine: a config or header line ("password: a b c",
		// "secret = a b") whose value runs to the end of the line.
		toLine := false
		switch {
		case k < len(s) && (s[k] == '=' || s[k] == ':'):
			toLine = keyQuote == "" && (s[k] == ':' || k > j)
			k++
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
		case strings.HasPrefix(name, "--") && k > j && keyQuote == "":
			cli = true
		default:
			continue
		}
		open := ""
		q := k
		for q < len(s) && s[q] == '\\' {
			q++
		}
		if q < len(s) && (s[q] == '"' || s[q] == '\'') {
			open = s[k : q+1]
			k = q + 1
		}
		if cli && open == "" && k < len(s) && s[k] == '-' {
			continue // the next word is another flag
		}
		var sp span
		var ok bool
		if toLine && open == "" {
			if ls, encoded := lineStart(s, start); ls {
				sp, ok = lineValueSpan(s, k, encoded)
			} else {
				sp, ok = valueSpan(s, k, open)
			}
		} else {
			sp, ok = valueSpan(s, k, open)
		}
		if !ok {
			continue
		}
		if open == "" && keyQuote != "" && strings.Contains(s[kwEnd:k], ":") {
			// "password": 1234 → "password": "[REDACTED]" stays valid JSON;
			// the marker's quotes are escaped like the key's.
			sp.quote = keyQuote
		}
		spans = append(spans, sp)
		i = sp.end - 1
	}
	return spans
}

// secretSuffixes end a secret key's name once lower-cased and stripped of
// "_", "-" and ".": OPENAI_API_KEY → openaiapikey.
var secretSuffixes = []string{"apikey", "token", "secret", "password", "passwd", "passphrase", "accesskey", "secretkey", "privatekey",
	"encryptionkey", "signingkey", "masterkey", "credential", "credentials"}

// shortSuffixes end a secret key's name only as a word of their own after
// another one: DB_PASS, db.pass, dbPass, MYSQL_PWD, mysqlPwd. Alone (PASS,
// PWD, --pwd) or inside a word (bypass, compass, OLDPWD) they do not:
// PWD and OLDPWD hold directories, and "--- PASS: TestX" is go test's.
var shortSuffixes = []string{"pass", "pwd"}

// secretName reports whether a key name (e.g. "client_secret",
// "--api-key", "refreshToken", "DB_PASS") names a secret.
func secretName(name string) bool {
	for _, suf := range shortSuffixes {
		if wordSuffix(name, suf) {
			return true
		}
	}
	var buf [32]byte
	n := 0
	// Normalise the last letters only: the longest suffix is 13 bytes.
	for i := len(name) - 1; i >= 0 && n < len(buf); i-- {
		c := name[i]
		if c == '_' || c == '-' || c == '.' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		n++
		buf[len(buf)-n] = c
	}
	norm := string(buf[len(buf)-n:])
	for _, suf := range secretSuffixes {
		if strings.HasSuffix(norm, suf) {
			return true
		}
	}
	return false
}

// wordSuffix reports whether name ends with the word suf (lower-case),
// ignoring case, after another word: a separator ("_", "-", ".") with a
// letter or digit somewhere before it, or a camel-case start ("dbPass",
// "DBPwd": an upper-case letter then lower-case ones). "oldpwd" (a
// directory) is not one.
func wordSuffix(name, suf string) bool {
	p := len(name) - len(suf)
	if p <= 0 || !hasFold(name[p:], suf) {
		return false
	}
	if suf == "pwd" && p >= 3 && hasFold(name[p-3:p], "old") {
		return false
	}
	switch prev := name[p-1]; {
	case prev == '_' || prev == '-' || prev == '.':
		for j := 0; j < p-1; j++ {
			if isAlnum(name[j]) {
				return true
			}
		}
		return false
	case isAlnum(prev):
		return 'A' <= name[p] && name[p] <= 'Z' && 'a' <= name[p+1] && name[p+1] <= 'z'
	}
	return false
}

func isKeyChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.'
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

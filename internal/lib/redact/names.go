package redact

import "strings"

// Secret names: where an assignment's key says that its value is a
// secret (findAssign and the names it knows).

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

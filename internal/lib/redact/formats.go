package redact

import "strings"

// This file holds the finders for secrets recognised by their own shape,
// wherever they appear:
//
//   - GitHub tokens: ghp_, gho_, ghs_, ghu_, ghr_ + 20 or more letters and
//     digits, github_pat_ + 22 or more;
//   - Slack tokens: xoxb-, xoxp-, xoxa-, xoxr-, xoxs- + 10 or more;
//   - Google API keys: AIza + exactly 35 more (39 in all);
//   - Stripe secret and restricted keys: sk_live_, sk_test_, rk_live_,
//     rk_test_ + 10 or more (publishable pk_ keys are not secret);
//   - JWTs: eyJ….eyJ….signature (a header and a payload that are both
//     base64 JSON objects); a single base64 segment is left alone;
//   - passwords in URLs: scheme://user:PASSWORD@host keeps the user and
//     hides the password, up to the last @ of the URL (a password may
//     hold a raw @, #, ? or /: "mysql://root:S3cr3t!#x@db/app"). The
//     user ends before any /, ? or #, so "https://example.com/a:b@c" (a
//     path) is left alone, and so is a URL without a password
//     (ssh://git@host) or with a port before a path holding an @
//     ("http://localhost:5173/@vite/client");
//   - PEM private keys: the body between "-----BEGIN … PRIVATE KEY-----"
//     and "-----END … PRIVATE KEY-----" (real newlines or JSON \n escapes),
//     or, when the END line is not in the text, the base64 run after the
//     header. The BEGIN and END lines stay.
//
// Each token must start a word: "task_list" or "mask_test_x" hold no key.

// findTokens finds the prefixed tokens and JWTs listed above.
func findTokens(s string, spans []span) []span {
	for i := 0; i+4 < len(s); i++ {
		var end int
		switch s[i] {
		case 'g':
			switch {
			case s[i+1] == 'h' && s[i+3] == '_' && strings.IndexByte("posur", s[i+2]) >= 0:
				end = runEnd(s, i+4, isAlnum, 20)
			case strings.HasPrefix(s[i:], "github_pat_"):
				end = runEnd(s, i+11, isWordChar, 22)
			}
		case 'x':
			if strings.HasPrefix(s[i:], "xox") && s[i+4] == '-' && strings.IndexByte("bpars", s[i+3]) >= 0 {
				end = runEnd(s, i+5, isSlackChar, 10)
			}
		case 'A':
			if strings.HasPrefix(s[i:], "AIza") {
				if e := runEnd(s, i+4, isURLSafe, 35); e == i+39 {
					end = e
				}
			}
		case 's', 'r':
			if s[i+1] == 'k' && s[i+2] == '_' && (strings.HasPrefix(s[i+3:], "live_") || strings.HasPrefix(s[i+3:], "test_")) {
				end = runEnd(s, i+8, isAlnum, 10)
			}
		case 'e':
			if strings.HasPrefix(s[i:], "eyJ") {
				end = jwtEnd(s, i)
			}
		}
		if end > 0 && wordBoundary(s, i) {
			spans = append(spans, span{start: i, end: end})
			i = end - 1
		}
	}
	return spans
}

// runEnd returns the end of the run of ok bytes from i, or 0 when the run
// is shorter than min.
func runEnd(s string, i int, ok func(byte) bool, min int) int {
	j := i
	for j < len(s) && ok(s[j]) {
		j++
	}
	if j-i < min {
		return 0
	}
	return j
}

// jwtEnd returns the end of a JWT starting at i ("eyJ"), or 0.
func jwtEnd(s string, i int) int {
	h := runEnd(s, i, isURLSafe, 10)
	if h == 0 || h+4 > len(s) || s[h] != '.' || !strings.HasPrefix(s[h+1:], "eyJ") {
		return 0
	}
	p := runEnd(s, h+1, isURLSafe, 10)
	if p == 0 || p >= len(s) || s[p] != '.' {
		return 0
	}
	sig := p + 1
	for sig < len(s) && isURLSafe(s[sig]) {
		sig++
	}
	return sig
}

func isWordChar(c byte) bool  { return isAlnum(c) || c == '_' }
func isSlackChar(c byte) bool { return isAlnum(c) || c == '-' }
func isURLSafe(c byte) bool   { return isAlnum(c) || c == '-' || c == '_' }

// findURLPasswords finds the password of scheme://user:password@host.
//
// Passwords are often written without percent-encoding, so one may hold
// a raw @, #, ? or /: the password runs from the user's colon to the last
// @ of the URL's word (it ends at a blank, a quote, a backslash, the end
// of the line or the next "://"), and the user before the colon holds
// none of / ? #.
// An @ right after a / starts a path segment ("/@scope/pkg"), not the
// host, and a colon followed by digits and a / is a port
// ("localhost:5173/@vite").
func findURLPasswords(s string, spans []span) []span {
	for off := 0; ; {
		k := strings.Index(s[off:], "://")
		if k < 0 {
			return spans
		}
		k += off
		off = k + 3
		// A scheme: letters, digits, + . - right before "://".
		b := k
		for b > 0 && (isAlnum(s[b-1]) || s[b-1] == '+' || s[b-1] == '.' || s[b-1] == '-') {
			b--
		}
		if b == k {
			continue
		}
		// The user: up to the first colon, before any path, query or
		// fragment.
		colon := off
		for colon < len(s) && s[colon] != ':' && !isAuthorityEnd(s[colon]) {
			colon++
		}
		if colon == len(s) || s[colon] != ':' || strings.HasPrefix(s[colon:], "://") {
			continue // no password, or the next URL's scheme
		}
		pw := colon + 1
		// The word's last @ (not one starting a path segment) before
		// the next URL, and the first / ? # after the colon.
		at, delim := -1, -1
	word:
		for e := pw; e < len(s) && !isURLWordEnd(s[e]); e++ {
			switch s[e] {
			case ':':
				if strings.HasPrefix(s[e:], "://") {
					break word // the next URL's: each text is read once
				}
			case '@':
				if s[e-1] != '/' {
					at = e
				}
			case '/', '?', '#':
				if delim < 0 {
					delim = e
				}
			}
		}
		if at < 0 || pw == at || strings.HasPrefix(s[pw:at], Marker) {
			continue
		}
		if delim >= 0 && delim < at && delim > pw && allDigits(s[pw:delim]) {
			continue // host:port, then a path holding an @
		}
		spans = append(spans, span{start: pw, end: at})
		off = at
	}
}

// isAuthorityEnd ends a URL's authority: the path, query or fragment, or
// the end of the word (isURLWordEnd).
func isAuthorityEnd(c byte) bool {
	return c == '/' || c == '?' || c == '#' || isURLWordEnd(c)
}

// isURLWordEnd ends a URL written in text: a blank, a line end, a quote,
// a backslash (a JSON escape), angle brackets, a backtick or a terminal
// escape.
func isURLWordEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '\\', '<', '>', '`', '\x1b', '\a':
		return true
	}
	return false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

const pemBegin = "-----BEGIN "

// findPEM finds the bodies of PEM private key blocks.
func findPEM(s string, spans []span) []span {
	for off := 0; ; {
		k := strings.Index(s[off:], pemBegin)
		if k < 0 {
			return spans
		}
		k += off
		hdrEnd := pemLabelEnd(s, k+len(pemBegin))
		off = k + len(pemBegin)
		if hdrEnd < 0 {
			continue
		}
		body := hdrEnd
		if strings.HasPrefix(s[body:], Marker) {
			off = body + len(Marker)
			continue
		}
		if e := pemEndLine(s, body); e >= 0 {
			if e > body && s[body:e] != Marker {
				spans = append(spans, span{start: body, end: e})
			}
			off = e + len("-----END ")
			continue
		}
		// No END line (the text was cut): hide the base64 run.
		e := body
		for e < len(s) && isPEMBodyChar(s[e]) {
			e++
		}
		if e > body {
			spans = append(spans, span{start: body, end: e})
			off = e
		}
	}
}

// pemLabelEnd returns the end of "LABEL-----" at i when LABEL names a
// private key ("RSA PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY"),
// or -1.
func pemLabelEnd(s string, i int) int {
	j := i
	for j < len(s) && j-i < 40 && ('A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9' || s[j] == ' ') {
		j++
	}
	if !strings.HasPrefix(s[j:], "-----") || !strings.Contains(s[i:j], "PRIVATE KEY") {
		return -1
	}
	return j + 5
}

// pemEndLine returns the start of the first "-----END …PRIVATE KEY-----"
// at or after i, or -1.
func pemEndLine(s string, i int) int {
	for off := i; ; {
		k := strings.Index(s[off:], "-----END ")
		if k < 0 {
			return -1
		}
		k += off
		if pemLabelEnd(s, k+len("-----END ")) >= 0 {
			return k
		}
		off = k + 1
	}
}

// isPEMBodyChar: base64, whitespace, and backslashes of \n escapes.
func isPEMBodyChar(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '=' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\'
}

// OpensPrivateKey reports whether text holds a PEM private key header
// with no END line after it: the lines that follow are key material. A
// redactor that sees text line by line (backend.StreamRedactor) uses it
// to hide the following lines up to the END line.
func OpensPrivateKey(text string) bool {
	open := false
	for off := 0; ; {
		k := strings.Index(text[off:], pemBegin)
		if k < 0 {
			return open
		}
		k += off
		off = k + len(pemBegin)
		if e := pemLabelEnd(text, off); e >= 0 {
			open = pemEndLine(text, e) < 0
		}
	}
}

// PrivateKeyEnd returns the index in text of the first
// "-----END … PRIVATE KEY-----" line, or -1.
func PrivateKeyEnd(text string) int { return pemEndLine(text, 0) }

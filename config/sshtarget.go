package config

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// SSHTarget is a parsed "[user@]host[:port]": a --ssh value, or ssh =
// "…" in a profile. User and Port are optional (Port 0 means ssh's
// default). Build one with ParseSSHTarget.
type SSHTarget struct {
	User string
	Host string
	Port int
}

// String renders the target back as user@host:port, an IPv6 host in
// brackets; ParseSSHTarget reads it back unchanged.
func (t SSHTarget) String() string {
	s := t.Host
	if strings.Contains(s, ":") {
		s = "[" + s + "]"
	}
	if t.User != "" {
		s = t.User + "@" + s
	}
	if t.Port != 0 {
		s += ":" + strconv.Itoa(t.Port)
	}
	return s
}

// Destination is the ssh destination argument: "user@host" or "host"
// (an IPv6 host without brackets; the port goes to ssh -p).
func (t SSHTarget) Destination() string {
	if t.User != "" {
		return t.User + "@" + t.Host
	}
	return t.Host
}

// SSHTargetError is a value ParseSSHTarget refuses: Target is the value,
// Reason says what is wrong ("port must be 1-65535").
type SSHTargetError struct {
	Target string
	Reason string
}

// Error renders `invalid ssh target "TARGET": REASON`.
func (e *SSHTargetError) Error() string {
	return fmt.Sprintf("invalid ssh target %q: %s", e.Target, e.Reason)
}

// ParseSSHTarget parses "[user@]host[:port]". The host may be a
// ~/.ssh/config alias; an IPv6 host goes in brackets ("[::1]:22",
// "u@[fe80::1]"). The user is everything before the first "@".
//
// So that no value can reach ssh as an option or split its command line,
// it refuses (with an *SSHTargetError): an empty value, user or host;
// whitespace, control characters, quotes or backslashes anywhere; a user
// or host starting with "-"; "/" or "@" in the host; an IPv6 host without
// brackets; and a port that is not a number from 1 to 65535.
func ParseSSHTarget(s string) (SSHTarget, error) {
	var t SSHTarget
	bad := func(reason string) (SSHTarget, error) {
		return SSHTarget{}, &SSHTargetError{Target: s, Reason: reason}
	}
	if s == "" {
		return bad("empty host: expected [user@]host[:port]")
	}
	if strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\'' || r == '"' || r == '\\'
	}) >= 0 {
		return bad("unexpected whitespace or quote: expected [user@]host[:port]")
	}
	rest := s
	if u, h, ok := strings.Cut(rest, "@"); ok {
		if u == "" {
			return bad("empty user before @")
		}
		t.User, rest = u, h
	}
	port := ""
	switch {
	case strings.HasPrefix(rest, "["):
		end := strings.Index(rest, "]")
		if end < 0 {
			return bad("missing ] after the IPv6 host")
		}
		t.Host = rest[1:end]
		if after := rest[end+1:]; after != "" {
			if !strings.HasPrefix(after, ":") {
				return bad(fmt.Sprintf("unexpected %q after ]: expected :port", after))
			}
			port = after[1:]
			if port == "" {
				return bad("port must be 1-65535")
			}
		}
	case strings.Count(rest, ":") > 1:
		return bad("an IPv6 host goes in brackets: [" + rest + "] or [" + rest + "]:22")
	default:
		var hasPort bool
		t.Host, port, hasPort = strings.Cut(rest, ":")
		if hasPort && port == "" {
			return bad("port must be 1-65535")
		}
	}
	if t.Host == "" {
		return bad("empty host: expected [user@]host[:port]")
	}
	if strings.HasPrefix(t.User, "-") || strings.HasPrefix(t.Host, "-") {
		return bad("user and host must not start with - (ssh would read an option)")
	}
	if strings.ContainsAny(t.Host, "@/") {
		return bad("unexpected @ or / in the host")
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || strings.TrimLeft(port, "0123456789") != "" {
			return bad("port must be 1-65535")
		}
		t.Port = n
	}
	return t, nil
}

package pair

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"tandem/internal/hub"
)

// Options of an authorized_keys line that tandem serve honours, with
// OpenSSH's meaning (sshd(8), AUTHORIZED_KEYS FILE FORMAT). Restrictions
// of features tandem serve never offers (port, agent and X11 forwarding,
// ~/.ssh/rc) are honoured trivially.
var supportedOptions = []string{
	"from", "expiry-time", "cert-authority", "principals",
	"no-pty", "pty", "restrict",
	"no-port-forwarding", "no-agent-forwarding", "no-x11-forwarding", "no-user-rc",
}

// Member is an allowed key's owner as a session sees it: Name is the
// key's comment (for a certificate its key id or principal), or the key's
// SHA256 fingerprint when there is none; Role is what the key may do.
type Member struct {
	Name string
	Role hub.Role
	// NoPTY is set for keys with no-pty (or restrict without pty) and
	// certificates without the permit-pty extension: such a key may log
	// in but never open a terminal, so it cannot use tandem. Why says
	// which, for the refusal.
	NoPTY bool
	Why   string
}

// Why a Member gets no terminal.
const (
	whyNoPTYOption = "no-pty or restrict in authorized_keys"
	whyNoPermitPTY = "its certificate lacks the permit-pty extension"
)

// noPTY returns the Why for an entry's no-pty option and a certificate's
// permit-pty ("" when a terminal is allowed).
func noPTY(option, cert bool) string {
	switch {
	case option:
		return whyNoPTYOption
	case cert:
		return whyNoPermitPTY
	}
	return ""
}

// keyEntry is one authorized_keys line.
type keyEntry struct {
	name       string
	role       hub.Role
	from       []string  // source address patterns (from="…"); nil = any
	expires    time.Time // expiry-time; zero = never
	noPTY      bool
	principals []string // cert-authority only; nil = the login user
	where      string   // "FILE:LINE", for the log
}

// Keyring holds the drivers' and watchers' keys and certificate
// authorities. Use LoadKeyring; it is read-only afterwards and safe for
// concurrent use.
type Keyring struct {
	keys map[string]keyEntry // wire-format public key → entry
	cas  map[string]keyEntry // cert-authority key → entry
}

// LoadKeyring reads the drivers' and watchers' authorized_keys files (the
// watchers' may be ""). A key listed in both is a driver, with its line in
// the drivers' file; a key listed twice in one file gets its first line,
// as with sshd. It fails, naming
// FILE:LINE, on a line that does not parse, on an option tandem cannot
// honour (command=, permitopen=, environment=, …), and when the drivers'
// file holds no key or authority at all.
func LoadKeyring(drivers, watchers string) (*Keyring, error) {
	kr := &Keyring{keys: map[string]keyEntry{}, cas: map[string]keyEntry{}}
	if err := kr.add(watchers, hub.Watcher); err != nil {
		return nil, err
	}
	if err := kr.add(drivers, hub.Driver); err != nil {
		return nil, err
	}
	n := 0
	for _, m := range kr.keys {
		if m.role == hub.Driver {
			n++
		}
	}
	for _, m := range kr.cas {
		if m.role == hub.Driver {
			n++
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no public keys", drivers)
	}
	return kr, nil
}

func (kr *Keyring) add(path string, role hub.Role) error {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading keys: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", path, line)
		key, comment, options, _, err := gossh.ParseAuthorizedKey([]byte(text))
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		e, ca, err := parseOptions(options)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		e.role, e.where = role, where
		e.name = strings.TrimSpace(comment)
		if e.name == "" {
			e.name = gossh.FingerprintSHA256(key)
		}
		into := kr.keys
		if ca {
			into = kr.cas
		}
		// As sshd: a key listed twice in one file gets its first line.
		if prev, ok := into[string(key.Marshal())]; ok && prev.role == role {
			continue
		}
		into[string(key.Marshal())] = e
	}
	return sc.Err()
}

// parseOptions reads one line's options, in order, as sshd does: pty and
// no-pty and restrict apply left to right ("pty,restrict" gives no
// terminal), and from=, expiry-time=, principals= and cert-authority may
// each appear once. ca reports cert-authority.
func parseOptions(options []string) (e keyEntry, ca bool, err error) {
	seen := map[string]bool{}
	for _, o := range options {
		name, value, hasValue := strings.Cut(o, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if hasValue {
			value = strings.TrimSuffix(strings.TrimPrefix(value, `"`), `"`)
		}
		switch name {
		case "from", "expiry-time", "principals", "cert-authority":
			if seen[name] {
				return e, false, fmt.Errorf("option %s given twice", name)
			}
			seen[name] = true
		}
		switch name {
		case "from":
			if e.from, err = parseFrom(value); err != nil {
				return e, false, err
			}
		case "expiry-time":
			t, err := parseExpiry(value)
			if err != nil {
				return e, false, err
			}
			e.expires = t
		case "cert-authority":
			ca = true
		case "principals":
			e.principals = strings.Split(value, ",")
		case "no-pty", "restrict":
			e.noPTY = true
		case "pty":
			e.noPTY = false
		case "no-port-forwarding", "no-agent-forwarding", "no-x11-forwarding", "no-user-rc":
			// tandem serve never forwards and runs no rc file.
		default:
			return e, false, fmt.Errorf("option %q is not supported by tandem serve (it honours %s); remove it or use a key file of tandem's own", name, strings.Join(supportedOptions, ", "))
		}
	}
	if e.principals != nil && !ca {
		return e, false, errors.New("option principals is only allowed with cert-authority")
	}
	return e, ca, nil
}

// parseFrom reads from="…": address patterns, each maybe negated with !,
// and address/masklen entries whose host bits are clear.
func parseFrom(value string) ([]string, error) {
	if value == "" {
		return nil, errors.New(`option from needs a pattern list: from="10.0.0.0/8,192.168.*"`)
	}
	pats := strings.Split(value, ",")
	for _, p := range pats {
		if !strings.Contains(p, "/") {
			continue
		}
		ip, n, err := net.ParseCIDR(strings.TrimPrefix(p, "!"))
		if err != nil {
			return nil, fmt.Errorf("option from: bad address/masklen %q", p)
		}
		if !ip.Equal(n.IP) {
			return nil, fmt.Errorf("option from: %q has host bits set (did you mean %s?)", p, n)
		}
	}
	return pats, nil
}

// parseExpiry reads expiry-time's YYYYMMDD[HHMM[SS]], in local time or,
// with a trailing Z, in UTC.
func parseExpiry(v string) (time.Time, error) {
	loc := time.Local
	if strings.HasSuffix(v, "Z") {
		v, loc = strings.TrimSuffix(v, "Z"), time.UTC
	}
	layouts := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}
	layout, ok := layouts[len(v)]
	if !ok {
		return time.Time{}, fmt.Errorf("option expiry-time: %q is not YYYYMMDD[HHMM[SS]][Z]", v)
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("option expiry-time: %q is not YYYYMMDD[HHMM[SS]][Z]", v)
	}
	return t, nil
}

// ErrUnauthorized is Authorize's error for a key that is not listed (or
// a certificate whose authority is not).
var ErrUnauthorized = errors.New("key not authorized")

// Authorize decides whether key may log in as user from remote at now,
// with OpenSSH's rules: a plain key must be listed and satisfy its line's
// from= and expiry-time=; a user certificate must be signed by a listed
// cert-authority, be valid at now, name the login user (or one of the
// line's principals=) among its principals, and satisfy its own
// source-address option and the authority line's options. A CA key offered
// as a plain key is not accepted. The error says why, for the log.
func (kr *Keyring) Authorize(key gossh.PublicKey, user string, remote net.Addr, now time.Time) (Member, error) {
	if key == nil {
		return Member{}, ErrUnauthorized
	}
	if cert, ok := key.(*gossh.Certificate); ok {
		return kr.authorizeCert(cert, user, remote, now)
	}
	e, ok := kr.keys[string(key.Marshal())]
	if !ok {
		return Member{}, ErrUnauthorized
	}
	if err := e.allows(remote, now); err != nil {
		return Member{}, err
	}
	return Member{Name: e.name, Role: e.role, NoPTY: e.noPTY, Why: noPTY(e.noPTY, false)}, nil
}

func (kr *Keyring) authorizeCert(cert *gossh.Certificate, user string, remote net.Addr, now time.Time) (Member, error) {
	if cert.CertType != gossh.UserCert {
		return Member{}, errors.New("not a user certificate")
	}
	e, ok := kr.cas[string(cert.SignatureKey.Marshal())]
	if !ok {
		return Member{}, fmt.Errorf("%w: certificate signed by an unlisted authority", ErrUnauthorized)
	}
	if err := e.allows(remote, now); err != nil {
		return Member{}, err
	}
	if len(cert.ValidPrincipals) == 0 {
		return Member{}, errors.New("certificate lists no principals")
	}
	want := e.principals
	if want == nil {
		want = []string{user}
	}
	checker := gossh.CertChecker{
		Clock:                    func() time.Time { return now },
		SupportedCriticalOptions: []string{"source-address"},
	}
	var err error
	principal := ""
	for _, p := range want {
		if err = checker.CheckCert(p, cert); err == nil {
			principal = p
			break
		}
	}
	if err != nil {
		return Member{}, err
	}
	if src, ok := cert.CriticalOptions["source-address"]; ok {
		if matchList(hostIP(remote), strings.Split(src, ","), true) <= 0 {
			return Member{}, fmt.Errorf("certificate source-address %q does not allow %s", src, hostIP(remote))
		}
	}
	name := cert.KeyId
	if name == "" {
		name = principal
	}
	// As sshd: a certificate without permit-pty gets no terminal.
	_, permitPTY := cert.Extensions["permit-pty"]
	return Member{Name: name, Role: e.role, NoPTY: e.noPTY || !permitPTY, Why: noPTY(e.noPTY, !permitPTY)}, nil
}

// allows checks the line's from= and expiry-time=.
func (e keyEntry) allows(remote net.Addr, now time.Time) error {
	if !e.expires.IsZero() && now.After(e.expires) {
		return fmt.Errorf("key expired on %s (%s)", e.expires.Format(time.DateTime), e.where)
	}
	if e.from != nil && matchList(hostIP(remote), e.from, false) <= 0 {
		return fmt.Errorf("from=%q does not allow %s (%s)", strings.Join(e.from, ","), hostIP(remote), e.where)
	}
	return nil
}

// hostIP is the address's IP as text ("" when it has none); IPv4 in IPv6
// form is written as IPv4.
func hostIP(a net.Addr) string {
	var ip net.IP
	switch t := a.(type) {
	case *net.TCPAddr:
		ip = t.IP
	default:
		if a == nil {
			return ""
		}
		h, _, err := net.SplitHostPort(a.String())
		if err != nil {
			return ""
		}
		ip = net.ParseIP(h)
	}
	if v4 := ip.To4(); v4 != nil {
		ip = v4
	}
	if ip == nil {
		return ""
	}
	return ip.String()
}

// matchList matches ip against an OpenSSH pattern list: entries are
// wildcards (* and ?) or address/masklen, an entry starting with ! negates.
// It returns 1 for a match, -1 when a negated entry matched (which wins),
// 0 for no match. cidrOnly (a certificate's source-address) takes
// address/masklen and plain addresses only.
func matchList(ip string, patterns []string, cidrOnly bool) int {
	parsed := net.ParseIP(ip)
	got := 0
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		var ok bool
		switch {
		case strings.Contains(p, "/"):
			_, n, err := net.ParseCIDR(p)
			ok = err == nil && parsed != nil && n.Contains(parsed)
		case cidrOnly:
			ok = parsed != nil && parsed.Equal(net.ParseIP(p))
		default:
			ok = wildcard(strings.ToLower(p), strings.ToLower(ip))
		}
		if ok && neg {
			return -1
		}
		if ok {
			got = 1
		}
	}
	return got
}

// wildcard matches s against a pattern of * (any run) and ? (one
// character), as OpenSSH's match_pattern does.
func wildcard(pat, s string) bool {
	if pat == "" {
		return s == ""
	}
	switch pat[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if wildcard(pat[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && wildcard(pat[1:], s[1:])
	}
	return s != "" && s[0] == pat[0] && wildcard(pat[1:], s[1:])
}

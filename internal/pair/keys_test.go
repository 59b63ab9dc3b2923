package pair

import (
	"crypto/rand"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"tandem/internal/hub"
	"tandem/internal/testkit/sshtest"
)

func newSigner(t *testing.T) gossh.Signer { return sshtest.NewKey(t, "").Signer }

func authLine(options string, k gossh.PublicKey, comment string) string {
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k)))
	if options != "" {
		line = options + " " + line
	}
	return line + " " + comment + "\n"
}

func writeKeys(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "keys")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func addr(ip string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(ip), Port: 40000} }

// signCert makes a user certificate for key signed by ca.
func signCert(t *testing.T, ca gossh.Signer, key gossh.PublicKey, id string, principals []string, after, before time.Time, crit map[string]string) *gossh.Certificate {
	t.Helper()
	c := &gossh.Certificate{
		Key: key, CertType: gossh.UserCert, KeyId: id, ValidPrincipals: principals,
		ValidAfter: uint64(after.Unix()), ValidBefore: uint64(before.Unix()),
		Permissions: gossh.Permissions{CriticalOptions: crit, Extensions: map[string]string{"permit-pty": ""}},
	}
	if before.IsZero() {
		c.ValidBefore = gossh.CertTimeInfinity
	}
	if err := c.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAuthorizeOptions: the authorized_keys options tandem honours, with
// OpenSSH's meaning.
func TestAuthorizeOptions(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	plain, fromKey, expired, future, noPTY, restrict, restrictPTY, ptyRestrict, ca, user := newSigner(t), newSigner(t), newSigner(t), newSigner(t), newSigner(t), newSigner(t), newSigner(t), newSigner(t), newSigner(t), newSigner(t)
	drivers := authLine("", plain.PublicKey(), "alice") +
		authLine(`from="10.0.0.0/8,192.168.1.?,!10.9.9.9"`, fromKey.PublicKey(), "bob") +
		authLine(`expiry-time="20200101"`, expired.PublicKey(), "old") +
		authLine(`expiry-time="20991231235959Z"`, future.PublicKey(), "new") +
		authLine("no-pty", noPTY.PublicKey(), "nopty") +
		authLine("restrict", restrict.PublicKey(), "restricted") +
		authLine("restrict,pty", restrictPTY.PublicKey(), "restricted-pty") +
		authLine("pty,restrict", ptyRestrict.PublicKey(), "pty-restricted") +
		authLine(`cert-authority,principals="deploy,ops"`, ca.PublicKey(), "corp-ca")
	kr, err := LoadKeyring(writeKeys(t, drivers), "")
	if err != nil {
		t.Fatal(err)
	}
	good := signCert(t, ca, user.PublicKey(), "carol@corp", []string{"ops"}, now.Add(-time.Hour), time.Time{}, nil)
	wrongPrincipal := signCert(t, ca, user.PublicKey(), "dave", []string{"dave"}, now.Add(-time.Hour), time.Time{}, nil)
	expiredCert := signCert(t, ca, user.PublicKey(), "erin", []string{"ops"}, now.Add(-2*time.Hour), now.Add(-time.Hour), nil)
	srcCert := signCert(t, ca, user.PublicKey(), "frank", []string{"deploy"}, now.Add(-time.Hour), time.Time{}, map[string]string{"source-address": "10.1.0.0/16"})
	forceCert := signCert(t, ca, user.PublicKey(), "gina", []string{"ops"}, now.Add(-time.Hour), time.Time{}, map[string]string{"force-command": "true"})
	noPTYCert := signCert(t, ca, user.PublicKey(), "hank", []string{"ops"}, now.Add(-time.Hour), time.Time{}, nil)
	noPTYCert.Extensions = nil
	if err := noPTYCert.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	otherCA := newSigner(t)
	strangerCert := signCert(t, otherCA, user.PublicKey(), "mallory", []string{"ops"}, now.Add(-time.Hour), time.Time{}, nil)

	cases := []struct {
		name  string
		key   gossh.PublicKey
		from  string
		ok    bool
		want  string // member name
		noPTY bool
	}{
		{"plain key", plain.PublicKey(), "127.0.0.1", true, "alice", false},
		{"unlisted key", user.PublicKey(), "127.0.0.1", false, "", false},
		{"from: inside the CIDR", fromKey.PublicKey(), "10.2.3.4", true, "bob", false},
		{"from: wildcard", fromKey.PublicKey(), "192.168.1.7", true, "bob", false},
		{"from: negated address wins", fromKey.PublicKey(), "10.9.9.9", false, "", false},
		{"from: outside", fromKey.PublicKey(), "127.0.0.1", false, "", false},
		{"from: IPv4 in IPv6 form", fromKey.PublicKey(), "::ffff:10.2.3.4", true, "bob", false},
		{"expiry-time in the past", expired.PublicKey(), "127.0.0.1", false, "", false},
		{"expiry-time in the future (UTC)", future.PublicKey(), "127.0.0.1", true, "new", false},
		{"no-pty", noPTY.PublicKey(), "127.0.0.1", true, "nopty", true},
		{"restrict implies no-pty", restrict.PublicKey(), "127.0.0.1", true, "restricted", true},
		{"restrict,pty", restrictPTY.PublicKey(), "127.0.0.1", true, "restricted-pty", false},
		{"pty,restrict: restrict comes last", ptyRestrict.PublicKey(), "127.0.0.1", true, "pty-restricted", true},
		{"the CA's own key is not a driver", ca.PublicKey(), "127.0.0.1", false, "", false},
		{"certificate of the CA for a listed principal", good, "127.0.0.1", true, "carol@corp", false},
		{"certificate for another principal", wrongPrincipal, "127.0.0.1", false, "", false},
		{"expired certificate", expiredCert, "127.0.0.1", false, "", false},
		{"certificate source-address allows", srcCert, "10.1.2.3", true, "frank", false},
		{"certificate source-address refuses", srcCert, "127.0.0.1", false, "", false},
		{"certificate with force-command", forceCert, "127.0.0.1", false, "", false},
		{"certificate without permit-pty", noPTYCert, "127.0.0.1", true, "hank", true},
		{"certificate of an unlisted CA", strangerCert, "127.0.0.1", false, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := kr.Authorize(tc.key, "guest", addr(tc.from), now)
			if (err == nil) != tc.ok {
				t.Fatalf("Authorize: err = %v, want ok=%v", err, tc.ok)
			}
			if !tc.ok {
				return
			}
			if m.Name != tc.want || m.NoPTY != tc.noPTY || m.Role != hub.Driver {
				t.Fatalf("member = %+v, want name %q noPTY %v driver", m, tc.want, tc.noPTY)
			}
		})
	}
}

// TestCertificateWithoutPrincipalsOptionNeedsTheLoginUser: a
// cert-authority line without principals= accepts certificates that name
// the login user, as OpenSSH does.
func TestCertificateWithoutPrincipalsOptionNeedsTheLoginUser(t *testing.T) {
	now := time.Now()
	ca, user := newSigner(t), newSigner(t)
	kr, err := LoadKeyring(writeKeys(t, authLine("cert-authority", ca.PublicKey(), "ca")), "")
	if err != nil {
		t.Fatal(err)
	}
	cert := signCert(t, ca, user.PublicKey(), "", []string{"alice"}, now.Add(-time.Minute), time.Time{}, nil)
	if m, err := kr.Authorize(cert, "alice", addr("127.0.0.1"), now); err != nil || m.Name != "alice" {
		t.Fatalf("alice: %+v, %v", m, err)
	}
	if _, err := kr.Authorize(cert, "bob", addr("127.0.0.1"), now); err == nil {
		t.Fatal("a certificate for alice let bob in")
	}
	none := signCert(t, ca, user.PublicKey(), "x", nil, now.Add(-time.Minute), time.Time{}, nil)
	if _, err := kr.Authorize(none, "alice", addr("127.0.0.1"), now); err == nil {
		t.Fatal("a certificate without principals was accepted")
	}
}

// TestLoadKeyringRefusesOptionsItCannotHonour: the file and line and the
// option's name, rather than a silently unrestricted driver.
func TestLoadKeyringRefusesOptionsItCannotHonour(t *testing.T) {
	k := newSigner(t).PublicKey()
	for _, opt := range []string{`command="echo hi"`, `permitopen="host:22"`, `environment="A=b"`, `permitlisten="8080"`, "agent-forwarding", `tunnel="1"`, "verify-required", `principals="x"`, `expiry-time="tomorrow"`, `from="10.0.0.0/99"`,
		`from="127.0.0.1/8"`, `from="10.0.0.1",from="127.0.0.1"`, `expiry-time="20200101",expiry-time="20991231"`} {
		t.Run(opt, func(t *testing.T) {
			path := writeKeys(t, "# a comment\n"+authLine(opt, k, "x"))
			_, err := LoadKeyring(path, "")
			if err == nil {
				t.Fatal("accepted")
			}
			name, _, _ := strings.Cut(opt, "=")
			if !strings.Contains(err.Error(), path+":2:") || !strings.Contains(err.Error(), name) {
				t.Fatalf("error %q names neither %s:2 nor %s", err, path, name)
			}
		})
	}
}

func TestLoadKeyringRoles(t *testing.T) {
	d, w, both := newSigner(t), newSigner(t), newSigner(t)
	kr, err := LoadKeyring(writeKeys(t, authLine("", d.PublicKey(), "d")+authLine("", both.PublicKey(), "both")),
		writeKeys(t, authLine("", w.PublicKey(), "w")+authLine("", both.PublicKey(), "both")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key  gossh.PublicKey
		want hub.Role
	}{{d.PublicKey(), hub.Driver}, {w.PublicKey(), hub.Watcher}, {both.PublicKey(), hub.Driver}} {
		m, err := kr.Authorize(tc.key, "u", addr("127.0.0.1"), time.Now())
		if err != nil || m.Role != tc.want {
			t.Errorf("%s: %+v %v, want %v", m.Name, m, err, tc.want)
		}
	}
	if _, err := LoadKeyring(writeKeys(t, "# nothing\n"), ""); err == nil || !strings.Contains(err.Error(), "no public keys") {
		t.Fatalf("empty drivers file: %v", err)
	}
	if _, err := kr.Authorize(nil, "u", addr("127.0.0.1"), time.Now()); !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("nil key: %v", err)
	}
}

// A key listed twice in one file gets its first line, as with sshd (a
// later, looser line does not lift the first one's restrictions); a key
// in both files gets its line in the drivers' file.
func TestLoadKeyringFirstLineWins(t *testing.T) {
	k := newSigner(t)
	kr, err := LoadKeyring(writeKeys(t, authLine("restrict", k.PublicKey(), "first")+authLine("", k.PublicKey(), "second")),
		writeKeys(t, authLine("", k.PublicKey(), "watcher-line")))
	if err != nil {
		t.Fatal(err)
	}
	m, err := kr.Authorize(k.PublicKey(), "u", addr("127.0.0.1"), time.Now())
	if err != nil || m.Name != "first" || !m.NoPTY || m.Role != hub.Driver {
		t.Fatalf("got %+v, %v; want the first drivers' line (restrict)", m, err)
	}
}

package pair

import (
	"bytes"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"tandem/internal/testkit/sshtest"
)

// clearPacket is an SSH binary packet in the clear: length, padding
// length, the payload (msg, then body) and four bytes of padding.
func clearPacket(msg byte, body string) []byte {
	payload := append([]byte{msg}, body...)
	n := 1 + len(payload) + 4
	return append(append([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n), 4}, payload...), 0, 0, 0, 0)
}

// TestKexScan: the scan sees a client's key-exchange message after its
// identification line and KEXINIT, however the bytes are split, and
// nothing else passes for one.
func TestKexScan(t *testing.T) {
	kexinit := clearPacket(msgKexInit, strings.Repeat("k", 1500))
	ecdh := clearPacket(30, strings.Repeat("e", 40))
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	tests := []struct {
		name   string
		stream []byte
		want   bool
	}{
		{"banner, KEXINIT, ECDH_INIT", cat([]byte("SSH-2.0-OpenSSH_9.2\r\n"), kexinit, ecdh), true},
		{"group exchange request", cat([]byte("SSH-2.0-x\n"), kexinit, clearPacket(34, "gex")), true},
		{"lines before the banner", cat([]byte("hello\r\nSSH-2.0-x\r\n"), kexinit, clearPacket(msgKexFirst, "")), true},
		{"ignore packets between", cat([]byte("SSH-2.0-x\r\n"), clearPacket(2, "pad"), kexinit, clearPacket(2, ""), ecdh), true},
		{"banner and KEXINIT only", cat([]byte("SSH-2.0-x\r\n"), kexinit), false},
		{"kex message without KEXINIT", cat([]byte("SSH-2.0-x\r\n"), ecdh), false},
		{"no banner", cat(kexinit, ecdh), false},
		{"dribbled letters", bytes.Repeat([]byte("S"), 5000), false},
		{"a packet too long", cat([]byte("SSH-2.0-x\r\n"), []byte{0x7f, 0, 0, 0, 0, msgKexInit}, kexinit, ecdh), false},
		{"a line too long", cat(bytes.Repeat([]byte("x"), 2000), []byte("\nSSH-2.0-x\n"), kexinit, ecdh), false},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 3, 7, 64, len(tt.stream)} {
			var s kexScan
			got := false
			for b := tt.stream; len(b) > 0; {
				n := min(chunk, len(b))
				got = s.feed(b[:n])
				b = b[n:]
			}
			if got != tt.want {
				t.Errorf("%s, read %d bytes at a time: answered %v, want %v", tt.name, chunk, got, tt.want)
			}
		}
	}
}

// askpass writes an SSH_ASKPASS script that notes each prompt in log,
// waits wait, and answers "yes" to the host key question and pass to any
// other (a passphrase).
func askpass(t *testing.T, wait time.Duration, pass string) (script, log string) {
	t.Helper()
	dir := t.TempDir()
	script, log = filepath.Join(dir, "askpass"), filepath.Join(dir, "asked")
	body := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + log + "'\nsleep " + strings.TrimSuffix(wait.String(), "s") + "\n" +
		"case \"$1\" in *continue*) echo yes ;; *) echo '" + pass + "' ;; esac\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return script, log
}

// TestGuestWhoTakesTimeBeforeLoggingInIsLetIn: with the default limits, a
// guest on the system ssh who reads the host key's fingerprint for 10 s
// (the question ssh asks on a first connection), or who has finished the
// key exchange and takes 10 s to type their key's passphrase, logs in:
// past the slow-loris limits (Idle 5 s, Handshake 10 s) the guest has
// the login grace (120 s), as with sshd.
func TestGuestWhoTakesTimeBeforeLoggingInIsLetIn(t *testing.T) {
	sshtest.Require(t)
	if testing.Short() {
		t.Skip("waits 10 s on purpose")
	}
	const wait = 10 * time.Second
	tests := []struct {
		name, pass, asked string
		trusted           bool // the host key is in known_hosts already
	}{
		{name: "reads the host key", asked: "continue connecting"},
		{name: "types a passphrase", pass: "correct horse", trusted: true, asked: "passphrase"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			k := sshtest.NewKey(t, "guest")
			g := NewGuard(Limits{}, nil)
			hostPEM := mustHostKey(t)
			addr := serveGuardedKey(t, k.Signer.PublicKey(), g, func(s ssh.Session) { _, _ = s.Write([]byte("hello\n")) }, hostPEM)
			t.Cleanup(g.Close)
			dir := t.TempDir()
			keyFile := k.File(t)
			if tt.pass != "" {
				block, err := gossh.MarshalPrivateKeyWithPassphrase(k.Private, k.Name, []byte(tt.pass))
				if err != nil {
					t.Fatal(err)
				}
				_ = os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600)
			}
			known := filepath.Join(dir, "known_hosts")
			_, port, _ := net.SplitHostPort(addr)
			if tt.trusted {
				hostKey, err := gossh.ParsePrivateKey(hostPEM)
				if err != nil {
					t.Fatal(err)
				}
				line := "[127.0.0.1]:" + port + " " + string(gossh.MarshalAuthorizedKey(hostKey.PublicKey()))
				_ = os.WriteFile(known, []byte(line), 0o600)
			}
			script, log := askpass(t, wait, tt.pass)
			cmd := exec.Command("ssh", "-F", "/dev/null", "-T", "-p", port, "-i", keyFile,
				"-o", "IdentitiesOnly=yes", "-o", "UserKnownHostsFile="+known, "-o", "GlobalKnownHostsFile=/dev/null",
				"-o", "StrictHostKeyChecking=ask", "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no",
				"-o", "ConnectTimeout=60", "guest@127.0.0.1")
			cmd.Env = append(os.Environ(), "SSH_ASKPASS="+script, "SSH_ASKPASS_REQUIRE=force", "DISPLAY=:0")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			done := make(chan struct{})
			time.AfterFunc(patience, func() {
				select {
				case <-done:
				default:
					_ = cmd.Process.Kill()
				}
			})
			out, err := cmd.Output()
			close(done)
			asked, _ := os.ReadFile(log)
			if !strings.Contains(string(asked), tt.asked) {
				t.Fatalf("ssh never asked %q (it asked %q): the test did not wait where it means to; stderr: %s", tt.asked, asked, stderr.String())
			}
			if err != nil || string(out) != "hello\n" {
				t.Fatalf("a guest who took %v before logging in was cut off: %v, out %q, stderr:\n%s", wait, err, out, stderr.String())
			}
		})
	}
}

// TestPendingConnectionsWithoutKeyExchangeStillGo: the slow-loris limits
// stay, at their defaults: a connection that sends no byte, and one that
// sends its identification line and KEXINIT but never the key-exchange
// message that gets the host key, are both closed.
func TestPendingConnectionsWithoutKeyExchangeStillGo(t *testing.T) {
	addr, g := guardedServer(t, newSigner(t).PublicKey(), Limits{})
	silent, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	stalled, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	msg := append([]byte("SSH-2.0-OpenSSH_9.2\r\n"), clearPacket(msgKexInit, strings.Repeat("k", 1200))...)
	if _, err := stalled.Write(msg); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for name, c := range map[string]net.Conn{"a silent connection": silent, "a connection stalled after its KEXINIT": stalled} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !closedSoon(c, patience) {
				t.Errorf("%s stayed open", name)
			}
		}()
	}
	wg.Wait()
	if n := g.Pending(); n != 0 {
		t.Fatalf("%d connections still pending", n)
	}
}

// TestLateLoginIsTold: a client that got the host key and then says
// nothing (its user never answers ssh's question) is closed after
// LoginGrace, and the guard tells OnLateLogin where it came from.
func TestLateLoginIsTold(t *testing.T) {
	g := NewGuard(Limits{LoginGrace: time.Second}, nil)
	told := make(chan string, 1)
	g.OnLateLogin(func(addr string, after time.Duration) { told <- addr + " " + after.String() })
	addr := serveGuarded(t, newSigner(t).PublicKey(), g, func(ssh.Session) {})
	var said string
	_, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "guest", Auth: []gossh.AuthMethod{gossh.PublicKeys(newSigner(t))}, Timeout: patience,
		HostKeyCallback: func(string, net.Addr, gossh.PublicKey) error {
			select { // a person reading the fingerprint, until the host gives up
			case said = <-told:
			case <-time.After(patience):
			}
			return nil
		},
	})
	if err == nil {
		t.Fatal("a client that never answered the host key question logged in")
	}
	if said != "127.0.0.1 1s" {
		t.Fatalf("OnLateLogin was told %q, want the address and the grace (dial: %v)", said, err)
	}
}

// TestHostIsToldOfAGuestWhoDidNotLogIn: serve tells the host (Warn, its
// stderr) of a guest whose ssh had the host key but who did not log in
// within Options.LoginGrace.
func TestHostIsToldOfAGuestWhoDidNotLogIn(t *testing.T) {
	dir := t.TempDir()
	k := sshtest.NewKey(t, "alice")
	_ = os.WriteFile(filepath.Join(dir, "drivers"), []byte(k.Line()), 0o600)
	keys, err := LoadKeyring(filepath.Join(dir, "drivers"), "")
	if err != nil {
		t.Fatal(err)
	}
	warned := make(chan string, 4)
	ps := New(Options{Keys: keys, LoginGrace: time.Second, Warn: func(s string) { warned <- s }})
	srv, err := ps.SSHServer(filepath.Join(dir, "host"))
	if err != nil {
		t.Fatal(err)
	}
	addr := serveOn(t, srv)
	t.Cleanup(func() { ps.Shutdown(srv, nil, false) })
	var said string
	_, err = gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "alice", Auth: []gossh.AuthMethod{gossh.PublicKeys(k.Signer)}, Timeout: patience,
		HostKeyCallback: func(string, net.Addr, gossh.PublicKey) error {
			select { // the guest reads the fingerprint until the host gives up
			case said = <-warned:
			case <-time.After(patience):
			}
			return nil
		},
	})
	if err == nil {
		t.Fatal("a guest who never answered the host key question logged in")
	}
	if !strings.Contains(said, "a guest from 127.0.0.1") || !strings.Contains(said, "did not log in within 1s") {
		t.Fatalf("the host was told %q", said)
	}
}

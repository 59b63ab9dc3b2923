package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// Key is a generated ed25519 key for an in-process SSH client
// (golang.org/x/crypto/ssh), as `tandem serve`'s tests log in with:
// Name is the user it logs in as and its authorized_keys comment.
type Key struct {
	Name   string
	Signer gossh.Signer
	// Private is the private key (nil for a key made of a Signer only).
	Private ed25519.PrivateKey
}

// NewKey generates a key named name; a failure fails the test.
func NewKey(t testing.TB, name string) Key {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return Key{Name: name, Signer: s, Private: priv}
}

// File writes the private key in OpenSSH's format to a file of its own
// (mode 0600) under a temp dir of t, for the system ssh's -i, and returns
// its path; a failure (or a key without Private) fails the test.
func (k Key) File(t testing.TB) string {
	t.Helper()
	if k.Private == nil {
		t.Fatal("sshtest: key " + k.Name + " has no private key to write")
	}
	block, err := gossh.MarshalPrivateKey(k.Private, k.Name)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Line is the key's authorized_keys line: "ssh-ed25519 AAAA… NAME\n".
func (k Key) Line() string {
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.Signer.PublicKey()))) + " " + k.Name + "\n"
}

package sshtest

import (
	"crypto/ed25519"
	"crypto/rand"
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
	return Key{Name: name, Signer: s}
}

// Line is the key's authorized_keys line: "ssh-ed25519 AAAA… NAME\n".
func (k Key) Line() string {
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.Signer.PublicKey()))) + " " + k.Name + "\n"
}

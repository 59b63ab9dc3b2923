package pair

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	gossh "golang.org/x/crypto/ssh"
)

// ErrHostKeyPerms is LoadHostKey's error for a host key that group or
// others may read, or that another user owns (and so may replace).
var ErrHostKeyPerms = errors.New("host key is readable by group or others, or owned by another user")

// LoadHostKey returns the PEM of the SSH host key at path, creating an
// ed25519 key (mode 0600) when the file is missing. Only directories that
// are missing are created, with mode 0700; an existing directory's mode is
// never changed. A key readable by group or others, or (on Unix) owned
// by another user than this process's, fails with ErrHostKeyPerms unless
// insecure is set; warn, if not nil, is told then.
func LoadHostKey(path string, insecure bool, warn func(string)) ([]byte, error) {
	// Non-blocking, so that a FIFO at the path cannot hang serve: it is
	// refused below, as is anything but a regular file.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return createHostKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	defer f.Close()
	st, err := f.Stat() // the file read below, not whatever path names later
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("host key: %s is not a regular file (%s)", path, st.Mode().Type())
	}
	var problems []string
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		problems = append(problems, fmt.Sprintf("%s has mode %04o: anyone who can read it can pose as this server (chmod 600 %s)", path, perm, path))
	}
	if uid, ok := fileOwner(st); ok && uid != os.Getuid() {
		problems = append(problems, fmt.Sprintf("%s is owned by uid %d, not by this user (uid %d), who could replace it", path, uid, os.Getuid()))
	}
	for _, msg := range problems {
		if !insecure {
			return nil, fmt.Errorf("%w: %s, or pass --insecure-host-key-perms", ErrHostKeyPerms, msg)
		}
		if warn != nil {
			warn("warning: " + msg)
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if _, err := gossh.ParsePrivateKey(b); err != nil {
		return nil, fmt.Errorf("host key %s: %w", path, err)
	}
	return b, nil
}

// HostKeyFingerprint returns the SHA256 fingerprint of the host key in
// pemKey (as LoadHostKey returns it), as ssh shows it on a first
// connection: "SHA256:…".
func HostKeyFingerprint(pemKey []byte) (string, error) {
	signer, err := gossh.ParsePrivateKey(pemKey)
	if err != nil {
		return "", fmt.Errorf("host key: %w", err)
	}
	return gossh.FingerprintSHA256(signer.PublicKey()), nil
}

func createHostKey(path string) ([]byte, error) {
	// MkdirAll creates only what is missing, with 0700 (less the umask),
	// and never changes an existing directory's mode or setgid bit.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "tandem serve host key")
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	b := pem.EncodeToMemory(block)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("host key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	return b, nil
}

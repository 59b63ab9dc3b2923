package pair

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadHostKeyLeavesExistingDirectories: creating a key in an existing
// directory never changes its mode (a setgid group directory stays one).
func TestLoadHostKeyLeavesExistingDirectories(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o2775); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(dir)
	key := filepath.Join(dir, "newkey")
	if _, err := LoadHostKey(key, false, nil); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(dir)
	if after.Mode() != before.Mode() {
		t.Fatalf("directory mode changed from %v to %v", before.Mode(), after.Mode())
	}
	st, err := os.Stat(key)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("new key: %v, %v", st, err)
	}
	// Missing directories are created private.
	deep := filepath.Join(t.TempDir(), "a", "b", "key")
	if _, err := LoadHostKey(deep, false, nil); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(filepath.Dir(deep)); st.Mode().Perm()&0o077 != 0 {
		t.Fatalf("created directory mode %v", st.Mode())
	}
	// The same key comes back.
	a, _ := LoadHostKey(key, false, nil)
	b, _ := LoadHostKey(key, false, nil)
	if string(a) != string(b) || len(a) == 0 {
		t.Fatal("the key changed between loads")
	}
}

// TestLoadHostKeyRefusesReadableKeys: a key others can read is refused,
// or accepted with a warning under --insecure-host-key-perms.
func TestLoadHostKeyRefusesReadableKeys(t *testing.T) {
	key := filepath.Join(t.TempDir(), "key")
	if _, err := LoadHostKey(key, false, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(key, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadHostKey(key, false, nil); !errors.Is(err, ErrHostKeyPerms) || !strings.Contains(err.Error(), "--insecure-host-key-perms") {
		t.Fatalf("readable key: %v", err)
	}
	var warned string
	if _, err := LoadHostKey(key, true, func(s string) { warned = s }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warned, "0644") {
		t.Fatalf("warning = %q", warned)
	}
	if err := os.WriteFile(key, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(key, 0o600); err != nil { // WriteFile keeps the mode
		t.Fatal(err)
	}
	if _, err := LoadHostKey(key, false, nil); err == nil || errors.Is(err, ErrHostKeyPerms) {
		t.Fatalf("a file that is no key: %v, want a parse error", err)
	}
}

// TestLoadHostKeyRefusesOthersKeys: a key file another user owns (who
// could replace it) is refused like a readable one.
func TestLoadHostKeyRefusesOthersKeys(t *testing.T) {
	key := filepath.Join(t.TempDir(), "key")
	if _, err := LoadHostKey(key, false, nil); err != nil {
		t.Fatal(err)
	}
	const nobody = 65534
	if err := os.Chown(key, nobody, -1); err != nil {
		t.Skip("cannot give the file to another user (not root):", err)
	}
	_, err := LoadHostKey(key, false, nil)
	if !errors.Is(err, ErrHostKeyPerms) || !strings.Contains(err.Error(), "owned by uid 65534") {
		t.Fatalf("another user's key: %v", err)
	}
	var warned string
	if _, err := LoadHostKey(key, true, func(s string) { warned = s }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warned, "uid 65534") {
		t.Fatalf("warning = %q", warned)
	}
}

//go:build unix

package pair

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO (or anything but a regular file) at the host key's path is
// refused at once; opening it for reading would block until a writer came.
func TestLoadHostKeyRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadHostKey(path, false, nil); done <- err }()
	var err error
	select {
	case err = <-done:
	case <-time.After(patience):
		t.Fatal("LoadHostKey blocked on a FIFO")
	}
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("FIFO host key: %v", err)
	}
}

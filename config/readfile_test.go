package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A config or profile that is a FIFO, a device or huge is refused at
// once: reading it would block or fill memory (adversarial review).
func TestReadSmallFileRefusesOddFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, nil, 0o600); err != nil || os.Truncate(big, MaxFileBytes+1) != nil {
		t.Fatal("big file")
	}
	ok := filepath.Join(dir, "ok.toml")
	_ = os.WriteFile(ok, []byte("model = \"m\"\n"), 0o600)
	tests := []struct{ path, err string }{
		{fifo, "not a regular file"},
		{"/dev/zero", "not a regular file"},
		{big, "more than"},
		{ok, ""},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() { _, err := ReadSmallFile(tt.path, MaxFileBytes); done <- err }()
		select {
		case err := <-done:
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("ReadSmallFile(%s) = %v, want %q", tt.path, err, tt.err)
			}
		case <-time.After(patience):
			t.Fatalf("ReadSmallFile(%s) hangs", tt.path)
		}
	}
}

// A file that grows past its limit after it was opened is an error,
// never a read of more than the limit.
func TestOpenSmallFileGrown(t *testing.T) {
	p := filepath.Join(t.TempDir(), "grows")
	if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := OpenSmallFile(p, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(p, []byte("0123456789 and more"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if err == nil || !strings.Contains(err.Error(), "more than 10 bytes") || len(data) > 11 {
		t.Fatalf("read %d bytes, err %v", len(data), err)
	}
}

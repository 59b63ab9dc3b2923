package pair

import (
	"fmt"
	"net"
	"os"
	"os/user"
	"path/filepath"
)

// DefaultHostKey is the host key's path when --host-key is not given:
// $XDG_DATA_HOME/tandem/host_ed25519 (~/.local/share when unset).
// LoadHostKey creates what is missing.
func DefaultHostKey() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("host key: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "tandem", "host_ed25519"), nil
}

// HostName is the host's presence name under --attach: "USER (host)",
// or "host" when the user is unknown.
func HostName() string {
	name := os.Getenv("USER")
	if name == "" {
		if u, err := user.Current(); err == nil {
			name = u.Username
		}
	}
	if name == "" {
		return "host"
	}
	return name + " (host)"
}

// GuestHost is the host part of the ssh line a guest runs: the listen
// address when it is specific ("localhost" for loopback), else this
// machine's hostname ("HOST" when unknown).
func GuestHost(listen string) string {
	h, _, err := net.SplitHostPort(listen)
	if err != nil || h == "" || h == "0.0.0.0" || h == "::" {
		if n, err := os.Hostname(); err == nil {
			return n
		}
		return "HOST"
	}
	if h == "127.0.0.1" || h == "::1" {
		return "localhost"
	}
	return h
}

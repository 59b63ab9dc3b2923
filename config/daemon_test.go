package config

import (
	"strings"
	"testing"
)

// TestResolveDaemon: daemon is set at the top level, by a profile (either
// way) or by --daemon, which wins over a profile's false.
func TestResolveDaemon(t *testing.T) {
	tests := []struct {
		name, text, profile string
		flag, want          bool
	}{
		{"unset", "", "", false, false},
		{"top", "daemon = true\n", "", false, true},
		{"profile on", "[profiles.p]\ndaemon = true\n", "p", false, true},
		{"profile off over top", "daemon = true\n[profiles.p]\ndaemon = false\n", "p", false, false},
		{"flag over profile", "[profiles.p]\ndaemon = false\n", "p", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("c.toml", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			s, err := Resolve(f, tt.profile, Flags{Daemon: tt.flag})
			if err != nil || s.Daemon != tt.want {
				t.Errorf("Daemon = %v, %v; want %v", s.Daemon, err, tt.want)
			}
		})
	}
	if _, err := Parse("c.toml", []byte("daemon = \"yes\"\n")); err == nil || !strings.Contains(err.Error(), "expected a boolean (true or false), got a string") {
		t.Errorf("daemon = \"yes\": %v", err)
	}
}

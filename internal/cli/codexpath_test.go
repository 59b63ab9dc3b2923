package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A codex command that cannot run is reported with where it was set (the
// flag, or the config file, line and key) and why: not found vs not
// executable.
func TestLocateCodexNamesTheSource(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.py") // exists, not executable
	if err := os.WriteFile(plain, []byte("print(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "codex")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "fake.py")
	cfg := func(text string) string {
		p := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	top := cfg("[codex]\ncommand = \"" + missing + "\"\n")
	prof := cfg("model = \"m\"\n\n[profiles.p.codex]\ncommand = \"" + plain + "\"\n")
	cases := []struct {
		name string
		args []string
		want []string // substrings of the error; nil = found
		env  string   // $TANDEM_CODEX, when set
	}{
		{"config missing file", []string{"--config", top}, []string{top + ":2: codex.command", "not found"}, ""},
		{"config bare name", []string{"--config", cfg("[codex]\ncommand = \"no-such-codex-xyz\"\n")}, []string{":2: codex.command", "not found on $PATH"}, ""},
		{"profile not executable", []string{"--config", prof, "--profile", "p"}, []string{prof + ":4: profiles.p.codex.command", "not executable"}, ""},
		{"flag missing", []string{"--codex", missing}, []string{"--codex", "not found"}, ""},
		{"flag not executable beats config", []string{"--config", top, "--codex", plain}, []string{"for --codex", "not executable"}, ""},
		{"flag directory", []string{"--codex", dir}, []string{"--codex", "is a directory"}, ""},
		{"config executable", []string{"--config", cfg("[codex]\ncommand = \"" + exe + "\"\n")}, nil, ""},
		{"env missing file", nil, []string{"$TANDEM_CODEX", "not found"}, missing},
		{"env executable", nil, nil, exe},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("TANDEM_CODEX", tc.env)
			}
			f, err := parseSettingsFlags(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			p, err := f.locateCodex()
			if tc.want == nil {
				if err != nil || p != exe {
					t.Fatalf("got %q %v, want %q", p, err, exe)
				}
				return
			}
			if err == nil {
				t.Fatalf("found %q", p)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "not found") && strings.Contains(err.Error(), "not executable") {
				t.Errorf("error %q says both", err)
			}
			flag := strings.Contains(strings.Join(tc.args, " "), "--codex")
			if !flag && strings.Contains(err.Error(), "--codex") {
				t.Errorf("error %q blames --codex, which was not given", err)
			}
			var ue *usageError
			if usage := errors.As(err, &ue); usage != flag {
				t.Errorf("usage error (exit 2) = %v; want %v (only a bad --codex flag is one)", usage, flag)
			}
		})
	}
}

// A bare --codex name is looked up on $PATH only, as a shell does; when a
// file of that name is in the current directory the error says how to
// name it.
func TestLocateCodexBareNameInCwd(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "my-codex-xyz.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	f, err := parseSettingsFlags(t, "--codex", "my-codex-xyz.sh")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.locateCodex()
	if err == nil || !strings.Contains(err.Error(), "use ./my-codex-xyz.sh") {
		t.Fatalf("error %v; want the ./ hint", err)
	}
}

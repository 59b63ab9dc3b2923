package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tandem/config"
	"tandem/internal/pair"
	"tandem/sessions/demo"
)

// badKeys are [keys] tables the keymap refuses: the error names the file,
// the line of the offending entry (for a clash, the entry of the action
// the error names) and the actions.
var badKeys = []struct {
	name string
	text string
	line int
	want []string
}{
	{"unknown action", "model = \"a\"\n\n[keys]\npager = \"alt+t\"\npagr = [\"f9\"]\n", 5,
		[]string{`unknown action "pagr"`, "docs/KEYS.md"}},
	{"clash with a default", "[keys]\ncopy = \"f6\"\n\npager = [\n  \"ctrl+o\",\n]\n", 4,
		[]string{"pager", `"ctrl+o"`, "expand", "the session"}},
	{"clash between two entries", "[keys]\ncopy = \"f7\"\nexpand = [\"alt+x\"]\npager = [\"f7\"]\n", 4,
		[]string{"pager", `"f7"`, "copy's key"}},
	{"clash with an editing key", "theme = \"dark\"\nkeys.copy = \"ctrl+k\"\n", 2,
		[]string{"copy", `"ctrl+k"`, "kill_to_end"}},
	{"no key", "[keys]\n\nexpand = []\n", 3, []string{"expand: no key given"}},
}

// TestKeysConfigErrors: a [keys] entry the keymap refuses stops every
// command that reads the config — tandem, resume, exec, serve (--config)
// and demo, replay (the default file) — with a usage error (exit 2)
// "FILE:LINE: keys: …", before anything starts or a terminal is asked for.
func TestKeysConfigErrors(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "x.jsonl")
	writeFile(t, rec, string(demo.Transcript))
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	for _, tc := range badKeys {
		t.Run(tc.name, func(t *testing.T) {
			xdg := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", xdg)
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			if err := os.MkdirAll(filepath.Join(xdg, "tandem"), 0o700); err != nil {
				t.Fatal(err)
			}
			def := writeFile(t, filepath.Join(xdg, "tandem", "config.toml"), tc.text)
			cfg := writeFile(t, filepath.Join(t.TempDir(), "config.toml"), tc.text)
			for _, run := range []struct {
				args []string
				file string
			}{
				{[]string{"--codex", "/bin/true", "--config", cfg}, cfg},
				{[]string{"resume", "--last", "--codex", "/bin/true", "--config", cfg}, cfg},
				{[]string{"exec", "--codex", "/bin/true", "--config", cfg, "hello"}, cfg},
				{[]string{"serve", "--codex", "/bin/true", "--config", cfg, "--authorized-keys", "/nonexistent"}, cfg},
				{[]string{"--codex", "/bin/true"}, def}, // the default file
				{[]string{"demo"}, def},
				{[]string{"replay", rec}, def},
			} {
				root := newRootCmd()
				root.SetArgs(run.args)
				root.SetIn(devnull)
				root.SetOut(io.Discard)
				root.SetErr(io.Discard)
				err := root.Execute()
				var ue *usageError
				if !errors.As(err, &ue) {
					t.Errorf("%v: got %T %v, want a usage error (exit 2)", run.args, err, err)
					continue
				}
				if prefix := fmt.Sprintf("%s:%d: keys: ", run.file, tc.line); !strings.HasPrefix(err.Error(), prefix) {
					t.Errorf("%v: %q does not start with %q", run.args, err, prefix)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%v: %q does not say %q", run.args, err, w)
					}
				}
			}
		})
	}
}

// TestKeysConfigExitStatus: the built tandem exits 2 on a refused [keys]
// entry, with the one line "tandem: FILE:LINE: keys: …" on stderr.
func TestKeysConfigExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tandem")
	}
	bin := tandemBinary(t)
	for _, tc := range badKeys[:2] {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeFile(t, filepath.Join(t.TempDir(), "config.toml"), tc.text)
			cmd := exec.Command(bin, "--config", cfg, "--codex", "/bin/true")
			cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Fatalf("exit: %v, want status 2; stderr %q", err, stderr.String())
			}
			line := strings.TrimSuffix(stderr.String(), "\n")
			if want := fmt.Sprintf("tandem: %s:%d: keys: ", cfg, tc.line); !strings.HasPrefix(line, want) || strings.Contains(line, "\n") {
				t.Errorf("stderr %q, want one line starting %q", stderr.String(), want)
			}
		})
	}
}

// TestKeysReachTheModel: the config's [keys] reaches the model's options
// of every command that builds one — the interactive run's, serve's (the
// pairing server hands it to every viewer's model) and a replay's; without
// [keys] they carry the defaults.
func TestKeysReachTheModel(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		pager      []string
	}{
		{"rebound", "model = \"m\"\n[keys]\npager = \"alt+t\"\ncopy = [\"alt+w\", \"f6\"]\n", []string{"alt+t"}},
		{"no [keys]", "model = \"m\"\n", []string{"ctrl+t"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			xdg := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", xdg)
			t.Setenv("XDG_STATE_HOME", t.TempDir())
			if err := os.MkdirAll(filepath.Join(xdg, "tandem"), 0o700); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(xdg, "tandem", "config.toml"), tc.text)
			cfg, err := parseSettingsFlags(t)
			if err != nil {
				t.Fatal(err)
			}
			env := &runEnv{cfg: cfg, cwd: t.TempDir(), log: slog.New(slog.DiscardHandler)}
			chat := env.modelOptions(interactive{}, nil)
			serve := env.pairOptions(&pair.Keyring{}, false, io.Discard)
			km, err := defaultKeymap()
			if err != nil {
				t.Fatal(err)
			}
			replay := replayOptions(env.status(), false, km)
			for what, m := range map[string]interface{ Keys() []string }{
				"tandem": &chat.Keys.Pager, "serve": &serve.KeyMap.Pager, "replay": &replay.Keys.Pager,
			} {
				if got := m.Keys(); !slices.Equal(got, tc.pager) {
					t.Errorf("%s: pager on %v, want %v", what, got, tc.pager)
				}
			}
			if tc.name == "rebound" && !slices.Equal(chat.Keys.Copy.Keys(), []string{"alt+w", "f6"}) {
				t.Errorf("copy on %v", chat.Keys.Copy.Keys())
			}
		})
	}
}

// TestKeysDocExamples: the [keys] examples of docs/KEYS.md and
// docs/CONFIG.md are bindings the keymap takes, and KEYS.md's advice on
// closing the pager too.
func TestKeysDocExamples(t *testing.T) {
	for _, doc := range []string{"KEYS.md", "CONFIG.md"} {
		text, err := os.ReadFile(filepath.Join("..", "..", "docs", doc))
		if err != nil {
			t.Fatal(err)
		}
		_, rest, ok := strings.Cut(string(text), "```toml\n")
		if !ok {
			t.Fatalf("no ```toml block in docs/%s", doc)
		}
		example, _, _ := strings.Cut(rest, "```")
		file, err := config.Parse(doc, []byte(example))
		if err != nil {
			t.Fatalf("docs/%s: %v", doc, err)
		}
		if len(file.Bindings()) == 0 {
			t.Errorf("docs/%s's example has no [keys]", doc)
		}
		km, err := keymap(file)
		if err != nil {
			t.Errorf("docs/%s's [keys]: %v", doc, err)
			continue
		}
		if !slices.Equal(km.Pager.Keys(), []string{"alt+t"}) {
			t.Errorf("docs/%s: pager on %v", doc, km.Pager.Keys())
		}
	}
	file, err := config.Parse("x.toml", []byte("[keys]\npager = [\"alt+t\"]\npager_close = [\"q\", \"esc\", \"alt+t\", \"ctrl+c\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keymap(file); err != nil {
		t.Errorf("KEYS.md's pager_close advice: %v", err)
	}
}

package backend

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// InstallHint is the command that installs the pinned codex.
const InstallHint = "scripts/install-codex.sh"

// CodexVersion is the app-server version tandem is built and tested
// against.
const CodexVersion = "0.169.0"

// ErrCodexNotFound is returned by LocateCodexFrom when no codex binary
// exists.
var ErrCodexNotFound = errors.New("codex not found: pass --codex PATH, put codex on $PATH, or run " + InstallHint)

// LocateCodexFrom finds the codex executable: command (the --codex value
// or codex.command) if set, then $TANDEM_CODEX, then `codex` on $PATH,
// then the project's install folder .codex-bin/node_modules/.bin/codex
// next to the tandem executable or the current directory, or any of their
// parents. from is the command's origin: "--codex", or the config file,
// line and key that set it ("config.toml:3: codex.command"). The error
// for a command that cannot run names from and says whether the file is
// not found or not executable.
func LocateCodexFrom(command, from string) (string, error) {
	if command != "" {
		p, err := exec.LookPath(command)
		if err != nil {
			return "", codexCommandError(command, from, err)
		}
		return p, nil
	}
	if env := os.Getenv("TANDEM_CODEX"); env != "" {
		p, err := exec.LookPath(env)
		if err != nil {
			// Set on purpose: falling back elsewhere would hide the mistake.
			return "", codexCommandError(env, "$TANDEM_CODEX", err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("codex"); err == nil {
		return p, nil
	}
	var starts []string
	if exe, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		starts = append(starts, filepath.Dir(exe))
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, dir := range starts {
		for {
			p := filepath.Join(dir, ".codex-bin", "node_modules", ".bin", "codex")
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", ErrCodexNotFound
}

// codexCommandError explains why exec.LookPath rejected command.
func codexCommandError(command, from string, lookErr error) error {
	what := "not executable"
	switch st, err := os.Stat(command); {
	case !strings.ContainsRune(command, filepath.Separator) && errors.Is(lookErr, exec.ErrNotFound):
		what = "not found on $PATH"
		if err == nil && !st.IsDir() {
			// As in a shell, a bare name is not looked up here.
			what += " (for the file in this directory, use ./" + command + ")"
		}
	case err != nil:
		what = "not found"
	case st.IsDir():
		what = "is a directory, not an executable"
	}
	if from == "" {
		from = "--codex"
	}
	if strings.HasPrefix(from, "-") {
		return fmt.Errorf("invalid value %q for %s: %s", command, from, what)
	}
	return fmt.Errorf("%s: codex command %q: %s", from, command, what)
}

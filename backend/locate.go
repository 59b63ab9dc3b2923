package backend

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
)

// InstallHint is the command that installs the pinned codex.
const InstallHint = "scripts/install-codex.sh"

// CodexVersion is the app-server version tandem is built and tested
// against.
const CodexVersion = "0.169.0"

// ErrCodexNotFound is returned by LocateCodex when no codex binary exists.
var ErrCodexNotFound = errors.New("codex not found: pass --codex PATH, put codex on $PATH, or run " + InstallHint)

// LocateCodex finds the codex executable: flag (the --codex value) if set,
// then $TANDEM_CODEX, then `codex` on $PATH, then the project's install
// folder .codex-bin/node_modules/.bin/codex next to the tandem executable
// or the current directory, or any of their parents.
func LocateCodex(flag string) (string, error) {
	if flag != "" {
		p, err := exec.LookPath(flag)
		if err != nil {
			return "", errors.New("--codex " + flag + ": not an executable")
		}
		return p, nil
	}
	if env := os.Getenv("TANDEM_CODEX"); env != "" {
		if p, err := exec.LookPath(env); err == nil {
			return p, nil
		}
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

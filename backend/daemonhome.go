package backend

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"tandem/config"
)

// PrepareDaemonHome is the CODEX_HOME of the app-server daemon of a run
// that wants a CODEX_HOME of its own (managed MCP servers, or
// --isolated-home): a per-run home would die with the run while the
// daemon lives on, so the daemon gets one home per shared CODEX_HOME that
// stays — stateDir/daemon-homes/ID (mode 0700; ID from shared's absolute
// path) — made like a per-run home (see PrepareCodexHome: auth.json and
// sessions/ linked, the config files copied, the MCP block appended) and
// refreshed by every run. Everything codex keeps there itself (the
// daemon's managed copy of codex under packages/, its state databases)
// stays between runs.
//
// changed reports that config.toml differs from the earlier run's: a
// daemon already running keeps what it started with until it is
// restarted. Errors are PrepareCodexHome's.
func PrepareDaemonHome(shared, stateDir string, servers map[string]config.MCPServer) (dir string, changed bool, err error) {
	block, err := ManagedMCPBlock(servers)
	if err != nil {
		return "", false, err
	}
	abs, err := filepath.Abs(shared)
	if err != nil {
		return "", false, err
	}
	sum := sha256.Sum256([]byte(abs))
	dir = filepath.Join(stateDir, "daemon-homes", hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("daemon CODEX_HOME: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", false, err
	}
	cfg := filepath.Join(dir, "config.toml")
	before, _ := os.ReadFile(cfg)
	if err := fillCodexHome(dir, abs, servers, block, true); err != nil {
		return "", false, err
	}
	after, _ := os.ReadFile(cfg)
	return dir, !bytes.Equal(before, after), nil
}

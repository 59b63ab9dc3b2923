package backend

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"tandem/config"
	"tandem/internal/lib/procfs"
)

// SharedCodexHome returns the CODEX_HOME codex uses on its own:
// $CODEX_HOME, else ~/.codex.
func SharedCodexHome() string {
	if h := os.Getenv("CODEX_HOME"); h != "" {
		return h
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".codex")
}

// StateDir returns tandem's state directory: $XDG_STATE_HOME/tandem, else
// ~/.local/state/tandem.
func StateDir() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "tandem")
}

// Files of the shared CODEX_HOME that a per-run home links (so logins and
// rollouts stay shared) or copies (so the per-run config can differ).
var (
	homeLinks  = []string{"auth.json", "sessions"}
	homeCopies = []string{"config.toml", "config.json", "instructions.md", "AGENTS.md"}
)

// symlink is os.Symlink; tests replace it to exercise the copy fallback.
var symlink = os.Symlink

// PrepareCodexHome creates a per-run CODEX_HOME under stateDir/homes
// (mode 0700): auth.json and sessions/ are symlinked from shared (copied
// where a symlink fails; sessions/ is created in shared first so new
// rollouts land there), config.toml, config.json, instructions.md and
// AGENTS.md are copied, and the managed MCP servers are appended to
// config.toml (mode 0600) as [mcp_servers.NAME] tables.
//
// It returns the directory and a cleanup func that removes it (links are
// removed, never followed); call cleanup on every exit path, after the
// app-server has stopped. Homes left behind by runs that died (their pid
// is gone) are removed first. Errors: an invalid server (see
// ManagedMCPBlock), a server name also defined in the shared config.toml,
// or a filesystem failure; nothing is left behind on error.
func PrepareCodexHome(shared, stateDir string, servers map[string]config.MCPServer) (dir string, cleanup func(), err error) {
	block, err := ManagedMCPBlock(servers)
	if err != nil {
		return "", nil, err
	}
	homes := filepath.Join(stateDir, "homes")
	if err := os.MkdirAll(homes, 0o700); err != nil {
		return "", nil, fmt.Errorf("per-run CODEX_HOME: %w", err)
	}
	removeStaleHomes(homes)
	dir, err = os.MkdirTemp(homes, "run-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", nil, fmt.Errorf("per-run CODEX_HOME: %w", err)
	}
	made := dir
	remove := func() { _ = os.RemoveAll(made) }
	defer func() {
		if err != nil {
			remove()
		}
	}()
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", nil, err
	}

	if err := fillCodexHome(dir, shared, servers, block, false); err != nil {
		return "", nil, err
	}
	return dir, remove, nil
}

// fillCodexHome makes dir a CODEX_HOME on top of shared (see
// PrepareCodexHome): links, copies, and config.toml with the managed MCP
// block. With refresh set, dir is the home of an earlier run kept on
// purpose (the daemon's, see PrepareDaemonHome): links already right are
// kept and copies are made afresh.
func fillCodexHome(dir, shared string, servers map[string]config.MCPServer, block []byte, refresh bool) error {
	if err := os.MkdirAll(filepath.Join(shared, "sessions"), 0o700); err != nil {
		return fmt.Errorf("per-run CODEX_HOME: shared sessions: %w", err)
	}
	for _, name := range homeLinks {
		src := filepath.Join(shared, name)
		if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		dst := filepath.Join(dir, name)
		if refresh {
			if cur, err := os.Readlink(dst); err == nil && cur == src {
				continue // linked by an earlier run
			}
			_ = os.RemoveAll(dst) // a link only: RemoveAll does not follow it
		}
		if err := symlink(src, dst); err != nil {
			if err := copyTree(src, dst); err != nil {
				return fmt.Errorf("per-run CODEX_HOME: copying %s: %w", src, err)
			}
		}
	}
	for _, name := range homeCopies {
		src := filepath.Join(shared, name)
		if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if refresh {
			_ = os.Remove(filepath.Join(dir, name))
		}
		if err := copyFile(src, filepath.Join(dir, name), 0o600); err != nil {
			return fmt.Errorf("per-run CODEX_HOME: copying %s: %w", src, err)
		}
	}

	cfgPath := filepath.Join(dir, "config.toml")
	if refresh {
		if _, err := os.Stat(filepath.Join(shared, "config.toml")); errors.Is(err, fs.ErrNotExist) {
			_ = os.Remove(cfgPath) // gone from shared: the earlier copy goes too
		}
	}
	base, err := os.ReadFile(cfgPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if len(servers) > 0 {
		if err := checkNoClash(base, servers, filepath.Join(shared, "config.toml")); err != nil {
			return err
		}
	}
	var out bytes.Buffer
	out.Write(base)
	if len(block) > 0 {
		if out.Len() > 0 && !bytes.HasSuffix(base, []byte("\n")) {
			out.WriteByte('\n')
		}
		if out.Len() > 0 {
			out.WriteByte('\n')
		}
		out.Write(block)
	}
	if err := os.WriteFile(cfgPath, out.Bytes(), 0o600); err != nil {
		return err
	}
	if err := os.Chmod(cfgPath, 0o600); err != nil {
		return err
	}
	if len(block) > 0 {
		var check map[string]any
		if _, err := toml.Decode(out.String(), &check); err != nil {
			return fmt.Errorf("per-run CODEX_HOME: %s with the managed MCP servers is not valid TOML: %w", filepath.Join(shared, "config.toml"), err)
		}
	}
	return nil
}

// checkNoClash fails when the shared config.toml already defines an MCP
// server with a managed name (codex would reject the duplicate table).
func checkNoClash(base []byte, servers map[string]config.MCPServer, path string) error {
	if len(base) == 0 {
		return nil
	}
	var doc struct {
		MCPServers map[string]any `toml:"mcp_servers"`
	}
	if _, err := toml.Decode(string(base), &doc); err != nil {
		return nil // codex reports its own file's errors
	}
	var clash []string
	for name := range servers {
		if _, ok := doc.MCPServers[name]; ok {
			clash = append(clash, name)
		}
	}
	if len(clash) > 0 {
		sort.Strings(clash)
		return fmt.Errorf("MCP server %s is defined both in %s and in tandem's config: rename or remove one", strings.Join(clash, ", "), path)
	}
	return nil
}

// ManagedMCPBlock encodes servers as codex config.toml text: a comment
// line, then one [mcp_servers.NAME] table per server in name order, keys
// in codex's names (command/args/env/cwd for stdio, url/
// bearer_token_env_var/http_headers/env_http_headers for http, and the
// shared timeouts and tool filters). It returns nil for no servers.
// Errors: a name outside [A-Za-z0-9_-], or a null, empty or inconsistent
// server (see config.ValidateMCPServer), naming the server and the key.
// The SSH transport sends the same block to a remote CODEX_HOME.
func ManagedMCPBlock(servers map[string]config.MCPServer) ([]byte, error) {
	if len(servers) == 0 {
		return nil, nil
	}
	var b bytes.Buffer
	b.WriteString("# MCP servers managed by tandem for this run.\n")
	for i, n := range slices.Sorted(maps.Keys(servers)) {
		s := servers[n]
		if key, err := config.ValidateMCPServer(n, &s); err != nil {
			where := "mcp_servers." + n
			if key != "" {
				where += "." + key
			}
			return nil, fmt.Errorf("MCP server %q (%s): %w", n, where, err)
		}
		var one bytes.Buffer
		enc := toml.NewEncoder(&one)
		enc.Indent = ""
		if err := enc.Encode(map[string]map[string]config.MCPServer{"mcp_servers": {n: s}}); err != nil {
			return nil, fmt.Errorf("MCP server %q: %w", n, err)
		}
		// The encoder opens with the parent table; leave it out so the
		// block can follow a config.toml that has [mcp_servers] itself.
		text, ok := bytes.CutPrefix(one.Bytes(), []byte("[mcp_servers]\n"))
		if !ok {
			return nil, fmt.Errorf("MCP server %q: unexpected encoding %q", n, one.String())
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.Write(text)
	}
	return b.Bytes(), nil
}

// removeStaleHomes removes run-PID-* directories whose process is gone.
func removeStaleHomes(homes string) {
	entries, err := os.ReadDir(homes)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "run-")
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() || !procfs.Gone(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(homes, e.Name()))
	}
}

// maxCopyBytes caps one file copied into a per-run CODEX_HOME (a
// config, instructions, a skill's files): more is an error, not a disk
// filled from a link to /dev/zero.
const maxCopyBytes = 64 << 20

// copyFile copies one regular file (src's link followed) of at most
// maxCopyBytes with the given mode. Anything else — a FIFO, whose open
// would wait for a writer forever, a device, a larger file — is an
// error naming src (config.OpenSmallFile).
func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := config.OpenSmallFile(src, maxCopyBytes)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// copyTree copies a file, or a directory recursively (regular files and
// directories only; files 0600, directories 0700).
func copyTree(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return copyFile(src, dst, 0o600)
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o700)
		case d.Type().IsRegular():
			return copyFile(p, target, 0o600)
		}
		return nil
	})
}

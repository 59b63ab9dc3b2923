package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// This file holds what tandem sends about the workspace-write sandbox:
// the user's own settings (`[sandbox_workspace_write]` of codex's
// config.toml, read with `config/read`), merged with --add-dir, never
// replacing them.
//
// Checked on 0.169.0 and 0.171.0: thread/start with `sandbox:
// "workspace-write"` applies the config's writable roots by itself; a
// `config` override of sandbox_workspace_write.writable_roots replaces
// them (so tandem sends the union); and a turn/start sandboxPolicy sets
// networkAccess, excludeTmpdirEnvVar and excludeSlashTmp as given (so the
// defaults would undo a user's exclude_slash_tmp = true).

// WorkspaceWrite are the workspace-write sandbox settings: codex's
// `[sandbox_workspace_write]` table as `config/read` returns it.
// WritableRoots are absolute paths on the app-server's machine, beyond
// the workspace itself.
type WorkspaceWrite struct {
	WritableRoots       []string `json:"writable_roots"`
	NetworkAccess       bool     `json:"network_access"`
	ExcludeTmpdirEnvVar bool     `json:"exclude_tmpdir_env_var"`
	ExcludeSlashTmp     bool     `json:"exclude_slash_tmp"`
}

// WithRoots returns w with dirs added to its writable roots: the
// config's first, each path once.
func (w WorkspaceWrite) WithRoots(dirs []string) WorkspaceWrite {
	roots := slices.Clone(w.WritableRoots)
	for _, d := range dirs {
		if d != "" && !slices.Contains(roots, d) {
			roots = append(roots, d)
		}
	}
	w.WritableRoots = roots
	return w
}

// Policy returns w as the protocol's `SandboxPolicy` of type
// workspaceWrite (turn/start's sandboxPolicy).
func (w WorkspaceWrite) Policy() json.RawMessage {
	roots := w.WritableRoots
	if roots == nil {
		roots = []string{}
	}
	b, _ := json.Marshal(struct {
		Type                string   `json:"type"`
		WritableRoots       []string `json:"writableRoots"`
		NetworkAccess       bool     `json:"networkAccess"`
		ExcludeTmpdirEnvVar bool     `json:"excludeTmpdirEnvVar"`
		ExcludeSlashTmp     bool     `json:"excludeSlashTmp"`
	}{"workspaceWrite", roots, w.NetworkAccess, w.ExcludeTmpdirEnvVar, w.ExcludeSlashTmp})
	return b
}

// ConfigReadParams are the params of `config/read`: Cwd, when set, also
// applies that directory's project config (.codex/config.toml).
type ConfigReadParams struct {
	Cwd           string `json:"cwd,omitempty"`
	IncludeLayers bool   `json:"includeLayers"`
}

// configReadResponse is the part of `config/read`'s result tandem reads.
type configReadResponse struct {
	Config struct {
		SandboxWorkspaceWrite *WorkspaceWrite `json:"sandbox_workspace_write"`
	} `json:"config"`
}

// WorkspaceWrite returns the effective workspace-write settings of the
// session's workspace with the session's AddDirs added to the writable
// roots, read with `config/read` once per session: not before every
// turn/start (a round trip, and one more request a stuck server would
// leave unanswered); an edit of config.toml applies from the next
// session (a restart), as the thread's own settings do. A config without
// the table gives the defaults (no extra roots, no network, /tmp
// writable).
func (s *Session) WorkspaceWrite(ctx context.Context) (WorkspaceWrite, error) {
	s.mu.Lock()
	w := s.workspaceWrite
	s.mu.Unlock()
	if w != nil {
		return *w, nil
	}
	r, err := ConfigRead.Call(ctx, s.conn, ConfigReadParams{Cwd: s.opts.Cwd})
	if err != nil {
		return WorkspaceWrite{}, fmt.Errorf("%s: %w", ConfigRead.Name(), err)
	}
	var read WorkspaceWrite
	if r.Config.SandboxWorkspaceWrite != nil {
		read = *r.Config.SandboxWorkspaceWrite
	}
	read = read.WithRoots(s.opts.AddDirs)
	s.mu.Lock()
	s.workspaceWrite = &read
	s.mu.Unlock()
	return read, nil
}

// threadConfig is the `config` override sent with thread/start,
// thread/resume and thread/fork: nil without AddDirs (the config applies
// as it is); else the writable roots of WorkspaceWrite, the config's and
// the added ones, since the override replaces the config's list.
func (s *Session) threadConfig(ctx context.Context) (map[string]any, error) {
	if len(s.opts.AddDirs) == 0 {
		return nil, nil
	}
	w, err := s.WorkspaceWrite(ctx)
	if err != nil {
		return nil, fmt.Errorf("merging --add-dir with the config's writable_roots: %w", err)
	}
	return map[string]any{"sandbox_workspace_write.writable_roots": w.WritableRoots}, nil
}

// sandboxPolicy is turn/start's sandboxPolicy for a -s mode ("" keeps the
// thread's): workspace-write carries the config's settings and AddDirs
// (WorkspaceWrite), the others are fixed (SandboxPolicyFor).
func (s *Session) sandboxPolicy(ctx context.Context, mode string) (json.RawMessage, error) {
	if mode != "workspace-write" {
		return SandboxPolicyFor(mode)
	}
	w, err := s.WorkspaceWrite(ctx)
	if err != nil {
		return nil, err
	}
	return w.Policy(), nil
}

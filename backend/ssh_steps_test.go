package backend_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tandem/backend"
)

// slowLoginShell makes the remote login shell of srv's sessions (bash
// -l reads ~/.bash_profile) wait for the file it returns to exist, or
// sleep for secs when secs > 0.
func slowLoginShell(t *testing.T, home string, secs int) string {
	t.Helper()
	release := filepath.Join(home, "release-login")
	profile := "while [ ! -e " + release + " ]; do sleep 0.2; done\n"
	if secs > 0 {
		profile = "sleep " + strconv.Itoa(secs) + "\n"
	}
	if err := os.WriteFile(filepath.Join(home, ".bash_profile"), []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.WriteFile(release, nil, 0o600) })
	return release
}

// A remote login shell that does not finish is named as the step that
// did not answer — ssh did connect — not as "could not connect".
func TestSSHSlowLoginShellIsNamed(t *testing.T) {
	e := newRemoteEnv(t)
	srv := e.sshd(t)
	slowLoginShell(t, srv.Home, 0)
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
	defer cancel()
	_, err := backend.StartSession(ctx, backend.SessionOptions{Transport: e.transport(srv), Sink: func(any) {},
		InitTimeout: backend.Patience, LoginShellTimeout: 2 * time.Second})
	t.Log(err)
	var st *backend.StartTimeout
	if !errors.As(err, &st) || st.Step != backend.StepLoginShell {
		t.Fatalf("error = %v, want a StartTimeout at the login shell", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "ssh 127.0.0.1: connected, but the remote login shell did not finish within 2s") || strings.Contains(msg, "could not connect") {
		t.Fatalf("error = %q", msg)
	}
}

// fakeCodex answers initialize at once and then reads until its stdin
// closes: the remote codex of a test about the steps before it.
const fakeCodex = `#!/bin/sh
IFS= read -r l
id=$(printf '%s' "$l" | sed 's/.*"id":\([0-9]*\).*/\1/')
printf '{"jsonrpc":"2.0","id":%s,"result":{"userAgent":"fake/0.169.0"}}\n' "$id"
cat >/dev/null
`

// A login shell slower than the initialize timeout is waited for: the
// login shell has LoginShellPatience, the other steps InitTimeout each.
func TestSSHSlowLoginShellIsWaitedFor(t *testing.T) {
	e := newRemoteEnv(t)
	srv := e.sshd(t)
	slowLoginShell(t, srv.Home, 8) // longer than InitTimeout below
	codex := filepath.Join(t.TempDir(), "codex")
	if err := os.WriteFile(codex, []byte(fakeCodex), 0o755); err != nil {
		t.Fatal(err)
	}
	tr := e.transport(srv)
	tr.RemoteCodex = codex
	ctx, cancel := context.WithTimeout(context.Background(), backend.Patience)
	defer cancel()
	s, err := backend.StartSession(ctx, backend.SessionOptions{Transport: tr, Sink: func(any) {}, InitTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("a slow login shell failed the start: %v", err)
	}
	_ = s.Close()
}

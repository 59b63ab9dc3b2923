package sessions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// searchOrHang runs the search, failing (not hanging) when it does not
// end: a deadline against a hang only.
func searchOrHang(t *testing.T, root string, o SearchOptions) []RolloutHit {
	t.Helper()
	type result struct {
		hits []RolloutHit
		err  error
	}
	done := make(chan result, 1)
	go func() {
		h, err := SearchRollouts(context.Background(), root, o)
		done <- result{h, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.hits
	case <-time.After(2 * time.Minute):
		t.Fatal("the search never ended")
		return nil
	}
}

// A FIFO or a link to a device named as a rollout is not read: opening
// a FIFO blocks for ever, /dev/zero never ends.
func TestSearchRolloutsSkipsWhatIsNoFile(t *testing.T) {
	root := t.TempDir()
	(&rl{}).meta(uuid(1), "/w").turn("t1").prompt("find the needle").write(t, root, uuid(1), time.Now())
	dir := filepath.Join(root, "2026", "12", "02")
	if err := syscall.Mkfifo(filepath.Join(dir, "rollout-2026-12-02T12-55-40-"+uuid(2)+".jsonl"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "rollout-2026-12-02T12-55-40-"+uuid(3)+".jsonl")); err != nil {
		t.Fatal(err)
	}
	if hits := searchOrHang(t, root, SearchOptions{Query: "needle"}); len(hits) != 1 || hits[0].ThreadID != uuid(1) {
		t.Fatalf("hits %+v", hits)
	}
}

// CODEX_HOME/sessions may be a link to another folder: it is searched.
func TestSearchRolloutsLinkedRoot(t *testing.T) {
	real := t.TempDir()
	(&rl{}).meta(uuid(1), "/w").turn("t1").prompt("find the needle").write(t, real, uuid(1), time.Now())
	root := filepath.Join(t.TempDir(), "sessions")
	if err := os.Symlink(real, root); err != nil {
		t.Fatal(err)
	}
	if hits := searchOrHang(t, root, SearchOptions{Query: "needle"}); len(hits) != 1 || hits[0].ThreadID != uuid(1) {
		t.Fatalf("hits %+v", hits)
	}
}

// A file name or an item type holding a terminal's escapes never puts
// them in a hit: the id is a UUID (from the name, else the session_meta,
// else the file is no thread), the kind a word.
func TestSearchRolloutsHostileNames(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "2026", "12", "02")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	put := func(name string, r *rl) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(r.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("rollout-2026-12-02T12-55-41-\x1b]0;PWN\a\x1b[31mRED-aaaaaaaaaaaaaaaaaaaaaaaa.jsonl",
		(&rl{}).meta(uuid(1), "/w").turn("t1").prompt("needle one"))
	put("rollout-2026-12-02T12-55-42-\x1b]0;PWN\a\x1b[31mRED-bbbbbbbbbbbbbbbbbbbbbbbb.jsonl",
		(&rl{}).meta("\x1b]0;PWN\a", "/w").turn("t1").prompt("needle two"))
	(&rl{}).meta(uuid(3), "/w").turn("t1").item(obj{"type", "\x1b[2J\x1b]0;KIND\a", "text", "needle three"}).write(t, root, uuid(3), time.Now())
	hits := searchOrHang(t, root, SearchOptions{Query: "needle"})
	got := map[string]string{}
	for _, h := range hits {
		got[h.ThreadID] = h.Kind
	}
	if len(hits) != 2 || got[uuid(1)] != "prompt" || got[uuid(3)] != "2j0kind" {
		t.Fatalf("hits %+v", hits)
	}
}

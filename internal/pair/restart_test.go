package pair

import (
	"sync"
	"sync/atomic"
	"testing"

	"tandem/model"
)

// TestDriversAskingAtOnceShareOneRestart: two drivers whose F5 comes
// while a restart runs get its outcome; the app-server is restarted
// once, named for the first who asked; a later ask restarts again.
func TestDriversAskingAtOnceShareOneRestart(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	var by string
	ps := New(Options{Restart: func(who, _ string) (model.RestartInfo, error) {
		calls.Add(1)
		by = who
		<-release
		return model.RestartInfo{ThreadID: "t1"}, nil
	}})
	var wg sync.WaitGroup
	infos := make([]model.RestartInfo, 3)
	wg.Add(1)
	go func() { defer wg.Done(); infos[0], _ = ps.restart("alice", "") }()
	if !waitFor(func() bool { return calls.Load() == 1 }) {
		t.Fatal("the first restart never ran")
	}
	for i, who := range []string{"bob", "carol"} {
		wg.Add(1)
		go func() { defer wg.Done(); infos[i+1], _ = ps.restart(who, "") }()
	}
	if !waitFor(func() bool {
		ps.mu.Lock()
		defer ps.mu.Unlock()
		return ps.restarting != nil && ps.restarting.joined == 2
	}) {
		t.Fatal("the other drivers never joined the restart under way")
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 || by != "alice" {
		t.Fatalf("%d restarts (the last by %q), want one by alice", n, by)
	}
	for i, info := range infos {
		if info.ThreadID != "t1" {
			t.Errorf("driver %d got %+v", i, info)
		}
	}
	if _, err := ps.restart("dave", ""); err != nil || calls.Load() != 2 {
		t.Fatalf("a later restart: %v, %d calls", err, calls.Load())
	}
}

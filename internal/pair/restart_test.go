package pair

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"tandem/internal/deck"
	"tandem/internal/hub"
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
		return ps.restarting[FirstLane] != nil && ps.restarting[FirstLane].joined == 2
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

// Each lane's F5 is its own: a driver's model of a lane past the first
// restarts through Options.RestartLane, named for the driver and the
// lane; a watcher's model has no restart, and none without the option.
func TestEachLaneRestartsItself(t *testing.T) {
	var got []string
	laneFn := func(id deck.LaneID, who, _ string) (model.RestartInfo, error) {
		got = append(got, fmt.Sprintf("%d %s", id, who))
		return model.RestartInfo{ThreadID: fmt.Sprint("t", id)}, nil
	}
	first := func(who, _ string) (model.RestartInfo, error) {
		got = append(got, "0 "+who)
		return model.RestartInfo{ThreadID: "t0"}, nil
	}
	for _, tc := range []struct {
		name string
		opts Options
		id   deck.LaneID
		role hub.Role
		want string // "" no restart
	}{
		{"a driver in lane 2", Options{Restart: first, RestartLane: laneFn}, 2, hub.Driver, "2 alice"},
		{"a driver in the first lane", Options{Restart: first, RestartLane: laneFn}, FirstLane, hub.Driver, "0 alice"},
		{"a watcher in lane 2", Options{Restart: first, RestartLane: laneFn}, 2, hub.Watcher, ""},
		{"no RestartLane", Options{Restart: first}, 2, hub.Driver, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			restart := New(tc.opts).restartFor(tc.id, "alice", tc.role)
			if (restart == nil) != (tc.want == "") {
				t.Fatalf("restart is nil: %v, want a restart %q", restart == nil, tc.want)
			}
			if restart == nil {
				return
			}
			info, err := restart("")
			if err != nil || len(got) != 1 || got[0] != tc.want || info.ThreadID != fmt.Sprint("t", tc.id) {
				t.Errorf("restart = %+v, %v; calls %q, want %q", info, err, got, tc.want)
			}
		})
	}
}

package act

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tandem/backend"
)

// gone is a backend.Client whose every thread/resume fails (the thread
// no longer exists) and whose thread/start is counted.
type gone struct {
	backend.Client
	started int
}

func (g *gone) ResumeThread(context.Context, string) (backend.ThreadResponse, error) {
	return backend.ThreadResponse{}, errors.New("no rollout found for thread id t-gone")
}

func (g *gone) StartThread(context.Context) (backend.ThreadResponse, error) {
	g.started++
	return backend.ThreadResponse{Thread: backend.Thread{ID: "t-new"}}, nil
}

// A resume that fails starts a new thread when none is open (tandem
// resume ID); with a thread open (Stay: a /search or /resume choice of a
// thread gone since it was listed) it starts nothing, the open thread
// stays, and the result's error says why.
func TestResumeThatFails(t *testing.T) {
	for _, stay := range []bool{false, true} {
		g := &gone{}
		msg := Resume{ID: "t-gone", Stay: stay}.run(context.Background(), g).(ThreadSwitched)
		switch {
		case stay && (g.started != 0 || msg.Err == nil || !strings.Contains(msg.Err.Error(), "no rollout found")):
			t.Errorf("stay: started %d, err %v", g.started, msg.Err)
		case !stay && (g.started != 1 || msg.Err != nil || msg.Response.Thread.ID != "t-new" || !strings.Contains(msg.Notice, "started a new thread")):
			t.Errorf("no thread open: started %d, %+v", g.started, msg)
		}
	}
}

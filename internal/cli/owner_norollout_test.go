package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

// fakeOpener answers a restart's thread/resume with rejoinErr and its
// thread/start with a new thread, and records what was asked.
type fakeOpener struct {
	rejoinErr error
	calls     []string
}

func (f *fakeOpener) RejoinThread(_ context.Context, id string) (backend.ThreadResponse, error) {
	f.calls = append(f.calls, "resume "+id)
	if f.rejoinErr != nil {
		return backend.ThreadResponse{}, f.rejoinErr
	}
	var r backend.ThreadResponse
	r.Thread.ID = id
	return r, nil
}

func (f *fakeOpener) StartThread(context.Context) (backend.ThreadResponse, error) {
	f.calls = append(f.calls, "start")
	var r backend.ThreadResponse
	r.Thread.ID = "new-thread"
	return r, nil
}

// A restart whose thread has no rollout (no turn yet) starts a new
// thread; any other failure of thread/resume stays a failure.
func TestRejoinOrStartStartsANewThreadWithoutARollout(t *testing.T) {
	noRollout := fmt.Errorf("thread/resume: %w", &backend.RPCError{Code: backend.CodeInvalidRequest, Message: "no rollout found for thread id old"})
	other := fmt.Errorf("thread/resume: %w", &backend.RPCError{Code: backend.CodeInternalError, Message: "disk on fire"})
	for _, tc := range []struct {
		name      string
		rejoinErr error
		thread    string
		fresh     bool
		err       error
		calls     string
	}{
		{"resumed", nil, "old", false, nil, "resume old"},
		{"no rollout", noRollout, "new-thread", true, nil, "resume old|start"},
		{"another refusal", other, "", false, other, "resume old"},
		{"closed", backend.ErrClosed, "", false, backend.ErrClosed, "resume old"},
	} {
		f := &fakeOpener{rejoinErr: tc.rejoinErr}
		resp, fresh, err := rejoinOrStart(context.Background(), f, "old")
		if resp.Thread.ID != tc.thread || fresh != tc.fresh || !errors.Is(err, tc.err) {
			t.Errorf("%s: rejoinOrStart = %q, fresh %v, err %v; want %q, %v, %v", tc.name, resp.Thread.ID, fresh, err, tc.thread, tc.fresh, tc.err)
		}
		if got := strings.Join(f.calls, "|"); got != tc.calls {
			t.Errorf("%s: calls %q; want %q", tc.name, got, tc.calls)
		}
	}
}

// The app-server is killed (SIGKILL, its whole process group) before the
// fresh thread's first turn: codex wrote no rollout of it, so F5 cannot
// resume it. The restart starts a new thread, says so, and the session
// goes on: a prompt typed then is answered.
func TestF5AfterKillBeforeFirstTurnStartsANewThread(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	t.Parallel()
	env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Answer on the new thread: kappa.")}})
	lt := startTandem(t, env)
	lt.waitReady()
	old := lt.appServerPid()
	if err := syscall.Kill(-old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	lt.waitScreen("F5 or /restart", patience)
	assertPidGone(t, old, "the killed app-server")
	lt.keys(keyF5)
	lt.waitScreen("the thread had no turn yet — a new thread was started", patience)
	if strings.Contains(e2e.Squash(lt.screen()), e2e.Squash("restart failed")) {
		t.Errorf("the restart failed:\n%s", lt.screen())
	}
	lt.keys("hello again\r")
	lt.waitScreen("Answer on the new thread: kappa.", patience)
	reqs := env.Mock.Requests()
	if len(reqs) == 0 || reqs[len(reqs)-1].LastUserText() != "hello again" {
		t.Errorf("the model was not asked the prompt: %d requests", len(reqs))
	}
	lt.keys(keyCtrlD)
	lt.waitExit(patience)
}

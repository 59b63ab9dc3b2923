package turn

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

func TestReattachDelay(t *testing.T) {
	tests := []struct {
		attempt int
		want    time.Duration
	}{{-1, time.Second}, {0, time.Second}, {1, 2 * time.Second}, {2, 4 * time.Second}, {3, 8 * time.Second}, {4, 15 * time.Second}, {5, 30 * time.Second}, {40, 30 * time.Second}}
	for _, tt := range tests {
		if got := reattachDelay(tt.attempt); got != tt.want {
			t.Errorf("reattachDelay(%d) = %v; want %v", tt.attempt, got, tt.want)
		}
	}
}

// restartCmd is the restart the turn machine asked for, run: the
// command in a RefuseRequests (a restart refuses first) or its own.
func restartCmd(t *testing.T, r *rig, is []act.Intent) tea.Cmd {
	t.Helper()
	if rr := all[act.RefuseRequests](is); len(rr) == 1 {
		return rr[0].Then
	}
	if len(r.cmds()) != 1 {
		t.Fatalf("no restart asked for: %v, %d commands", kinds(is), len(r.cmds()))
	}
	return r.cmds()[0]
}

// The server dies mid-turn: the turn ends, requests are dropped, the
// banner says how to get back; a restart refuses the requests first,
// and its success says so and sends what was queued; a failure says
// why.
func TestServerDeathAndRestart(t *testing.T) {
	var last []string
	fail := errors.New("exec: codex: not found")
	var next error
	r := ready(t, act.Role{}, Options{Restart: func(l string) (RestartInfo, error) {
		last = append(last, l)
		return RestartInfo{ThreadID: "t-first"}, next
	}})
	r.tt.OnEvent(backend.TurnStartedEvent{})
	r.tt.Apply(act.Queue{Raw: "queued"})
	r.take()
	r.tt.OnEvent(backend.ServerExitedEvent{Status: "killed by signal 9", Stderr: []string{"token=sk-abcdefghijklmnopqrstuvwxyz0123", "", "\x1b[2mlast\x1b[0m words"}})
	is := r.take()
	one[act.DropRequests](t, is)
	b := one[act.Banner](t, is)
	if r.tt.Running() || !r.tt.Dead() || r.tt.Client() != nil || r.tt.Ready() ||
		!strings.Contains(b.Text, "during the turn — press F5") || !slices.Contains(b.Detail, "last words") {
		t.Fatalf("after the death: running %v dead %v, banner %+v", r.tt.Running(), r.tt.Dead(), b)
	}
	for _, fails := range []bool{true, false} {
		r.w.lastTurn = "turn-9"
		next = nil
		if fails {
			next = fail
		}
		r.tt.Restart()
		is = r.take()
		cmd := restartCmd(t, r, is)
		if len(all[act.RefuseRequests](is)) != 1 || !strings.Contains(notice(is), "restarting codex app-server") {
			t.Fatalf("restart: %v, notice %q", kinds(is), notice(is))
		}
		r.tt.Restart() // one at a time
		if len(r.take()) != 0 {
			t.Fatal("a second restart while one runs")
		}
		msg := cmd()
		if !fails {
			r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t-first"}) // sent by the hook before it returns
			r.take()
		}
		r.tt.Update(msg.(Msg))
		is = r.take()
		if fails {
			if !r.tt.Dead() || !slices.ContainsFunc(banners(is), func(s string) bool { return strings.HasPrefix(s, "restart failed: exec: codex: not found") }) {
				t.Fatalf("failed restart: dead %v, banners %q", r.tt.Dead(), banners(is))
			}
			continue
		}
		if r.tt.Dead() || !slices.ContainsFunc(banners(is), func(s string) bool {
			return strings.HasPrefix(s, "codex app-server restarted — resumed thread t-first")
		}) {
			t.Fatalf("restart: dead %v, banners %q", r.tt.Dead(), banners(is))
		}
		if st := call[act.StartTurn](t, is); st.Input.Text != "queued" {
			t.Errorf("after the restart sent %+v", st.Input)
		}
	}
	if !slices.Equal(last, []string{"turn-9", "turn-9"}) {
		t.Errorf("restarts read back to %q", last)
	}
	// A watcher restarts nothing.
	w := ready(t, act.NewRole(true, true, false), Options{Restart: func(string) (RestartInfo, error) { return RestartInfo{}, nil }})
	w.tt.Restart()
	if is := w.take(); notice(is) != "/restart is not available here" || len(all[act.RefuseRequests](is)) != 0 {
		t.Errorf("a watcher's restart: %v", kinds(is))
	}
}

// A durable session's lost link: the turn, the draft and the queue stay,
// gaps are marked, requests are dropped unanswered; attempts follow the
// backoff, a stale scheduled attempt does nothing and F5 tries at once;
// the re-attach merges the history and sends what was queued.
func TestScheduledReattach(t *testing.T) {
	var runs int
	fails := 2
	r := newRig(t, act.Role{}, Options{Restart: func(string) (RestartInfo, error) {
		runs++
		if fails--; fails >= 0 {
			return RestartInfo{}, errors.New("dial unix /h/control.sock: connection refused")
		}
		return RestartInfo{ThreadID: "t-first"}, nil
	}})
	r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t-first", Durable: true, Host: "devbox"})
	r.c.turn = "turn-1"
	r.tt.OnEvent(backend.TurnStartedEvent{})
	r.tt.Apply(act.Queue{Raw: "queued"})
	r.take()
	r.tt.OnEvent(backend.ServerExitedEvent{Status: "ws: connection lost", Detached: true})
	is := r.take()
	one[act.DropRequests](t, is)
	one[act.MarkGaps](t, is)
	if !r.tt.Running() || !r.tt.Detached() || !r.tt.Dead() || len(r.tt.Queued()) != 1 || len(r.timers) != 1 || r.timers[0].d != time.Second {
		t.Fatalf("after the drop: running %v detached %v queued %q timers %v", r.tt.Running(), r.tt.Detached(), r.tt.Queued(), r.timers)
	}
	if n := r.tt.DetachNotice(); n != "disconnected — the agent keeps working on devbox · retry in 1s (F5 now)" {
		t.Errorf("notice %q", n)
	}
	stale := r.timers[0]
	r.fire() // the scheduled attempt
	r.tt.Update(r.cmds()[0]().(Msg))
	if is := r.take(); runs != 1 || len(r.timers) != 1 || r.timers[0].d != 2*time.Second ||
		r.tt.DetachNotice() != "disconnected — the agent keeps working on devbox · retry 2 in 2s (F5 now)" ||
		!slices.Contains(banners(is), "re-attach failed: dial unix /h/control.sock: connection refused") {
		t.Fatalf("after one failure: runs %d timers %v notice %q banners %q", runs, r.timers, r.tt.DetachNotice(), banners(is))
	}
	r.tt.Update(stale.f(r.now).(Msg)) // stale
	if len(r.cmds()) != 0 || runs != 1 {
		t.Fatal("a stale scheduled attempt ran")
	}
	r.tt.Restart() // F5: at once, and fails again, the same way (told once)
	r.tt.Update(r.cmds()[0]().(Msg))
	if is := r.take(); runs != 2 || r.timers[len(r.timers)-1].d != 4*time.Second || len(banners(is)) != 0 {
		t.Fatalf("after F5's failure: runs %d timers %v banners %q", runs, r.timers, banners(is))
	}
	r.fire()
	done := r.cmds()[0]()
	r.take()
	history := []backend.Turn{{ID: "turn-1", Status: backend.TurnCompleted}}
	r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t-first", Durable: true, Host: "devbox", Reattached: true, History: history})
	is = r.take()
	if mh := one[act.MergeHistory](t, is); mh.Dropped != "turn-1" || len(mh.Turns) != 1 {
		t.Errorf("merge %+v", mh)
	}
	if r.tt.Running() || !slices.Contains(banners(is), "the turn finished while tandem was away") {
		t.Errorf("the turn that finished while away: running %v banners %q", r.tt.Running(), banners(is))
	}
	r.tt.Update(done.(Msg))
	is = r.take()
	if r.tt.Detached() || r.tt.Dead() || !slices.Contains(banners(is), "re-attached to the codex daemon on devbox — thread t-first; what happened meanwhile is shown above") {
		t.Fatalf("after the re-attach: detached %v banners %q", r.tt.Detached(), banners(is))
	}
	if st := call[act.StartTurn](t, is); st.Input.Text != "queued" {
		t.Errorf("sent %+v", st.Input)
	}
}

// A re-attach to a turn still running keeps it running, its gaps open.
func TestReattachToARunningTurn(t *testing.T) {
	r := newRig(t, act.Role{}, Options{Restart: func(string) (RestartInfo, error) { return RestartInfo{}, nil }})
	r.tt.OnReady(SessionReady{Client: r.c, Durable: true})
	r.tt.OnEvent(backend.ServerExitedEvent{Detached: true})
	r.take()
	r.tt.OnReady(SessionReady{Client: r.c, Durable: true, Reattached: true, History: []backend.Turn{{ID: "t9", Status: backend.TurnInProgress}}})
	is := r.take()
	if !r.tt.Running() || len(all[act.EndGaps](is)) != 0 || len(all[act.StartFrames](is)) != 1 {
		t.Fatalf("running %v: %v", r.tt.Running(), kinds(is))
	}
}

// A failed start says why, offers F5 when a restart is possible, and
// names the command line's prompt kept.
func TestSessionFailed(t *testing.T) {
	r := newRig(t, act.Role{}, Options{Prompt: "fix the build", Restart: func(string) (RestartInfo, error) { return RestartInfo{}, nil }})
	r.tt.OnFailed(errors.New("initialize: token=abc123xyz rejected"), "")
	is := r.take()
	b := banners(is)
	if len(b) != 1 || !strings.Contains(b[0], "press F5 or type /restart to try again") || strings.Contains(b[0], "abc123xyz") ||
		!strings.Contains(b[0], "“fix the build” is kept") || notice(is) != "F5 or /restart to try again" || !r.tt.Dead() {
		t.Fatalf("banners %q notice %q", b, notice(is))
	}
	n := newRig(t, act.Role{}, Options{})
	n.tt.OnFailed(errors.New("boom"), "")
	if b := banners(n.take()); len(b) != 1 || b[0] != "could not start codex app-server: boom" {
		t.Errorf("without a restart: %q", b)
	}
	// The command center's new thread names what failed: the thread.
	w := newRig(t, act.Role{}, Options{})
	w.tt.OnFailed(errors.New("/src is not in a git checkout"), "the thread")
	if b := banners(w.take()); len(b) != 1 || b[0] != "could not start the thread: /src is not in a git checkout" {
		t.Errorf("a lane's thread: %q", b)
	}
}

// A turn running past TurnTimeout gets one offer to interrupt.
func TestTurnTimeout(t *testing.T) {
	r := ready(t, act.Role{}, Options{TurnTimeout: 30 * time.Minute})
	r.tt.OnEvent(backend.TurnStartedEvent{})
	r.take()
	r.now = r.now.Add(29 * time.Minute)
	r.tt.CheckTimeout()
	if is := r.take(); len(is) != 0 {
		t.Fatalf("offered before the timeout: %v", kinds(is))
	}
	r.now = r.now.Add(2 * time.Minute)
	r.tt.CheckTimeout()
	r.tt.CheckTimeout()
	is := r.take()
	if b := banners(is); len(b) != 1 || !strings.Contains(b[0], "over 30m0s — press esc to interrupt it") || notice(is) != "turn running for over 30m0s — esc to interrupt" {
		t.Fatalf("banners %q notice %q", b, notice(is))
	}
}

// A -32001 retry says "server busy" until it is done; a server-wide
// warning is shown once however often a restarted server repeats it.
func TestRetryAndWarnings(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.OnRetry(backend.RetryNotice{Method: "turn/start", Attempt: 1, Tries: 5, Delay: 300 * time.Millisecond})
	if n := notice(r.take()); n != "server busy, retrying turn/start in 0.3s (2/5)…" {
		t.Errorf("notice %q", n)
	}
	r.tt.OnRetry(backend.RetryNotice{Done: true})
	if c := one[act.ClearNotice](t, r.take()); !c.Matches(act.NoticeBusy) || c.Matches(act.NoticeInfo) {
		t.Errorf("clear %+v", c)
	}
	th := "t1"
	for _, ev := range []backend.WarningEvent{{Message: "bubblewrap"}, {Message: "bubblewrap"}, {ThreadID: &th, Message: "meta"}, {ThreadID: &th, Message: "meta"}} {
		r.tt.OnEvent(ev)
	}
	if b := banners(r.take()); !slices.Equal(b, []string{"bubblewrap", "meta", "meta"}) {
		t.Errorf("warnings %q", b)
	}
}

// What a quit cut short: a running turn, requests waiting (refused by
// the shutdown); nothing on the daemon, where both go on, or for a guest.
func TestQuitNote(t *testing.T) {
	cases := []struct {
		name                     string
		running, durable, shared bool
		pending                  int
		want                     string
	}{
		{name: "idle"},
		{name: "mid-turn", running: true, want: "quit mid-turn: the turn stops with the app-server, where it is above"},
		{name: "an approval up", running: true, pending: 1, want: "quit mid-turn: the request waiting for you is refused (never accepted), and the turn stops with the app-server"},
		{name: "two waiting", pending: 2, want: "quit: the 2 requests waiting for you are refused (never accepted)"},
		{name: "the daemon", running: true, pending: 1, durable: true},
		{name: "a guest", running: true, shared: true},
	}
	for _, c := range cases {
		role := act.Role{}
		if c.shared {
			role = act.NewRole(false, true, true)
		}
		r := newRig(t, role, Options{})
		r.tt.OnReady(SessionReady{Client: r.c, Durable: c.durable})
		if c.running {
			r.tt.OnEvent(backend.TurnStartedEvent{})
		}
		if got := r.tt.QuitNote(c.pending); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := newRig(t, act.Role{}, Options{}).tt.QuitNote(1); got != "" {
		t.Errorf("without a client: %q", got)
	}
}

// /stop interrupts the running turn, then leaves; a failed interrupt
// says why and stays; with no turn running it only leaves.
func TestStop(t *testing.T) {
	r := ready(t, act.Role{}, Options{})
	r.tt.Apply(act.Stop{})
	one[act.Quit](t, r.take())
	r.tt.OnEvent(backend.TurnStartedEvent{})
	r.take()
	r.tt.Apply(act.Stop{})
	is := r.take()
	if !call[act.Interrupt](t, is).Stop || len(all[act.Quit](is)) != 0 || !strings.Contains(notice(is), "then leaving") {
		t.Fatalf("/stop mid-turn: %v", kinds(is))
	}
	r.tt.Result(act.Interrupted{Stop: true, Err: errors.New("timeout")})
	if is := r.take(); len(all[act.Quit](is)) != 0 || !r.tt.Running() || !slices.Contains(banners(is), "/stop could not interrupt the turn: timeout — tandem stays") {
		t.Fatalf("failed: %v %q", kinds(is), banners(is))
	}
	r.tt.Result(act.Interrupted{Stop: true})
	if is := r.take(); len(all[act.Quit](is)) != 1 || r.tt.Running() || r.tt.QuitNote(0) != "" {
		t.Fatalf("interrupted: %v running %v", kinds(is), r.tt.Running())
	}
}

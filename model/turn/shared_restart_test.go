package turn

import (
	"slices"
	"strings"
	"testing"

	"tandem/backend"
	"tandem/model/act"
)

// A shared session's restart (tandem serve): every viewer that saw the
// server die gets its session back from the hub's ready message, which
// names the driver who restarted it, and sends what it had queued; the
// driver who asked says it once, whether its own restart returns before
// the hub's ready message or after it.
func TestSharedRestartReachesEveryViewer(t *testing.T) {
	restart := func(string) (RestartInfo, error) { return RestartInfo{ThreadID: "t1"}, nil }
	die := func(r *rig) {
		r.tt.OnEvent(backend.TurnStartedEvent{})
		r.tt.Apply(act.Queue{Raw: "queued"})
		r.tt.OnEvent(backend.ServerExitedEvent{Status: "killed by signal 9"})
		r.take()
		if !r.tt.Dead() {
			t.Fatal("the server's death was not seen")
		}
	}
	restarted := func(is []act.Intent) []string {
		var out []string
		for _, b := range banners(is) {
			if strings.HasPrefix(b, "codex app-server restarted") {
				out = append(out, b)
			}
		}
		return out
	}

	// Another driver, and a watcher, asked nothing.
	for _, role := range []act.Role{act.SharedDriver(), act.NewRole(true, true, false)} {
		r := ready(t, role, Options{Restart: restart})
		die(r)
		r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t1", RestartedBy: "alice"})
		is := r.take()
		if r.tt.Dead() || !slices.Equal(restarted(is), []string{"codex app-server restarted by alice — the thread continues"}) {
			t.Fatalf("%v: dead %v, banners %q", role, r.tt.Dead(), banners(is))
		}
		if role.Watches() {
			continue
		}
		if st := call[act.StartTurn](t, is); st.Input.Text != "queued" {
			t.Errorf("after the restart sent %+v", st.Input)
		}
	}

	// A live server restarted by another driver (/restart): the line
	// says so too.
	r := ready(t, act.SharedDriver(), Options{Restart: restart})
	r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t1", RestartedBy: "alice"})
	if got := restarted(r.take()); !slices.Equal(got, []string{"codex app-server restarted by alice — the thread continues"}) {
		t.Fatalf("a live server's restart by another driver: %q", got)
	}

	// The driver who asked: its restart's outcome first, then the hub's
	// ready message; and the other order.
	for _, readyFirst := range []bool{false, true} {
		r := ready(t, act.SharedDriver(), Options{Restart: restart})
		die(r)
		r.tt.Restart()
		msg := restartCmd(t, r, r.take())()
		var is []act.Intent
		if readyFirst {
			r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t1", RestartedBy: "bob"})
			is = append(is, r.take()...)
		}
		r.tt.Update(msg.(Msg))
		is = append(is, r.take()...)
		if !readyFirst {
			r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t1", RestartedBy: "bob"})
			is = append(is, r.take()...)
		}
		got := restarted(is)
		if r.tt.Dead() || len(got) != 1 || strings.Contains(got[0], "by bob") {
			t.Fatalf("ready first %v: dead %v, restart banners %q", readyFirst, r.tt.Dead(), got)
		}
		if st := all[act.Request](is); len(st) == 0 {
			t.Fatalf("ready first %v: the queued prompt was not sent: %v", readyFirst, kinds(is))
		}
		if st := call[act.StartTurn](t, is); st.Input.Text != "queued" {
			t.Errorf("ready first %v: after the restart sent %+v", readyFirst, st.Input)
		}
	}
}

// A shared restart that could not resume the thread (no turn yet) and
// started a new one says so to a viewer that asked nothing, and the
// prompt it queued goes out.
func TestSharedRestartWithANewThread(t *testing.T) {
	r := ready(t, act.SharedDriver(), Options{Restart: func(string) (RestartInfo, error) { return RestartInfo{}, nil }})
	r.tt.Apply(act.Queue{Raw: "queued"})
	r.tt.OnEvent(backend.ServerExitedEvent{Status: "killed by signal 9"})
	r.take()
	r.c.thread = "t-new"
	r.tt.OnReady(SessionReady{Client: r.c, ThreadID: "t-new", RestartedBy: "alice", NewThread: true})
	is := r.take()
	if b := strings.Join(banners(is), "|"); !strings.Contains(b, "codex app-server restarted by alice — the thread had no turn yet — a new thread was started") || strings.Contains(b, "continues") {
		t.Errorf("banners %q", b)
	}
	if st := call[act.StartTurn](t, is); st.Input.Text != "queued" {
		t.Errorf("after the restart sent %+v", st.Input)
	}
}

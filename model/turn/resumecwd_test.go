package turn

import (
	"slices"
	"testing"

	"tandem/backend"
	"tandem/model/act"
)

// A thread resumed from another directory says where it runs: in its own
// workspace (resume_cwd "session"), or here although it was started
// elsewhere ("current"); one resumed where it was says nothing more.
func TestResumedElsewhereSaysWhere(t *testing.T) {
	cases := []struct {
		name string
		e    *backend.Elsewhere
		want []string
	}{
		{"same place", nil, []string{"Resumed thread th-1 “job”"}},
		{"its own workspace", &backend.Elsewhere{Mode: backend.ResumeCwdSession, Recorded: "/srv/a", Current: "/srv/b"},
			[]string{"Resumed thread th-1 “job”", "resumed in /srv/a (the thread's workspace)"}},
		{"here", &backend.Elsewhere{Mode: backend.ResumeCwdCurrent, Recorded: "/srv/a", Current: "/srv/b"},
			[]string{"Resumed thread th-1 “job”", `this thread was started in /srv/a; it runs here, in /srv/b (resume_cwd = "current")`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ready(t, act.Role{}, Options{Workspace: "/srv/b"})
			r.take()
			name := "job"
			resp := backend.ThreadResponse{Thread: backend.Thread{ID: "th-1", Name: &name}, Cwd: "/srv/a", Elsewhere: c.e}
			r.tt.Result(act.ThreadSwitched{Response: resp, How: act.HowResumed})
			if b := banners(r.take()); !slices.Equal(b, c.want) {
				t.Errorf("banners %q\nwant %q", b, c.want)
			}
		})
	}
}

package backend

import (
	"context"
	"reflect"
	"testing"
)

// thread/resume and thread/fork send the session's cwd only under
// resume_cwd "current" (codex then runs the thread there); by default
// they send none and codex runs the thread where it was recorded. A
// resume says when that is not the session's directory.
func TestResumeCwd(t *testing.T) {
	cases := []struct {
		name      string
		mode      ResumeCwd
		recorded  string // the thread's cwd, as thread/read and a cwd-less resume give it
		wantCwd   any    // the cwd param sent (nil: none)
		elsewhere *Elsewhere
	}{
		{"default, elsewhere", "", "/a", nil, &Elsewhere{Mode: ResumeCwdSession, Recorded: "/a", Current: "/b"}},
		{"session, elsewhere", ResumeCwdSession, "/a", nil, &Elsewhere{Mode: ResumeCwdSession, Recorded: "/a", Current: "/b"}},
		{"session, here", ResumeCwdSession, "/b/", nil, nil},
		{"current, elsewhere", ResumeCwdCurrent, "/a", "/b", &Elsewhere{Mode: ResumeCwdCurrent, Recorded: "/a", Current: "/b"}},
		{"current, here", ResumeCwdCurrent, "/b", "/b", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, pt, _ := startFakeSession(t)
			s.opts.Cwd, s.opts.ResumeCwd = "/b", c.mode
			rc := make(chan ThreadResponse, 1)
			go func() {
				r, _ := s.ResumeThread(context.Background(), "th-1")
				rc <- r
			}()
			req := pt.next(t)
			if req["method"] == "thread/read" {
				if c.mode != ResumeCwdCurrent {
					t.Fatalf("thread/read under %q", c.mode)
				}
				pt.say(t, `{"id":`+string(mustJSON(req["id"]))+`,"result":{"thread":{"id":"th-1","cwd":"`+c.recorded+`"}}}`)
				req = pt.next(t)
			}
			if req["method"] != "thread/resume" {
				t.Fatalf("want thread/resume, got %v", req)
			}
			if got := req["params"].(map[string]any)["cwd"]; got != c.wantCwd {
				t.Errorf("resume cwd %v, want %v", got, c.wantCwd)
			}
			runs := c.recorded
			if c.mode == ResumeCwdCurrent {
				runs = "/b"
			}
			pt.say(t, `{"id":`+string(mustJSON(req["id"]))+`,"result":{"thread":{"id":"th-1","turns":[]},"cwd":"`+runs+`","initialTurnsPage":{"data":[]}}}`)
			if r := <-rc; !reflect.DeepEqual(r.Elsewhere, c.elsewhere) {
				t.Errorf("elsewhere %+v, want %+v", r.Elsewhere, c.elsewhere)
			}
			go func() { _, _ = s.ForkThread(context.Background(), "th-1", "") }()
			req = pt.next(t)
			if req["method"] != "thread/fork" {
				t.Fatalf("want thread/fork, got %v", req)
			}
			if got := req["params"].(map[string]any)["cwd"]; got != c.wantCwd {
				t.Errorf("fork cwd %v, want %v", got, c.wantCwd)
			}
		})
	}
}

package commands

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"tandem/model/act"
)

// A command refused after its call came back gives back the line it ran
// from (issue 27): into an empty composer, else into the history, with a
// notice either way; a listing's failure gives back its line too.
func TestFailedCallGivesTheLineBack(t *testing.T) {
	cases := []struct {
		line   string
		result any
	}{
		{"/mcp login nosuchserver", act.McpLoginURL{Name: "nosuchserver", Err: errors.New("mcpServer/oauth/login: no such server")}},
		{"/rename A name", act.ThreadRenamed{Name: "A name", Err: errors.New("thread/name/set: boom")}},
		{"/compact", act.CompactStarted{Err: errors.New("thread/compact/start: boom")}},
	}
	for _, tc := range cases {
		for _, typed := range []string{"", "typed since"} {
			r := newRig(t)
			if ok, is := r.enter(tc.line); !ok || !ran(is) {
				t.Fatalf("%q did not run: %v", tc.line, kinds(is))
			}
			r.w.draft = typed // the composer emptied, then maybe typed in
			r.c.Result(tc.result)
			is := r.take()
			set, hist := only[act.SetDraft](is), only[act.AddHistory](is)
			if typed == "" && (len(set) != 1 || set[0].Text != tc.line || len(hist) != 0) {
				t.Errorf("%q failed into an empty composer: %v", tc.line, is)
			}
			if typed != "" && (len(set) != 0 || len(hist) != 1 || hist[0].Entry != tc.line) {
				t.Errorf("%q failed over a draft: %v", tc.line, is)
			}
			if n := notice(is); !strings.Contains(n, "failed") || !strings.Contains(n, "back in the composer") && !strings.Contains(n, "in the history") {
				t.Errorf("%q: notice %q", tc.line, n)
			}
			// Given back once: a second answer gives back nothing.
			r.c.Result(tc.result)
			if is := r.take(); len(only[act.SetDraft](is))+len(only[act.AddHistory](is)) != 0 {
				t.Errorf("%q given back twice: %v", tc.line, is)
			}
		}
	}
}

// A queued line that reads as a command runs as the command when its
// turn comes (as Codex's TUI does), never touching the draft; one refused
// or unknown is kept with a notice; a path is a message (false).
func TestQueuedLineRunsAsCommand(t *testing.T) {
	r := newRig(t)
	r.w.draft = "half typed"
	if !r.c.Queued("/quit") {
		t.Fatal("queued /quit not taken")
	}
	is := r.take()
	if len(only[act.Quit](is)) != 1 || len(only[act.SetDraft](is)) != 0 {
		t.Errorf("queued /quit: %v", kinds(is))
	}
	for _, tc := range []struct {
		line, says string
		setup      func(w *world)
	}{
		{"/nosuch x", "is not a command", nil},
		{"/new", "needs a running app-server", func(w *world) { w.server.Ready = false }},
	} {
		r := newRig(t)
		if tc.setup != nil {
			tc.setup(r.w)
		}
		if !r.c.Queued(tc.line) {
			t.Fatalf("%q not taken", tc.line)
		}
		is := r.take()
		if want := []act.Intent{act.SetDraft{Text: tc.line}}; !reflect.DeepEqual(only[act.SetDraft](is), []act.SetDraft{{Text: tc.line}}) {
			t.Errorf("%q: %v, want %v", tc.line, is, want)
		}
		if n := notice(is); !strings.Contains(n, tc.says) {
			t.Errorf("%q: notice %q", tc.line, n)
		}
	}
	if r := newRig(t); r.c.Queued("/usr/bin/env is a path") {
		t.Error("a path was taken as a command")
	}
}

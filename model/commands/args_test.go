package commands

import (
	"reflect"
	"strings"
	"testing"

	"tandem/model/act"
)

// argsTaken is what each command that takes arguments makes of a line
// with some: every other command in the table takes none.
var argsTaken = map[string]struct {
	line string
	want act.Intent
}{
	"rename": {"/rename my thread", act.Request{For: act.ToCommands, Do: act.RenameThread{Name: "my thread"}}},
	"goal":   {"/goal ship it", act.Goal{Action: act.GoalSet, Objective: "ship it"}},
	"mcp":    {"/mcp login docs", act.Request{For: act.ToCommands, Do: act.LoginMcp{Name: "docs"}}},
	"side":   {"/side what is X?", act.Request{For: act.ToCommands, Do: act.AskAside{Seq: 1, Prompt: "what is X?"}}},
	// The rig has no FindThreads: the search is asked, and says it is not
	// available here when it runs.
	"search": {"/search --all flaky test", act.Request{For: act.ToCommands, Do: act.SearchThreads{Query: "flaky test", All: true}}},
}

// uncut is i with an AskAside's Cut left out (a channel of its own).
func uncut(i act.Intent) act.Intent {
	if rq, ok := i.(act.Request); ok {
		if a, ok := rq.Do.(act.AskAside); ok {
			a.Cut = nil
			rq.Do = a
			return rq
		}
	}
	return i
}

// A command that takes no arguments, given some, runs nothing: typed,
// the line stays in the composer with a notice; queued, it is kept (the
// draft when it is empty, else the history). A command that takes
// arguments gets them. Every command is one or the other.
func TestArgumentsOfEveryCommand(t *testing.T) {
	for name := range argsTaken {
		if cmd := find(name); cmd == nil || !cmd.args {
			t.Errorf("/%s: takes arguments, the table says not (or no such command)", name)
		}
	}
	for _, cmd := range table {
		if tc, ok := argsTaken[cmd.name]; ok {
			r := newRig(t)
			if ok, is := r.enter(tc.line); !ok || !ran(is) || !reflect.DeepEqual(uncut(is[len(is)-1]), tc.want) {
				t.Errorf("%q: %v (%#v), want %#v", tc.line, kinds(is), is, tc.want)
			}
			continue
		}
		if cmd.args {
			t.Errorf("/%s takes arguments: argsTaken has no line for it", cmd.name)
			continue
		}
		line := "/" + cmd.name + " keep this text"
		why := "/" + cmd.name + " takes no arguments"
		r := newRig(t)
		ok, is := r.enter(line)
		if !ok || !reflect.DeepEqual(only[act.SetDraft](is), []act.SetDraft{{Text: line}}) ||
			len(is) != 2 || !strings.Contains(notice(is), why) {
			t.Errorf("%q typed: %v (%#v), want the line kept and %q", line, kinds(is), is, why)
		}
		r = newRig(t)
		if !r.c.Queued(line) {
			t.Fatalf("queued %q not taken", line)
		}
		if is := r.take(); !reflect.DeepEqual(only[act.SetDraft](is), []act.SetDraft{{Text: line}}) ||
			len(is) != 2 || !strings.Contains(notice(is), why) {
			t.Errorf("%q queued: %v (%#v), want the line kept and %q", line, kinds(is), is, why)
		}
		r = newRig(t)
		r.w.draft = "typed since"
		r.c.Queued(line)
		if is := r.take(); !reflect.DeepEqual(only[act.AddHistory](is), []act.AddHistory{{Entry: line}}) || len(is) != 2 {
			t.Errorf("%q queued under a draft: %v (%#v), want it in the history", line, kinds(is), is)
		}
		// Without the text it is not refused for arguments.
		r = newRig(t)
		if _, is := r.enter("/" + cmd.name); strings.Contains(notice(is), "arguments") {
			t.Errorf("/%s alone: %q", cmd.name, notice(is))
		}
	}
}

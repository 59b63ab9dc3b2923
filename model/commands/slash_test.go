package commands

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/model/act"
	"tandem/model/keys"
	"tandem/ui"
)

// Every command is found by its whole name, once; the popup's entries
// are the table's, in /help's order, their keys filled in.
func TestTable(t *testing.T) {
	r := newRig(t)
	seen := map[string]bool{}
	entries := r.c.Entries()
	if len(entries) != len(table) {
		t.Fatalf("%d entries for %d commands", len(entries), len(table))
	}
	for i, cmd := range table {
		if seen[cmd.name] {
			t.Errorf("/%s twice", cmd.name)
		}
		seen[cmd.name] = true
		if find(cmd.name) != cmd {
			t.Errorf("/%s is not found by its name", cmd.name)
		}
		if entries[i].Name != cmd.name || strings.Contains(entries[i].About, "%") || entries[i].About == "" {
			t.Errorf("entry %d: %+v", i, entries[i])
		}
	}
	km := keys.Default()
	if a := find("agents").about(km); !strings.Contains(a, km.Agents.Help().Key) {
		t.Errorf("/agents' description %q does not name its key", a)
	}
}

// Every slash command is in docs/USAGE.md (as `/name`) and in /help,
// which names the destructive ones.
func TestDocsNameEveryCommand(t *testing.T) {
	readme, err := os.ReadFile("../../docs/USAGE.md")
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t)
	if ok, is := r.enter("/help"); !ok || !ran(is) {
		t.Fatalf("/help did not run: %v", kinds(is))
	} else {
		_, help := banner(t, is)
		for _, cmd := range table {
			if !strings.Contains(string(readme), "`/"+cmd.name) {
				t.Errorf("docs/USAGE.md does not name /%s", cmd.name)
			}
			if !strings.Contains(help, "/"+cmd.name+" ") {
				t.Errorf("/help does not list /%s", cmd.name)
			}
			if named := strings.Contains(help, "rewind: ") && slices.Contains(strings.Fields(help[strings.Index(help, "rewind: "):]), "/"+cmd.name); named != cmd.destructive {
				t.Errorf("/%s: destructive %v, named so by /help %v", cmd.name, cmd.destructive, named)
			}
		}
	}
	for _, k := range []string{"Shift+Tab", "`$name`"} {
		if !strings.Contains(string(readme), k) {
			t.Errorf("docs/USAGE.md does not name %s", k)
		}
	}
}

// Enter on a prefix or a fuzzy match of a command — every prefix of every
// destructive command among them — runs nothing and keeps the draft: the
// notice names what it matches, and the popup comes back for Tab.
func TestEnterOnAPartialNameRunsNothing(t *testing.T) {
	type tc struct{ draft, match string }
	tests := []tc{{"/st", "/stop"}, {"/st", "/status"}, {"/no", "/undo"}, {"/qt", "/quit"}}
	for _, cmd := range table {
		if !cmd.destructive {
			continue
		}
		for i := 1; i < len(cmd.name); i++ {
			if find(cmd.name[:i]) == nil { // (a prefix that is another command's whole name runs that one)
				tests = append(tests, tc{"/" + cmd.name[:i], "/" + cmd.name})
			}
		}
	}
	for _, tt := range tests {
		r := newRig(t)
		ok, is := r.enter(tt.draft)
		if !ok {
			t.Fatalf("%q: not taken as a command", tt.draft)
		}
		if got := kinds(is); !slices.Equal(got, []string{"act.ReopenPopup", "act.SetNotice"}) {
			t.Errorf("%q asked for %v", tt.draft, got)
		}
		n := notice(is)
		if !strings.HasPrefix(n, tt.draft+" matches ") || !strings.HasSuffix(n, "type the whole name, or Tab to complete") {
			t.Errorf("%q: notice %q", tt.draft, n)
		}
		if !strings.Contains(n, tt.match+",") && !strings.Contains(n, tt.match+" ") && !strings.Contains(n, "…") {
			t.Errorf("notice %q does not name %s", n, tt.match)
		}
	}
}

// What reads as a command but names none runs nothing; a path or a
// leading space is a message (not the commands').
func TestEnterOnNoCommand(t *testing.T) {
	tests := []struct {
		draft  string
		taken  bool
		notice string
	}{
		{"/", true, "/ runs nothing"},
		{"/frobnicate now", true, "/frobnicate is not a command"},
		{"/st op", true, "/st matches"}, // no popup for a draft with arguments
		{"/usr/bin/env is missing", false, ""},
		{" /stop is a command", false, ""},
		{"/ hello", false, ""},
		{"hello", false, ""},
	}
	for _, tt := range tests {
		r := newRig(t)
		ok, is := r.enter(tt.draft)
		if ok != tt.taken || !strings.Contains(notice(is), tt.notice) {
			t.Errorf("%q: taken %v, notice %q; want %v, %q", tt.draft, ok, notice(is), tt.taken, tt.notice)
		}
		if len(only[act.SetDraft](is)) > 0 || len(only[act.ReopenPopup](is)) > 0 && strings.Contains(tt.draft, " ") {
			t.Errorf("%q asked for %v", tt.draft, kinds(is))
		}
	}
}

// A driver of a shared session (tandem serve) may /restart: serve
// restarts the app-server for every viewer, on the same thread.
func TestSharedDriverMayRestart(t *testing.T) {
	r := newRoleRig(t, act.SharedDriver())
	ok, is := r.enter("/restart")
	if !ok || len(only[act.Restart](is)) != 1 {
		t.Fatalf("/restart by a shared driver: taken %v, asked for %v, notice %q", ok, kinds(is), notice(is))
	}
}

// Enter on a whole name runs it: the draft is emptied, the notice
// cleared, and the command asks for what it does.
func TestEnterRunsAWholeName(t *testing.T) {
	tests := []struct {
		draft string
		setup func(w *world)
		want  []act.Intent // after SetDraft and ClearNotice
	}{
		{draft: "/new", want: []act.Intent{act.NewThread{}}},
		{draft: "/fork", want: []act.Intent{act.Fork{}}},
		{draft: "/archive", want: []act.Intent{act.Archive{}}},
		{draft: "/review", want: []act.Intent{act.Review{}}},
		{draft: "/resume", want: []act.Intent{act.PickThread{}}},
		{draft: "/resume", setup: func(w *world) { w.server.Durable = true }, want: []act.Intent{act.PickThread{Durable: true}}},
		{draft: "/undo", want: []act.Intent{act.Undo{}}},
		{draft: "/restart", want: []act.Intent{act.Restart{}}},
		{draft: "/quit", want: []act.Intent{act.Quit{}}},
		{draft: "/plan", want: []act.Intent{act.SwitchMode{Plan: true}}},
		{draft: "/stop", want: []act.Intent{act.Quit{}}}, // no turn: it only leaves
		{draft: "/detach", setup: func(w *world) { w.server.Durable = true }, want: []act.Intent{act.Quit{}}},
		{draft: "/model", want: []act.Intent{act.PickModel{Current: "gpt-x"}}},
		{draft: "/model", setup: func(w *world) { w.status.Next.Model = "gpt-y" }, want: []act.Intent{act.PickModel{Current: "gpt-y"}}},
		{draft: "/approvals", want: []act.Intent{act.PickPolicy{Approval: "on-request", Sandbox: "workspace-write"}}},
		{draft: "/compact", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.CompactThread{}}}},
		{draft: "/logout", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.Logout{}}}},
		{draft: "/hooks", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.ListHooks{}}}},
		{draft: "/mcp", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.ListMcpServers{}}}},
		{draft: "/mcp login gh", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.LoginMcp{Name: "gh"}}}},
		{draft: "/rename  Better name ", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.RenameThread{Name: "Better name"}}}},
		{draft: "/goal", want: []act.Intent{act.Goal{Action: act.GoalShow}}},
		{draft: "/goal Clear", want: []act.Intent{act.Goal{Action: act.GoalClear}}},
		{draft: "/goal ship it", want: []act.Intent{act.Goal{Action: act.GoalSet, Objective: "ship it"}}},
		{draft: "/goal [Pasted #1]", setup: func(w *world) { w.pastes = map[string]string{"[Pasted #1]": "a long\ngoal"} },
			want: []act.Intent{act.Goal{Action: act.GoalSet, Objective: "a long\ngoal"}}},
		{draft: "/skills", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.ListSkills{Cwd: "/w"}}}},
		{draft: "/skills", setup: func(w *world) { w.cwd = "" }, want: []act.Intent{act.Request{For: act.ToCommands, Do: act.ListSkills{Cwd: "/local"}}}},
		{draft: "/init", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.ReadFile{Path: "/w/AGENTS.md"}}}},
		{draft: "/status", want: []act.Intent{act.Request{For: act.ToCommands, Do: act.ReadStatus{Seq: 1}}}},
		{draft: "/diff", setup: func(w *world) { w.diff = "--- a/x\n+++ b/x\n" },
			want: []act.Intent{act.Echo{Cell: &ui.DiffCell{Title: "Last turn's diff", Diff: "--- a/x\n+++ b/x\n"}}, act.Follow{}}},
		{draft: "/agents", setup: func(w *world) { w.agents = []Agent{{ID: "a1", Name: "Dewey", Detail: "running"}} },
			want: []act.Intent{act.Pick{Title: "Sub-agents", Hint: "enter to open · esc to close",
				Items: []act.PickItem{{Label: "Dewey", Detail: "running", Choose: act.ShowAgent{ID: "a1"}}}}}},
		{draft: "/rename", want: []act.Intent{act.SetNotice{Kind: act.NoticeInfo, Text: "usage: /rename NAME"}, act.SetDraft{Text: "/rename "}}},
		{draft: "/mcp logout gh", want: []act.Intent{act.SetNotice{Kind: act.NoticeInfo, Text: "usage: /mcp, or /mcp login NAME"}, act.SetDraft{Text: "/mcp logout gh"}}},
		{draft: "/goal x", setup: func(w *world) { w.server.ThreadID = "" }, want: []act.Intent{act.SetNotice{Kind: act.NoticeInfo, Text: "/goal needs an open thread"}, act.SetDraft{Text: "/goal x"}}},
		{draft: "/init", setup: func(w *world) { w.cwd = "" }, want: []act.Intent{act.SetNotice{Kind: act.NoticeInfo, Text: "/init: the thread's workspace is not known yet"}, act.SetDraft{Text: "/init"}}},
		{draft: "/agents", want: []act.Intent{act.SetNotice{Kind: act.NoticeNoAgents, Text: "no sub-agents in this thread yet"}}},
		{draft: "/agents", setup: func(w *world) { w.form, w.agents = true, []Agent{{ID: "a1"}} },
			want: []act.Intent{act.SetNotice{Kind: act.NoticeRequestWaiting, Text: "a request is waiting — answer it first (ctrl+t shows all of it)"}}},
		{draft: "/copy", want: []act.Intent{act.SetNotice{Kind: act.NoticeInfo, Text: "nothing to copy yet"}}},
	}
	for _, tt := range tests {
		r := newRig(t)
		if tt.setup != nil {
			tt.setup(r.w)
		}
		ok, is := r.enter(tt.draft)
		if !ok || !ran(is) {
			t.Errorf("%q did not run: %v", tt.draft, kinds(is))
			continue
		}
		if got := is[2:]; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q asked for %#v\nwant %#v", tt.draft, got, tt.want)
		}
	}
}

// A command that can't run now says why and keeps the draft: nothing is
// asked for but the notice and the draft as it was.
func TestRefusedCommandKeepsTheDraft(t *testing.T) {
	tests := []struct {
		draft  string
		role   act.Role
		setup  func(w *world)
		notice string
	}{
		{"/undo", act.Role{}, func(w *world) { w.turn.Busy, w.turn.Running = true, true }, "/undo can't run while a turn is running"},
		{"/new", act.Role{}, func(w *world) { w.turn.Busy = true }, "/new can't run while a turn is running"}, // starting
		{"/fork", act.Role{}, func(w *world) { w.turn.Switching = true }, "/fork can't run while a thread is opening"},
		{"/model", act.Role{}, func(w *world) { w.server.Ready = false }, "/model needs a running app-server"},
		{"/goal x", act.Role{}, func(w *world) { w.server = Server{} }, "/goal needs a running app-server"},
		{"/plan", act.Role{}, func(w *world) { w.agentShown = true }, "a sub-agent is shown — esc back to the thread for /plan"},
		{"/stop", act.Role{}, func(w *world) { w.agentShown = true; w.turn.Running = true }, "a sub-agent is shown"},
		{"/approvals", act.NewRole(false, true, true), nil, "/approvals is the host's"},
		{"/new", act.NewRole(false, true, false), nil, "/new is not available in a shared session"},
		{"/undo", act.SharedDriver(), nil, "/undo is not available in a shared session"},
		{"/detach", act.Role{}, nil, "/detach is for a session on the codex daemon"},
		{"/detach", act.NewRole(false, true, true), func(w *world) { w.server.Durable = true }, "/detach is not available in a shared session"},
		{"/stop", act.NewRole(false, true, false), nil, "/stop is not available in a shared session"},
		{"/stop", act.Role{}, func(w *world) { w.turn.Running, w.server = true, Server{Durable: true, Detached: true} }, "/stop needs the link to the daemon"},
		{"/undo", act.Role{}, func(w *world) { w.undo = "no turn to undo" }, "no turn to undo"},
	}
	for _, tt := range tests {
		r := newRoleRig(t, tt.role)
		if tt.setup != nil {
			tt.setup(r.w)
		}
		ok, is := r.enter(tt.draft)
		if got := kinds(is); !ok || !slices.Equal(got, []string{"act.SetNotice", "act.SetDraft"}) || !strings.Contains(notice(is), tt.notice) {
			t.Errorf("%q (%v): asked for %v, notice %q; want only %q", tt.draft, tt.role, got, notice(is), tt.notice)
		} else if d := only[act.SetDraft](is)[0].Text; d != tt.draft {
			t.Errorf("%q: the draft became %q", tt.draft, d)
		}
	}
	// What may run with a sub-agent shown runs.
	for _, d := range []string{"/help", "/status", "/copy", "/agents", "/quit"} {
		r := newRig(t)
		r.w.agentShown = true
		if _, is := r.enter(d); !ran(is) {
			t.Errorf("%s with a sub-agent shown: %v", d, kinds(is))
		}
	}
}

// runningStop is the commands with a turn running and "/stop" entered.
func runningStop(t *testing.T) (*rig, []act.Intent) {
	r := newRig(t)
	r.w.turn = Turn{Running: true, Busy: true, Seq: 3}
	_, is := r.enter("/stop")
	return r, is
}

const stopQ = "a turn is running: /stop interrupts it and quits — Enter again to confirm, Esc to keep it"

var (
	enterKey = tea.KeyPressMsg{Code: tea.KeyEnter}
	escKey   = tea.KeyPressMsg{Code: tea.KeyEscape}
)

// /stop during a turn asks first; an Enter before the question could be
// read counts for nothing (and restarts the wait); Enter after it
// interrupts the turn (act.Stop), the draft emptied.
func TestStopMidTurnAsksFirst(t *testing.T) {
	r, is := runningStop(t)
	if got := kinds(is); !slices.Equal(got, []string{"act.ClosePopup", "act.ClearNotice"}) {
		t.Fatalf("the first Enter asked for %v", got)
	}
	if q := r.c.Question(); q != stopQ {
		t.Fatalf("question %q", q)
	}
	if v := ansi.Strip(strings.Join(r.c.View(ui.NewStyles(true), 40), " ")); !strings.Contains(strings.Join(strings.Fields(v), " "), stopQ) {
		t.Fatalf("view %q", v)
	}
	for range 3 {
		r.now = r.now.Add(quiet / 2)
		if !r.c.Key(enterKey) || len(r.take()) != 0 {
			t.Fatal("an Enter right after the question did something")
		}
	}
	if r.c.Question() == "" {
		t.Fatal("the early Enters dropped the question")
	}
	r.now = r.now.Add(quiet)
	if !r.c.Key(enterKey) {
		t.Fatal("Enter after the question was not taken")
	}
	if is := r.take(); !ran(is) || !reflect.DeepEqual(is[2:], []act.Intent{act.Stop{}}) {
		t.Fatalf("the confirmed /stop asked for %v", kinds(is))
	}
	if r.c.Question() != "" || r.c.Key(enterKey) {
		t.Error("the question outlived its confirmation")
	}
}

// Esc keeps the turn and the draft; any other key cancels the question
// and goes on as usual; a question no longer shown (covered, another
// draft, another turn, no turn) is dropped by the next key.
func TestStopQuestionCancels(t *testing.T) {
	r, _ := runningStop(t)
	r.now = r.now.Add(time.Minute)
	if !r.c.Key(escKey) {
		t.Fatal("Esc was not taken")
	}
	if is := r.take(); len(only[act.SetDraft](is)) > 0 || len(only[act.Stop](is)) > 0 || notice(is) != "/stop not run — the draft stays" {
		t.Errorf("Esc asked for %v (notice %q)", kinds(is), notice(is))
	}
	if r.c.Question() != "" {
		t.Error("the question outlived Esc")
	}

	r, _ = runningStop(t)
	if r.c.Key(tea.KeyPressMsg{Code: 'x', Text: "x"}) || r.c.Question() != "" || len(r.take()) != 0 {
		t.Error("typing did not cancel the question quietly")
	}

	for name, change := range map[string]func(w *world){
		"covered":     func(w *world) { w.covered = true },
		"draft":       func(w *world) { w.draft = "/stopx" },
		"turn ended":  func(w *world) { w.turn = Turn{Seq: 4} },
		"next turn":   func(w *world) { w.turn.Seq = 5 },
		"server gone": func(w *world) { w.server.Online = false },
	} {
		r, _ := runningStop(t)
		change(r.w)
		if r.c.Question() != "" || r.c.View(ui.NewStyles(true), 80) != nil {
			t.Errorf("%s: the question is still shown", name)
		}
		r.now = r.now.Add(time.Minute)
		if r.c.Key(enterKey) || len(r.take()) != 0 {
			t.Errorf("%s: Enter confirmed a question not shown", name)
		}
	}

	// A watcher is never asked.
	w := newRoleRig(t, act.NewRole(true, false, false))
	w.c.ask = &asking{cmd: find("stop"), draft: "/stop", question: stopQ}
	w.w.draft, w.w.turn.Running = "/stop", true
	if w.c.Question() != "" {
		t.Error("a watcher sees the question")
	}
}

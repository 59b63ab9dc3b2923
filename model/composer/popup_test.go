package composer

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/ui"
)

func stylesForTest() ui.Styles { return ui.NewStyles(true) }

// '/' lists every command given, in order, with its description; typing
// filters them fuzzily; Esc closes the popup.
func TestSlashPopupListsTheCommands(t *testing.T) {
	cmds := []Command{{"model", "choose the model"}, {"compact", "summarize"}, {"help", "list the commands"}, {"quit", "quit tandem"}}
	r := newRig(t, Options{Commands: cmds})
	r.typeText("/")
	labels, sel, open := r.c.Popup()
	if !open || sel != 0 || !reflect.DeepEqual(labels, []string{"/model", "/compact", "/help", "/quit"}) {
		t.Fatalf("'/' popup %v (sel %d, open %v)", labels, sel, open)
	}
	if v := strings.Join(r.c.PopupView(stylesForTest(), 80), "\n"); !strings.Contains(v, "list the commands") {
		t.Fatalf("no description drawn:\n%s", v)
	}
	r.typeText("cmpt")
	if labels, _, _ := r.c.Popup(); !reflect.DeepEqual(labels, []string{"/compact"}) {
		t.Fatalf("'/cmpt' popup %v", labels)
	}
	r.press(tea.KeyPressMsg{Code: tea.KeyEscape})
	if _, _, open := r.c.Popup(); open {
		t.Fatal("esc did not close the popup")
	}
}

// '@' asks for the files matching what follows (the thread's workspace,
// else the local one), lists the newest answer without .git's insides,
// and Enter puts the path chosen in the draft.
func TestFilePopup(t *testing.T) {
	r := newRig(t, Options{Workspace: "/local"})
	r.typeText("see @ma")
	if labels, _, open := r.c.Popup(); !open || len(labels) != 0 || len(r.take()) != 0 {
		t.Fatalf("no app-server: popup %v (open %v)", labels, open)
	}
	r.facts.Online = true
	r.typeText("i")
	want := []act.Intent{act.Request{For: act.ToComposer, Do: act.SearchFiles{Seq: 1, Query: "mai", Roots: []string{"/local"}}}}
	if got := r.take(); !reflect.DeepEqual(got, want) {
		t.Fatalf("asked %#v, want %#v", got, want)
	}
	r.facts.ThreadCwd = "/srv/app"
	r.typeText("n")
	if got := r.take(); len(got) != 1 || got[0].(act.Request).Do.(act.SearchFiles).Roots[0] != "/srv/app" {
		t.Fatalf("asked %#v, want a search of the thread's workspace", got)
	}
	if v := strings.Join(r.c.PopupView(stylesForTest(), 80), "\n"); !strings.Contains(v, "searching files…") {
		t.Fatalf("popup while searching:\n%s", v)
	}
	r.c.Result(act.FilesFound{Seq: 1, Files: []backend.FuzzyFileMatch{{Path: "old.go"}}})
	r.c.Result(act.FilesFound{Seq: 2, Files: []backend.FuzzyFileMatch{{Path: ".git/main"}, {Path: "cmd/main.go"}, {Path: "my main.go"}}})
	if labels, _, _ := r.c.Popup(); !reflect.DeepEqual(labels, []string{"cmd/main.go", "my main.go"}) {
		t.Fatalf("popup %v", labels)
	}
	r.press(tea.KeyPressMsg{Code: tea.KeyDown})
	r.press(enterKey)
	r.due() // Enter is held: no paste follows it
	if got := r.c.Value(); got != `see "my main.go" ` {
		t.Fatalf("draft %q", got)
	}
	if _, _, open := r.c.Popup(); open {
		t.Fatal("the popup stayed open")
	}
}

// File names from fuzzyFileSearch are drawn with their controls visible.
func TestFilePopupShowsControlsVisibly(t *testing.T) {
	r := newRig(t, Options{})
	r.c.popup = popup{kind: popupFile, source: "@s", items: []popupItem{{label: "safe\rHIDDEN.txt", path: "safe\rHIDDEN.txt"}, {label: "a\u202etxt.exe"}}}
	out := strings.Join(r.c.PopupView(ui.NewStyles(true), 60), "\n")
	if strings.ContainsAny(out, "\r\u202e") || !strings.Contains(out, "safe␍HIDDEN.txt") || !strings.Contains(out, "a<U+202E>txt.exe") {
		t.Fatalf("popup: %q", out)
	}
}

// Tab on the slash popup completes the highlighted command; on a
// command's whole name while a turn runs it has nothing to complete and
// queues the draft, as Tab does any draft then (so what is typed next
// never becomes the command's arguments).
func TestSlashPopupTabOnAWholeName(t *testing.T) {
	cmds := []Command{{"quit", "quit tandem"}, {"goal", "the thread's goal"}}
	for _, tc := range []struct {
		name  string
		busy  bool
		typed string
		draft string // after Tab
		queue bool
	}{
		{"whole name, turn running", true, "/quit", "/quit", true},
		{"prefix, turn running", true, "/qu", "/quit ", false},
		{"whole name, idle", false, "/goal", "/goal ", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Options{Commands: cmds})
			r.facts.Busy = tc.busy
			r.typeText(tc.typed)
			if _, _, open := r.c.Popup(); !open {
				t.Fatal("no popup")
			}
			r.take()
			r.press(tea.KeyPressMsg{Code: tea.KeyTab})
			is := r.take()
			queued := reflect.DeepEqual(is, []act.Intent{act.Queue{Raw: tc.typed}})
			if queued != tc.queue || r.c.Value() != tc.draft {
				t.Errorf("Tab on %q: %#v, draft %q; want queued %v, draft %q", tc.typed, is, r.c.Value(), tc.queue, tc.draft)
			}
		})
	}
}

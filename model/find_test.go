package model

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// ctrlF is the key that opens the search line.
var ctrlF = tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl}

// pressKey hands m the key k and settles what it asks.
func pressKey(t *testing.T, m *Model, k tea.KeyPressMsg) {
	t.Helper()
	_, cmd := m.Update(k)
	settle(t, m, cmd)
}

// searchLine is the view's search line ("" when none is drawn).
func searchLine(m *Model) string {
	for _, l := range strings.Split(viewText(m), "\n") {
		if strings.Contains(l, "find: ") {
			return l
		}
	}
	return ""
}

// Ctrl+F opens the search line over the thread on screen: typing shows
// the match nearest above the bottom and counts them; Enter steps to
// the older one, Shift+Enter back; Esc closes it, the screen as it was.
func TestFindStepsAndGoesBack(t *testing.T) {
	f := newFake()
	m := resumeBig(t, f, 200, 100, 30)
	before := viewText(m)
	pressKey(t, m, ctrlF)
	if l := searchLine(m); l == "" {
		t.Fatalf("Ctrl+F drew no search line:\n%s", viewText(m))
	}
	typeText(t, m, "answer 17")
	// the turns drawn are 170…199: "answer 17" is in 170…179
	if l := searchLine(m); !strings.Contains(l, "10/10") {
		t.Fatalf("search line %q, want 10/10 (the newest of ten)", l)
	}
	if v := viewText(m); !strings.Contains(v, "answer 179") {
		t.Fatalf("the nearest match is not on screen:\n%s", v)
	}
	pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if l := searchLine(m); !strings.Contains(l, "9/10") {
		t.Fatalf("after Enter: %q, want 9/10", l)
	}
	pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift})
	if l := searchLine(m); !strings.Contains(l, "10/10") {
		t.Fatalf("after Shift+Enter: %q, want 10/10", l)
	}
	pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	if l := searchLine(m); !strings.Contains(l, "find: answer 1▏") {
		t.Fatalf("after Backspace: %q", l)
	}
	pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEscape})
	if got := viewText(m); got != before {
		t.Fatalf("Esc did not go back where the search began:\n%s\nwant:\n%s", got, before)
	}
	if m.composer.Value() != "" {
		t.Fatalf("the search typed into the draft: %q", m.composer.Value())
	}
}

// Past the oldest match of the turns drawn, the search goes on in the
// turns not read yet: the server's search says which turn, the pages up
// to it are read, and the match is on screen; a server without the
// method has the pages read and searched here.
func TestFindInEarlierTurns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		noServe bool
	}{{"server search", false}, {"pages read", true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			if tc.noServe {
				f.errs["thread/searchOccurrences"] = &backend.RPCError{Code: backend.CodeMethodNotFound, Message: "method not found"}
			}
			m := resumeBig(t, f, 2000, 100, 30)
			pressKey(t, m, ctrlF)
			typeText(t, m, "answer 42")
			if l := searchLine(m); !strings.Contains(l, "no match") {
				t.Fatalf("search line %q: answer 42 is not drawn yet", l)
			}
			pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
			// The newest match not drawn is answer 429: the read stops at
			// its page (turns 370…569), which holds 420…429.
			if l := searchLine(m); !strings.Contains(l, "10/10") {
				t.Fatalf("search line %q, want 10/10 once read", l)
			}
			if v := viewText(m); !strings.Contains(v, "answer 429") {
				t.Fatalf("answer 429 not on screen after the search of earlier turns:\n%s", v)
			}
			if asked := slices.Contains(f.calls, "thread/searchOccurrences"); !asked {
				t.Fatal("the server's search was not asked")
			}
			if got := m.panes.Thread().Items()[0].Text(); got != "question 370" {
				t.Fatalf("oldest item read %q, want question 370 (the read stops at the match's page)", got)
			}
			for range 9 {
				pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
			}
			if l := searchLine(m); !strings.Contains(l, "1/10") {
				t.Fatalf("search line %q after stepping to the oldest drawn", l)
			}
			pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEnter}) // on into earlier turns again
			if l := searchLine(m); !strings.Contains(l, "1/11") {
				t.Fatalf("search line %q, want 1/11: answer 42 found", l)
			}
			v := viewText(m)
			if !strings.Contains(v, "answer 42 ") {
				t.Fatalf("answer 42 not on screen:\n%s", v)
			}
		})
	}
}

// Esc while earlier turns are read stops the reading; the search line
// stays, and a second Esc closes it.
func TestFindEarlierTurnsStops(t *testing.T) {
	f := newFake()
	f.errs["thread/searchOccurrences"] = &backend.RPCError{Code: backend.CodeMethodNotFound, Message: "method not found"}
	m := resumeBig(t, f, 2000, 100, 30)
	pressKey(t, m, ctrlF)
	typeText(t, m, "answer 5 ")
	f.mu.Lock()
	f.listGate = make(chan struct{})
	f.mu.Unlock()
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if l := searchLine(m); !strings.Contains(l, "asking the server") {
		t.Fatalf("search line %q: no progress shown", l)
	}
	_, read := m.Update(cmd()) // no server search: the read of pages begins, held
	if l := searchLine(m); !strings.Contains(l, "reading earlier turns") {
		t.Fatalf("search line %q: no progress shown", l)
	}
	pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEscape})
	close(f.listGate)
	settle(t, m, read)
	if l := searchLine(m); l == "" || strings.Contains(l, "reading") {
		t.Fatalf("after Esc: search line %q, want it open and stopped", l)
	}
	if n := len(m.panes.Thread().Items()); n != 2*backend.ResumeTurns {
		t.Fatalf("%d items: the stopped read put turns in", n)
	}
	pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEscape})
	if l := searchLine(m); l != "" {
		t.Fatalf("second Esc left the search line: %q", l)
	}
}

// The server's search covers messages and answers only: a word only in
// the output of a command in a turn not read yet is found by reading
// the earlier pages once the server's occurrences give nothing further.
func TestFindCommandOutputInEarlierTurns(t *testing.T) {
	f := newFake()
	m := resumeBig(t, f, 2000, 100, 30)
	out := "ok\nzebracorn failed\n"
	th := f.threads["t-big"]
	th.Turns[420].Items = append(th.Turns[420].Items, backend.Item{Type: "commandExecution", ID: "c", Command: "go test", Status: "completed", AggregatedOutput: &out})
	pressKey(t, m, ctrlF)
	typeText(t, m, "zebracorn")
	pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if l := searchLine(m); !strings.Contains(l, "1/1") {
		t.Fatalf("search line %q, want 1/1: the command's output read", l)
	}
	if v := viewText(m); !strings.Contains(v, "zebracorn failed") {
		t.Fatalf("the command's output is not on screen:\n%s", v)
	}
	if !slices.Contains(f.calls, "thread/searchOccurrences") {
		t.Fatal("the server's search was not asked first")
	}
	// On, past it: the rest is read to the thread's start.
	pressKey(t, m, tea.KeyPressMsg{Code: tea.KeyEnter})
	if l := searchLine(m); !strings.Contains(l, "1/1") || !strings.Contains(l, "no earlier match") {
		t.Fatalf("search line %q, want 1/1 and no earlier match", l)
	}
}

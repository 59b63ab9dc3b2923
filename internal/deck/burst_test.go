package deck

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// pastedKeys is text as a terminal without bracketed paste types it: its
// runes as keys, each line break as Enter.
func pastedKeys(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		if r == '\n' {
			out = append(out, keyOf(tea.KeyEnter, 0))
			continue
		}
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// A paste typed as keys into the new thread's prompt line (Alt+N) is one
// prompt: its Enters, in the burst, are spaces — no thread is started
// mid-paste, no line of it filters the list or opens a thread. The
// person's Enter after it starts the one thread.
func TestPastedKeysAreOnePrompt(t *testing.T) {
	at := epoch
	h := &fakeHost{}
	d, _ := newFakeDeck(t, Options{Host: h, KeyTime: func() time.Time { return at }}, "a", "b")
	feed(d, keyOf(tea.KeyF4, 0))
	at = at.Add(time.Second)
	feed(d, keyOf('n', tea.ModAlt))
	at = at.Add(time.Second)
	for _, k := range pastedKeys("fix the login\nthen b\n\nthen run it\n") {
		feed(d, k) // all at one time: far faster than a person types
	}
	if strings.Join(h.calls, "; ") != "threads all=false" {
		t.Fatalf("the paste acted: the host was asked %q", h.calls)
	}
	if s := screen(d); !strings.Contains(s, "prompt for a new thread: fix the login then b then run it") {
		t.Fatalf("the paste is not the prompt:\n%s", s)
	}
	at = at.Add(time.Second) // the person's Enter
	feed(d, keyOf(tea.KeyEnter, 0))
	want := []string{"threads all=false", `new "fix the login then b then run it" worktree=false`}
	if strings.Join(h.calls, "; ") != strings.Join(want, "; ") {
		t.Errorf("the host was asked %q, want %q", h.calls, want)
	}
	if s := screen(d); !strings.Contains(s, "filter: type to filter") {
		t.Errorf("a line of the paste filters the list:\n%s", s)
	}
}

// Typed at a person's pace, the prompt's Enter starts the thread at
// once, however short the prompt; Esc in a burst ends it and drops the
// prompt.
func TestTypedPromptEnterStarts(t *testing.T) {
	at := epoch
	h := &fakeHost{}
	d, _ := newFakeDeck(t, Options{Host: h, KeyTime: func() time.Time { return at }}, "a")
	feed(d, keyOf(tea.KeyF4, 0))
	at = at.Add(time.Second)
	feed(d, keyOf('n', tea.ModAlt))
	for _, k := range append(text("go"), keyOf(tea.KeyEnter, 0)) {
		at = at.Add(90 * time.Millisecond) // a fast typist
		feed(d, k)
	}
	if got := h.calls[len(h.calls)-1]; got != `new "go" worktree=false` {
		t.Fatalf("the typed prompt's Enter: the host was asked %q", h.calls)
	}
	feed(d, keyOf('n', tea.ModAlt))
	for _, k := range pastedKeys("one\ntwo") {
		feed(d, k)
	}
	feed(d, keyOf(tea.KeyEscape, 0))
	if s := screen(d); strings.Contains(s, "prompt for a new thread") || !strings.Contains(s, "filter: type to filter") {
		t.Errorf("Esc after a pasted burst left the prompt or a filter:\n%s", s)
	}
}

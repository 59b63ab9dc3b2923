package sessions

import (
	"fmt"
	"os"
	"reflect"
	"testing"
	"time"
)

// clockAt returns a clock that says each of times in turn (the last one
// from then on).
func clockAt(times ...int64) func() time.Time {
	i := 0
	return func() time.Time {
		t := time.Unix(times[min(i, len(times)-1)], 0)
		i++
		return t
	}
}

// Every workspace's prompts come newest first, whichever workspace they
// were sent in; a text sent twice comes once, where it was sent last.
func TestPromptsNewestFirstAcrossWorkspaces(t *testing.T) {
	s := Open(t.TempDir())
	s.now = clockAt(100, 200, 300, 400, 500)
	for _, p := range []struct{ cwd, text string }{
		{"/w/a", "build it"}, {"/w/b", "test it"}, {"/w/a", "ship it"}, {"/w/b", "build it"}, {"/w/c", "lint it"},
	} {
		if err := s.AddHistory(p.cwd, p.text); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, p := range s.Prompts() {
		got = append(got, fmt.Sprint(p.Workspace, " ", p.Text, " ", p.Sent.Unix()))
	}
	want := []string{"/w/c lint it 500", "/w/b build it 400", "/w/a ship it 300", "/w/b test it 200"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("prompts %q, want %q", got, want)
	}
}

// A file from before the times were kept: its prompts come after every
// timed one, each workspace's newest first, and a prompt added then gets
// its time without shifting the old ones'.
func TestPromptsOfAnOlderFile(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	old := `{"/w/a":{"history":["a1","a2"]},"/w/b":{"history":["b1"]}}`
	if err := os.WriteFile(s.Path(), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	s.now = clockAt(1000)
	if err := s.AddHistory("/w/a", "a3"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Prompts() {
		got = append(got, p.Text)
		if (p.Text == "a3") == p.Sent.IsZero() {
			t.Errorf("%q sent at %v", p.Text, p.Sent)
		}
	}
	if want := []string{"a3", "a2", "a1", "b1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("prompts %q, want %q", got, want)
	}
	if w := s.Get("/w/a"); !reflect.DeepEqual(w.Sent, []int64{1000}) || len(w.History) != 3 {
		t.Fatalf("stored %+v", w)
	}
}

// The times are cut with the history (MaxHistory), so they stay aligned.
func TestSentCutWithHistory(t *testing.T) {
	s := Open(t.TempDir())
	var n int64
	s.now = func() time.Time { n++; return time.Unix(n, 0) }
	for i := range MaxHistory + 3 {
		if err := s.AddHistory("/w", string(rune('a'+i%26))+string(rune('0'+i%10))+string(rune(i))); err != nil {
			t.Fatal(err)
		}
	}
	w := s.Get("/w")
	if len(w.Sent) != MaxHistory || len(w.History) != MaxHistory || w.Sent[0] != 4 || w.Sent[MaxHistory-1] != MaxHistory+3 {
		t.Fatalf("%d prompts, %d times, first %d last %d", len(w.History), len(w.Sent), w.Sent[0], w.Sent[len(w.Sent)-1])
	}
}

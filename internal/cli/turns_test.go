package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tandem/sessions"
	"tandem/sessions/demo"
)

// TestParseTurns: --turns is a 1-based inclusive range; anything else
// is an error naming the value.
func TestParseTurns(t *testing.T) {
	for _, tc := range []struct {
		in       string
		from, to int // 0: unset
		bad      bool
	}{
		{in: "2-4", from: 2, to: 4},
		{in: "3", from: 3, to: 3},
		{in: "2-", from: 2},
		{in: " 1 - 2 ", from: 1, to: 2},
		{in: "4-4", from: 4, to: 4},
		{in: "0-2", bad: true},
		{in: "4-2", bad: true},
		{in: "-3", bad: true},
		{in: "a-b", bad: true},
		{in: "2-4-6", bad: true},
		{in: "", bad: true},
		{in: "turn:2", bad: true},
	} {
		from, to, err := parseTurns(tc.in)
		if tc.bad {
			if err == nil || !strings.Contains(err.Error(), "--turns 2-4") {
				t.Errorf("%q: err %v; want one explaining --turns", tc.in, err)
			}
			continue
		}
		if err != nil || from.Turn != tc.from || to.Turn != tc.to || !from.IsSet() || to.IsSet() != (tc.to > 0) {
			t.Errorf("%q: from %+v to %+v err %v; want turns %d to %d", tc.in, from, to, err, tc.from, tc.to)
		}
	}
}

// TestExportCastTurns: `tandem export FILE --format cast` turns a
// --record transcript into an asciicast v3 with a chapter per turn,
// approval and question; --turns keeps only that range's (their times
// from the cut's start); a bad range or --turns with --from is a usage
// error (exit 2).
func TestExportCastTurns(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "demo.jsonl")
	writeFile(t, rec, string(demo.Transcript))
	markers := func(path string) []string {
		t.Helper()
		_, c, err := sessions.LoadSession(path)
		if err != nil || c == nil {
			t.Fatalf("%s: %v", path, err)
		}
		if c.Header.Version != sessions.CastV3 {
			t.Errorf("%s: version %d; want 3", path, c.Header.Version)
		}
		var out []string
		for _, e := range c.Events {
			if e.Code == "m" {
				out = append(out, e.Data)
			}
		}
		return out
	}
	all := filepath.Join(dir, "all.cast")
	if err := runExport(ExportOptions{File: rec, Output: all, Theme: "dark", Speed: 1, IdleLimit: 2}, os.Stdout, os.Stderr); err != nil {
		t.Fatal(err)
	}
	got := markers(all)
	if len(got) != 9 || got[0] != "turn 1: How does tandem render a streamed answer?" || got[5] != "question: Which tone should the greeting use?" {
		t.Errorf("markers %q", got)
	}
	part := filepath.Join(dir, "part.cast")
	if err := runExport(ExportOptions{File: rec, Output: part, Theme: "dark", Speed: 1, IdleLimit: 2, Turns: "2-3"}, os.Stdout, os.Stderr); err != nil {
		t.Fatal(err)
	}
	want := "turn 2: Add a greeting script and run it|approval: edit files|approval: sh greet.sh tandem | tee greeting.txt|turn 3: Plan how to make the greeting more fun|question: Which tone should the greeting use?"
	if g := strings.Join(markers(part), "|"); g != want {
		t.Errorf("--turns 2-3 markers %q; want %q", g, want)
	}
	for _, o := range []ExportOptions{{Turns: "3-1"}, {Turns: "0"}, {Turns: "2", From: "1"}, {CastVersion: 4}} {
		o.File, o.Output, o.Theme, o.Speed = rec, filepath.Join(dir, "bad.cast"), "dark", 1
		var ue *usageError
		if err := runExport(o, os.Stdout, os.Stderr); !errors.As(err, &ue) {
			t.Errorf("%+v: %v; want a usage error", o, err)
		}
	}
}

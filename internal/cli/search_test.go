package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"tandem/backend"
	"tandem/model/act"
)

func strp(s string) *string { return &s }

// searchSample is three matches as the two ways find them: from the
// rollouts (turn, kind, path) and from the server (neither), one with a
// hostile name.
func searchSample() []act.ThreadMatch {
	return []act.ThreadMatch{
		{Thread: backend.Thread{ID: "01a236d3-327a-7f63-b912-6466f9fada3b", Name: strp("Flaky test hunt"), Cwd: "/home/ann/src/app", UpdatedAt: 1796216140, Path: strp("/c/sessions/r.jsonl")},
			Turn: 3, TurnID: "t3", Kind: "output", Snippet: "--- FAIL: TestLogin zebra42fish expected", Match: [2]int{20, 31}},
		{Thread: backend.Thread{ID: "01a236d3-33d6-7380-bdff-6dcf770f41d1", Preview: "why does the login test fail on CI with zebra42fish?", Cwd: "/srv/other", UpdatedAt: 1796200000},
			Snippet: "why does the login test fail on CI with Zebra42Fish?", Match: [2]int{40, 51}},
		{Thread: backend.Thread{ID: "01a236d3-0000-7380-bdff-6dcf770f41d1", Name: strp("evil\x1b]0;pwned\x07name"), Cwd: "/home/ann/src/app", UpdatedAt: 1796100000},
			Turn: 1, Kind: "prompt", Snippet: "a \x1b[2Jzebra42fish", Match: [2]int{6, 17}},
	}
}

// The text output, with and without colour (the golden files show both).
func TestSearchTextGolden(t *testing.T) {
	for _, color := range []bool{false, true} {
		name := "plain"
		if color {
			name = "color"
		}
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			o := searchOutput{w: &b, color: color, home: "/home/ann", loc: time.UTC}
			if err := o.text(searchSample()); err != nil {
				t.Fatal(err)
			}
			if strings.ContainsAny(b.String(), "\x07") || strings.Contains(b.String(), "\x1b]") || strings.Contains(b.String(), "\x1b[2J") {
				t.Fatalf("a control sequence of the data reached the output: %q", b.String())
			}
			teatest.RequireEqualOutput(t, b.Bytes())
		})
	}
}

func TestSearchJSONLines(t *testing.T) {
	var b bytes.Buffer
	o := searchOutput{w: &b, home: "/home/ann", loc: time.UTC}
	if err := o.json(searchSample(), true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	var j searchJSON
	if err := json.Unmarshal([]byte(lines[0]), &j); err != nil {
		t.Fatal(err)
	}
	if j.Thread != "01a236d3-327a-7f63-b912-6466f9fada3b" || j.Name != "Flaky test hunt" || j.Turn != 3 || j.Kind != "output" ||
		j.Snippet[j.Match[0]:j.Match[1]] != "zebra42fish" || j.Source != "rollouts" || j.Path != "/c/sessions/r.jsonl" || j.Updated.Unix() != 1796216140 {
		t.Fatalf("first line %+v", j)
	}
}

func TestSearchUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"search"}, "requires at least 1 arg"},
		{[]string{"search", "  ", ""}, "the query is empty"},
		{[]string{"search", "--bogus", "x"}, "unknown flag: --bogus"},
		{[]string{"search", "-m", "gpt", "x"}, "unknown shorthand flag"},
	} {
		root := newRootCmd()
		usageArgs(root)
		root.SetArgs(c.args)
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		err := root.Execute()
		var u *usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
}

func TestMatchIn(t *testing.T) {
	for _, tt := range []struct {
		s, q string
		want [2]int
	}{
		{"Why Zebra?", "zebra", [2]int{4, 9}},
		{"none", "zebra", [2]int{}},
		{"é zebra", "ZEBRA", [2]int{3, 8}},
	} {
		if got := matchIn(tt.s, tt.q); got != tt.want {
			t.Errorf("matchIn(%q, %q) = %v, want %v", tt.s, tt.q, got, tt.want)
		}
	}
}

// An id or a kind holding a terminal's escapes (a hostile server's
// thread/search, a hostile rollout) is printed without them.
func TestSearchTextHostileIDAndKind(t *testing.T) {
	var b bytes.Buffer
	o := searchOutput{w: &b, home: "/home/ann", loc: time.UTC}
	m := []act.ThreadMatch{{Thread: backend.Thread{ID: "\x1b]0;pwned\x07\x1b[31mid", Preview: "p"}, Kind: "\x1b[2Jkind", Snippet: "zebra", Match: [2]int{0, 5}}}
	if err := o.text(m); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Fatalf("a control sequence of the data reached the output: %q", b.String())
	}
}

// A search that finds nothing says where it looked: a person who ran
// tandem under another CODEX_HOME (the mock's) otherwise has no clue.
func TestNoMatchSaysWhereItLooked(t *testing.T) {
	cases := []struct {
		cwd, root string
		all       bool
		want      []string
	}{
		{"/w", "/h/sessions", false, []string{"no thread of /w holds", "--all", "/h/sessions", "CODEX_HOME"}},
		{"/w", "/h/sessions", true, []string{"no thread holds", "/h/sessions"}},
		{"/w", "", false, []string{"no thread of /w holds", "thread/search: prompts and answers only"}},
	}
	for _, c := range cases {
		got := noMatch("zebra", c.cwd, c.root, c.all)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("noMatch(%q, %q, %v) = %q, want %q in it", c.cwd, c.root, c.all, got, w)
			}
		}
	}
}

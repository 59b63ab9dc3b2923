package config

import "testing"

// TestLineIndex: keys are found where the file defines them — tables,
// dotted and quoted keys, keys of inline tables, keys after a multi-line
// string — and a key the file lacks gets its nearest defined parent's line.
func TestLineIndex(t *testing.T) {
	doc := `model = "a"
notes = """
x = 1
"""
[profiles.fast]
sandbox = "read-only"
"odd.name" = 1
[profiles."with space"]
codex = { path = "/bin/codex",
  args = [] }
a.b.c = true
`
	idx := indexLines([]byte(doc))
	for _, tt := range []struct {
		key  []string
		line int
	}{
		{[]string{"model"}, 1},
		{[]string{"notes"}, 2},
		{[]string{"x"}, 0}, // inside the multi-line string
		{[]string{"profiles", "fast"}, 5},
		{[]string{"profiles", "fast", "sandbox"}, 6},
		{[]string{"profiles", "fast", "odd.name"}, 7},
		{[]string{"profiles", "fast", "missing"}, 5},
		{[]string{"profiles", "with space", "codex", "path"}, 9},
		{[]string{"profiles", "with space", "a", "b", "c"}, 11},
		{[]string{"nothing"}, 0},
	} {
		if got := idx.line(tt.key); got != tt.line {
			t.Errorf("line(%q) = %d, want %d", tt.key, got, tt.line)
		}
	}
	if (*lineIndex)(nil).line([]string{"model"}) != 0 {
		t.Error("a nil index named a line")
	}
}

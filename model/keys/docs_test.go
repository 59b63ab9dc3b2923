package keys

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated key tables of README.md and docs/KEYS.md")

const (
	beginMark = "<!-- keys:begin (generated from model/keys: go test ./model/keys -update) -->\n"
	endMark   = "<!-- keys:end -->"
)

// The README's key table and docs/KEYS.md are the keymap's: generated
// from it, and equal to it (-update rewrites them).
func TestDocsAreTheKeymap(t *testing.T) {
	m := Default()
	for _, tc := range []struct{ path, want string }{
		{"../../README.md", m.Table(Compose)},
		{"../../docs/KEYS.md", m.Markdown()},
	} {
		b, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(b)
		i, j := strings.Index(doc, beginMark), strings.Index(doc, endMark)
		if i < 0 || j < i {
			t.Fatalf("%s has no generated key table (%q … %q)", tc.path, beginMark, endMark)
		}
		got := doc[i+len(beginMark) : j]
		if got == tc.want {
			continue
		}
		if !*update {
			t.Errorf("%s's key table is not the keymap's: run go test ./model/keys -update\ngot:\n%s\nwant:\n%s", tc.path, got, tc.want)
			continue
		}
		if err := os.WriteFile(tc.path, []byte(doc[:i+len(beginMark)]+tc.want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

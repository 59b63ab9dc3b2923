package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// anchor is GitHub's id for a Markdown heading: lower case, punctuation
// but - and _ dropped, spaces as -.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocsLinksResolve: every relative link of the README and docs/*.md
// names a file of the repository, and a #fragment one of its headings,
// so the README's links into docs/ and the docs' links to each other
// survive sections moving between files.
func TestDocsLinksResolve(t *testing.T) {
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading := regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Headings inside code blocks are comments, not headings; links
		// in code are not links either.
		text := regexp.MustCompile("(?s)```.*?```").ReplaceAllString(string(b), "")
		text = regexp.MustCompile("`[^`\n]*`").ReplaceAllString(text, "") // code spans
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), path)
			}
			body, err := os.ReadFile(dest)
			if err != nil {
				t.Errorf("%s links to %s: %v", filepath.Base(f), target, err)
				continue
			}
			checked++
			if frag == "" {
				continue
			}
			found := false
			for _, h := range heading.FindAllStringSubmatch(regexp.MustCompile("(?s)```.*?```").ReplaceAllString(string(body), ""), -1) {
				if anchor(h[1]) == frag {
					found = true
				}
			}
			if !found {
				t.Errorf("%s links to %s: %s has no heading #%s", filepath.Base(f), target, filepath.Base(dest), frag)
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked %d links", checked)
	}
}

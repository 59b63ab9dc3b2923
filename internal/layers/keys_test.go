package layers

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The #26 rule for keys: the keymap (model/keys) is the one place tandem
// spells a key. Every other package of the module — the model, ui and
// forms as much as the commands, the pairing server or main — matches a
// key press with key.Matches on a keymap binding. Test files may spell
// keys (they press them).

// keymapPackage is the one package that may spell a key, and the
// packages below it.
const keymapPackage = "model/keys"

// keyName matches a string literal that is a key as Bubble Tea names it
// ("ctrl+t", "enter", "f5"), wherever it stands.
var keyName = regexp.MustCompile(`^((ctrl|alt|shift)\+\S+|enter|esc|tab|f[0-9]{1,2}|pgup|pgdown|backspace|delete|space)$`)

// keyText matches a string literal that a key press's name is compared
// with (switch k.String() { case "+": … }, k.Keystroke() == "right"): a
// key name, an arrow, home, end or insert, or one character.
var keyText = regexp.MustCompile(`^((ctrl|alt|shift)\+\S+|enter|esc|tab|f[0-9]{1,2}|pgup|pgdown|backspace|delete|space|up|down|left|right|home|end|insert|.)$`)

// keyWordsAllowed are literals of a package that keyName matches but that
// are no key there: they are checked nowhere but in a comparison with a
// key press's name.
var keyWordsAllowed = map[string][]string{
	// A file change's kind ("add", "delete", "update"): the protocol's
	// word, which the unified-diff reader takes too.
	"backend":              {"delete"},
	"thread":               {"delete"},
	"internal/lib/unidiff": {"delete"},
}

// keysChecked reports whether pkg (a path below the module, "" for main)
// must take its keys from the keymap: every package but the keymap.
func keysChecked(pkg string) bool {
	return pkg != keymapPackage && !strings.HasPrefix(pkg, keymapPackage+"/")
}

// keyStrings returns the key strings of f, a non-test file of pkg, one
// line each starting with the position: a literal keyName matches
// (keyWordsAllowed excepted), and a literal keyText matches that is
// compared with a key press's name — a case of a switch on a String() or
// Keystroke() call, or an operand of == or != with one. Nothing for the
// keymap's own packages.
func keyStrings(fset *token.FileSet, f *ast.File, pkg string) []string {
	if !keysChecked(pkg) {
		return nil
	}
	var out []string
	reported := map[token.Pos]bool{}
	report := func(lit *ast.BasicLit, s, how string) {
		if reported[lit.Pos()] {
			return
		}
		reported[lit.Pos()] = true
		out = append(out, fmt.Sprintf("%s %s %q: only the keymap (%s) may spell a key (use its bindings with key.Matches)", fset.Position(lit.Pos()), how, s, keymapPackage))
	}
	compared := func(e ast.Expr) {
		if lit, s, ok := stringLit(e); ok && keyText.MatchString(s) {
			report(lit, s, "matches a key press by its name,")
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SwitchStmt:
			if isKeyNameCall(n.Tag) {
				for _, st := range n.Body.List {
					if cc, ok := st.(*ast.CaseClause); ok {
						for _, e := range cc.List {
							compared(e)
						}
					}
				}
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				if isKeyNameCall(n.X) {
					compared(n.Y)
				}
				if isKeyNameCall(n.Y) {
					compared(n.X)
				}
			}
		case *ast.BasicLit:
			if lit, s, ok := stringLit(n); ok && keyName.MatchString(s) && !slices.Contains(keyWordsAllowed[pkg], s) {
				report(lit, s, "spells the key")
			}
		}
		return true
	})
	return out
}

// isKeyNameCall reports whether e is a call x.String() or x.Keystroke()
// without arguments: what a key press's name is read with.
func isKeyNameCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && (sel.Sel.Name == "String" || sel.Sel.Name == "Keystroke")
}

// stringLit returns e's value when e is a string literal.
func stringLit(e ast.Expr) (*ast.BasicLit, string, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return nil, "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return lit, s, err == nil
}

// TestScanCatchesKeyStrings runs the whole check on a synthetic module:
// key strings in any package but the keymap are caught — a playback
// wrapper matching keys by name (the old replay), a key spelled in main,
// in backend (whose protocol method names are allowed, its keys not) and
// in the pairing server — while the keymap, test files, the file change's
// "delete", a switch on a role's name and ordinary "-" and "+" are not.
func TestScanCatchesKeyStrings(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":         "module tandem\n",
		"model/model.go": "package model\n",
		"model/keys/keymap.go": `package keys

var quit = []string{"ctrl+c", "q"}

func is(k interface{ String() string }) bool { return k.String() == "+" }
`,
		"internal/cli/replay.go": `package cli

type named interface {
	String() string
	Keystroke() string
}

func replayKey(k named) {
	switch k.String() {
	case "ctrl+c":
	case "+", "=":
	case "right", "−":
	}
	if k.Keystroke() == "q" || "space" != (k.String()) {
	}
}

var sign = "-" + "+"
`,
		"internal/cli/replay_test.go": "package cli\n\nvar press = []string{\"ctrl+c\", \"space\"}\n",
		"main.go":                     "package main\n\nvar submit = \"enter\"\n",
		"backend/b.go": `package backend

const method = "turn/start"

var kind, pager = "delete", "ctrl+t"
`,
		"internal/pair/p.go": "package pair\n\nvar del = \"delete\"\n",
		"sessions/s.go": `package sessions

type role interface{ String() string }

func host(r role, s string) bool {
	switch r.String() {
	case "host", "driver":
	}
	return s == "-" || r.String() == "watcher"
}
`,
	})
	r, err := scan(dir)
	if err != nil {
		t.Fatal(err)
	}
	wants := []struct{ at, what string }{
		{"internal/cli/replay.go:10:7 ", `matches a key press by its name, "ctrl+c"`},
		{"internal/cli/replay.go:11:7 ", `matches a key press by its name, "+"`},
		{"internal/cli/replay.go:11:12 ", `matches a key press by its name, "="`},
		{"internal/cli/replay.go:12:7 ", `matches a key press by its name, "right"`},
		{"internal/cli/replay.go:12:16 ", `matches a key press by its name, "−"`},
		{"internal/cli/replay.go:14:22 ", `matches a key press by its name, "q"`},
		{"internal/cli/replay.go:14:29 ", `matches a key press by its name, "space"`},
		{"main.go:3:14 ", `spells the key "enter"`},
		{"backend/b.go:5:29 ", `spells the key "ctrl+t"`},
		{"internal/pair/p.go:3:11 ", `spells the key "delete"`},
	}
	if len(r.violations) != len(wants) {
		t.Errorf("got %d violations, want %d:\n%s", len(r.violations), len(wants), strings.Join(r.violations, "\n"))
	}
	for _, w := range wants {
		if !slices.ContainsFunc(r.violations, func(v string) bool {
			return strings.Contains(v, filepath.FromSlash(w.at)) && strings.Contains(v, w.what)
		}) {
			t.Errorf("no violation at %s says %s; got:\n%s", w.at, w.what, strings.Join(r.violations, "\n"))
		}
	}
}

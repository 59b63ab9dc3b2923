// Package layers holds the test that keeps tandem's packages in their
// layers (docs/ARCHITECTURE.md): what each may import, that protocol
// method names stay inside backend and key names inside the keymap
// (model/keys).
package layers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "tandem"

// rendering is every library that draws or runs a terminal program.
var rendering = []string{"charm.land/"}

// forbidden maps a package (its path below the module; "" is main) to the
// import path prefixes it must not use: docs/ARCHITECTURE.md's table. Its
// rows hold the package's non-test files.
var forbidden = map[string][]string{
	"": {"tandem/backend", "tandem/model", "tandem/ui", "tandem/forms", "tandem/thread", "tandem/sessions",
		"tandem/config", "tandem/internal/pair", "tandem/internal/hub", "charm.land/"},
	"backend": append([]string{"tandem/model", "tandem/ui", "tandem/forms", "tandem/thread", "tandem/sessions",
		"tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub"}, rendering...),
	"thread": append([]string{"tandem/model", "tandem/ui", "tandem/forms", "tandem/sessions",
		"tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub"}, rendering...),
	"ui":            {"tandem/backend", "tandem/model", "tandem/forms", "tandem/sessions", "tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub", "charm.land/bubbletea", "charm.land/huh"},
	"forms":         {"tandem/"},
	"model":         {"tandem/internal/cli", "tandem/internal/pair", "tandem/internal/deck"},
	"internal/hub":  append([]string{"tandem/model", "tandem/ui", "tandem/forms", "tandem/sessions", "tandem/internal/cli", "tandem/internal/pair"}, rendering...),
	"sessions":      append([]string{"tandem/model", "tandem/ui", "tandem/forms", "tandem/thread", "tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub"}, rendering...),
	"config":        {"tandem/"},
	"internal/pair": {"tandem/internal/cli", "tandem/sessions", "tandem/config"},
	// picture draws frames; it knows nothing of where they came from.
	"internal/picture": append([]string{"tandem/backend", "tandem/model", "tandem/ui", "tandem/forms", "tandem/thread", "tandem/sessions",
		"tandem/config", "tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub", "tandem/internal/frames"}, rendering...),
	"internal/rewind": append([]string{"tandem/backend", "tandem/model", "tandem/ui", "tandem/forms", "tandem/sessions",
		"tandem/config", "tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub"}, rendering...),
	// tunnel runs ssh; it knows only config's target (and procgroup,
	// allowed below).
	"internal/tunnel": append([]string{"tandem/backend", "tandem/model", "tandem/ui", "tandem/forms", "tandem/thread", "tandem/sessions",
		"tandem/internal/"}, rendering...),
	// deck is the command center around many models: the model never
	// imports it, and it runs no command, shares no session and reads no
	// config or recording of its own.
	"internal/deck": {"tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub", "tandem/sessions", "tandem/config"},
	// worktree runs git through a Runner: backend's command/exec, or
	// here; it draws nothing and knows no thread.
	"internal/worktree": append([]string{"tandem/model", "tandem/ui", "tandem/forms", "tandem/thread", "tandem/sessions",
		"tandem/config", "tandem/internal/"}, rendering...),
	"internal/frames": {"tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub", "tandem/internal/picture", "tandem/config"},

	// textedit is the composer's text buffer: no tandem, no rendering.
	"internal/lib/textedit": append([]string{"tandem/"}, rendering...),
	// contrast is WCAG arithmetic for the style tests: no tandem, no
	// rendering.
	"internal/lib/contrast": append([]string{"tandem/"}, rendering...),
	// procgroup is a child process's attributes: no tandem.
	"internal/lib/procgroup": append([]string{"tandem/"}, rendering...),
	// unidiff is the one unified-diff reader: no tandem, no rendering.
	"internal/lib/unidiff": append([]string{"tandem/"}, rendering...),
	// find is the searches' matching and marks: no tandem, no rendering.
	"internal/lib/find": append([]string{"tandem/"}, rendering...),

	// The model's components (model/NAME) have no rows: components_test.go
	// finds them in the tree and holds each to one rule (componentImport).
}

// allowed are imports a package may use although forbidden's prefixes
// cover them.
var allowed = map[string][]string{
	"internal/tunnel": {"tandem/internal/lib/procgroup"},
}

// protocolMethod matches a string literal that is an app-server method
// name ("thread/start", "item/agentMessage/delta", …), also when it
// leads a message ("thread/fork: %w": backend names the method of a
// failed call already).
var protocolMethod = regexp.MustCompile(`^(thread|turn|item|account|model|review|mcpServer|mcpServerStatus|hooks|config|command|fuzzyFileSearch|feedback|skills|app)/[A-Za-z/]+(: .*)?$`)

// methodsAllowed are the packages that may spell protocol methods: the
// protocol client itself, and the scripted mock and trivial client that
// stand in for the far ends in tests and benchmarks.
var methodsAllowed = []string{"backend", "internal/testkit/mockapi", "scripts/trivialclient"}

func TestLayers(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("not at the module root:", err)
	}
	r, err := scan(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.components) == 0 {
		t.Error("no component found under model/: is the tree where the test thinks?")
	}
	t.Logf("the model's components: %s", strings.Join(r.components, ", "))
	for _, v := range r.violations {
		t.Error(v)
	}
	for pkg := range forbidden {
		if !r.seen[pkg] {
			t.Errorf("no Go files found for %q: the table names a package that moved", pkg)
		}
	}
	for _, pkg := range shared {
		if !r.seen[pkg] {
			t.Errorf("no Go files found for the shared %q: the shared list names a package that moved", pkg)
		}
	}
	for pkg := range keyWordsAllowed {
		if !r.seen[pkg] {
			t.Errorf("no Go files found for %q: keyWordsAllowed names a package that moved", pkg)
		}
	}
	for pkg := range componentAllowed {
		if !slices.Contains(r.components, pkg) {
			t.Errorf("componentAllowed names %q, which is no component of the model", pkg)
		}
	}
}

// report is what scan found in a tree.
type report struct {
	// components are the model's components scan held to componentImport,
	// sorted ("model/composer", …).
	components []string
	// violations are the broken rules, one a line, each starting with the
	// file's position.
	violations []string
	// seen are the packages (paths below the module, "" for main) with at
	// least one non-test Go file.
	seen map[string]bool
}

// scan reads every Go file below root (a module's root; hidden
// directories, testdata and node_modules skipped) and checks it: a
// non-test file against forbidden, componentImport, the protocol method
// names (outside methodsAllowed) and the key strings (keyStrings, in every
// package but the keymap); a test file of the model's components and
// shared packages against componentImport, so a component's tests import
// neither the root model nor another component. An error is one reading
// the tree or parsing a file.
func scan(root string) (report, error) {
	comps, err := discoverComponents(root)
	if err != nil {
		return report{}, err
	}
	r := report{components: comps, seen: map[string]bool{}}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		test := strings.HasSuffix(path, "_test.go")
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if pkg == "." {
			pkg = ""
		}
		if test && modelPart(pkg) == "" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if why := componentImport(pkg, p, comps); why != "" {
				r.violations = append(r.violations, fmt.Sprintf("%s imports %s: %s (docs/ARCHITECTURE.md)", fset.Position(imp.Pos()), p, why))
			}
			if test {
				continue
			}
			for _, bad := range forbidden[pkg] {
				if strings.HasPrefix(p, bad) && p != module+"/"+pkg && !slices.Contains(allowed[pkg], p) {
					r.violations = append(r.violations, fmt.Sprintf("%s imports %s, which its layer may not (docs/ARCHITECTURE.md)", fset.Position(imp.Pos()), p))
				}
			}
		}
		if test {
			return nil
		}
		r.seen[pkg] = true
		full, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		r.violations = append(r.violations, keyStrings(fset, full, pkg)...) // keys_test.go
		if allowedMethods(pkg) {
			return nil
		}
		ast.Inspect(full, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok {
				return true
			}
			if _, s, ok := stringLit(lit); ok && protocolMethod.MatchString(s) {
				r.violations = append(r.violations, fmt.Sprintf("%s spells the protocol method %q: only backend may (use its typed client)", fset.Position(lit.Pos()), s))
			}
			return true
		})
		return nil
	})
	return r, err
}

// skippedDir reports whether the walk skips a directory named name:
// hidden ones, testdata and node_modules.
func skippedDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules"
}

func allowedMethods(pkg string) bool {
	for _, a := range methodsAllowed {
		if pkg == a || strings.HasPrefix(pkg, a+"/") {
			return true
		}
	}
	return false
}

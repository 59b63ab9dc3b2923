package layers

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The #26 rule: a feature goes into the component that owns it, never onto
// the root Model. A component is a package directly under model/ (its
// packages below it count as it); none is named here, discoverComponents
// finds them in the tree, so a new one is held to the rule the day it
// lands.

// shared are the model's packages every component may import: the
// vocabulary (act) and the keymap (keys). They are no components.
var shared = []string{"model/act", "model/keys"}

// componentBans are the tandem import paths (and those below them) no
// component may use, whatever it is: the commands, the pairing server, the
// hub, the command center and the config file are the root's or its
// callers' business.
var componentBans = []string{"tandem/internal/cli", "tandem/internal/pair", "tandem/internal/hub", "tandem/internal/deck", "tandem/config"}

// componentAllowed are exact imports a component may use although
// componentBans cover them. They never lift the rule about the root and
// the other components.
var componentAllowed = map[string][]string{
	// The status line draws a shared session's roster (hub.PresenceEvent,
	// hub.Participant).
	"model/status": {"tandem/internal/hub"},
	// The panes show what a watcher sent before it is drawn
	// (hub.ActionEvent).
	"model/transcript": {"tandem/internal/hub"},
}

// discoverComponents lists the model's components in the module at root:
// every directory directly under model/ (hidden ones, testdata and those
// starting with "_" skipped) with a Go file in it or below it, but the
// shared packages; sorted, as "model/NAME". An error is one reading the
// tree.
func discoverComponents(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, "model"))
	if err != nil {
		return nil, err
	}
	var comps []string
	for _, e := range entries {
		if !e.IsDir() || skippedDir(e.Name()) || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		pkg := "model/" + e.Name()
		if slices.Contains(shared, pkg) {
			continue
		}
		ok, err := holdsGo(filepath.Join(root, "model", e.Name()))
		if err != nil {
			return nil, err
		}
		if ok {
			comps = append(comps, pkg)
		}
	}
	slices.Sort(comps)
	return comps, nil
}

// holdsGo reports whether dir or a directory below it (skippedDir ones
// left out) holds a Go file, test files included.
func holdsGo(dir string) (bool, error) {
	found := false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != dir && skippedDir(d.Name()):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(d.Name(), ".go"):
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found, err
}

// modelPart returns the package directly under model/ that pkg (a path
// below the module) is or lies below ("model/composer" for model/composer
// and model/composer/x), or "" when pkg is not under model/ (the root
// model included).
func modelPart(pkg string) string {
	rest, ok := strings.CutPrefix(pkg, "model/")
	if !ok || rest == "" {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return "model/" + name
}

// componentImport says why a Go file of pkg (a path below the module) may
// not import the path p, or "" when it may; comps are the components
// (discoverComponents). A component imports neither the root model, nor
// another component, nor componentBans (componentAllowed excepted); it may
// import the shared packages and its own packages. A shared package imports
// no other package of the model. Other packages are not its business
// (forbidden holds them).
func componentImport(pkg, p string, comps []string) string {
	part := modelPart(pkg)
	isShared := slices.Contains(shared, part)
	if !isShared && !slices.Contains(comps, part) {
		return ""
	}
	imported, ok := strings.CutPrefix(p, module+"/")
	if !ok {
		return ""
	}
	target := modelPart(imported)
	switch {
	case imported == "model" && isShared:
		return "a shared package (model/act, model/keys) never imports the root model"
	case imported == "model":
		return "a component never imports the root model (#26: the feature goes into the component that owns it; ask the root through model/act)"
	case target == part:
		return ""
	case target != "" && isShared:
		return "a shared package (model/act, model/keys) imports no other package of the model"
	case slices.Contains(shared, target):
		return ""
	case target != "":
		return "a component imports no other component (" + target + "): read it through a parameter, ask it through model/act"
	case isShared:
		return ""
	}
	for _, ban := range componentBans {
		if (p == ban || strings.HasPrefix(p, ban+"/")) && !slices.Contains(componentAllowed[part], p) {
			return "a component of the model may not import " + ban
		}
	}
	return ""
}

func TestComponentImport(t *testing.T) {
	// A synthetic tree's components: model/newfeature stands for one that
	// lands tomorrow, with no row written for it anywhere.
	comps := []string{"model/composer", "model/newfeature", "model/status", "model/turn"}
	tests := []struct {
		name    string
		pkg, p  string
		wantBad bool
	}{
		{"component imports the shared vocabulary", "model/newfeature", "tandem/model/act", false},
		{"component imports the keymap", "model/newfeature", "tandem/model/keys", false},
		{"component imports a layer below", "model/newfeature", "tandem/backend", false},
		{"component imports a leaf helper", "model/composer", "tandem/internal/lib/textedit", false},
		{"component imports a library", "model/newfeature", "charm.land/bubbletea/v2", false},
		{"component imports its own sub-package", "model/newfeature", "tandem/model/newfeature/inner", false},
		{"sub-package imports its component", "model/newfeature/inner", "tandem/model/newfeature", false},
		{"new component imports a sibling", "model/newfeature", "tandem/model/composer", true},
		{"new component imports the root", "model/newfeature", "tandem/model", true},
		{"sub-package of a component imports a sibling", "model/newfeature/inner", "tandem/model/turn", true},
		{"component imports a sibling's sub-package", "model/turn", "tandem/model/composer/inner", true},
		{"component imports the commands", "model/newfeature", "tandem/internal/cli", true},
		{"component imports the pairing server", "model/newfeature", "tandem/internal/pair", true},
		{"component imports the hub", "model/newfeature", "tandem/internal/hub", true},
		{"component imports the config", "model/newfeature", "tandem/config", true},
		{"status may import the hub", "model/status", "tandem/internal/hub", false},
		{"status may not import the config", "model/status", "tandem/config", true},
		{"an exception never lifts the sibling rule", "model/status", "tandem/model/turn", true},
		{"a look-alike path is no ban", "model/newfeature", "tandem/configx", false},
		{"shared imports the root", "model/act", "tandem/model", true},
		{"shared imports a component", "model/keys", "tandem/model/composer", true},
		{"shared imports the other shared", "model/act", "tandem/model/keys", true},
		{"shared imports a layer below", "model/act", "tandem/backend", false},
		{"shared reads the config", "model/keys", "tandem/config", false},
		{"the root imports its components", "model", "tandem/model/composer", false},
		{"another layer is not this rule's", "ui", "tandem/model", false},
		{"a directory under model that holds no Go", "model/docs", "tandem/model", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			why := componentImport(tt.pkg, tt.p, comps)
			if (why != "") != tt.wantBad {
				t.Errorf("componentImport(%q, %q) = %q, want refused: %v", tt.pkg, tt.p, why, tt.wantBad)
			}
		})
	}
}

// writeTree writes files (slash paths below dir to contents) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDiscoverComponents(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":                      "module tandem\n",
		"model/model.go":              "package model\n",
		"model/act/act.go":            "package act\n",
		"model/keys/keymap.go":        "package keys\n",
		"model/alpha/alpha.go":        "package alpha\n",
		"model/onlytests/x_test.go":   "package onlytests\n",
		"model/nested/inner/inner.go": "package inner\n",
		"model/docs/README.md":        "no Go here\n",
		"model/testdata/x.go":         "package testdata\n",
		"model/.hidden/x.go":          "package hidden\n",
		"model/_old/x.go":             "package old\n",
		"model/zeta/testdata/z.go":    "package z\n",
	})
	got, err := discoverComponents(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"model/alpha", "model/nested", "model/onlytests"}
	if !slices.Equal(got, want) {
		t.Errorf("discoverComponents = %q, want %q", got, want)
	}
}

// TestScanCatchesNewComponent runs the whole check on a synthetic module:
// a component nobody wrote a row for, importing a sibling from its code
// and the root from its tests, is caught; a clean one is not.
func TestScanCatchesNewComponent(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":                           "module tandem\n",
		"model/model.go":                   "package model\n\nimport _ \"tandem/model/clean\"\n",
		"model/act/act.go":                 "package act\n",
		"model/keys/k.go":                  "package keys\n",
		"model/clean/clean.go":             "package clean\n\nimport (\n\t_ \"tandem/model/act\"\n\t_ \"tandem/model/keys\"\n)\n",
		"model/clean/clean_test.go":        "package clean_test\n\nimport _ \"tandem/model/clean\"\n",
		"model/newfeature/feature.go":      "package newfeature\n\nimport _ \"tandem/model/clean\"\n",
		"model/newfeature/feature_test.go": "package newfeature\n\nimport _ \"tandem/model\"\n",
	})
	r, err := scan(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"model/clean", "model/newfeature"}; !slices.Equal(r.components, want) {
		t.Errorf("components = %q, want %q", r.components, want)
	}
	wants := []struct{ at, what string }{
		{"newfeature/feature.go:3:", "imports tandem/model/clean: a component imports no other component"},
		{"newfeature/feature_test.go:3:", "imports tandem/model: a component never imports the root model"},
	}
	if len(r.violations) != len(wants) {
		t.Errorf("got %d violations, want %d:\n%s", len(r.violations), len(wants), strings.Join(r.violations, "\n"))
	}
	for _, w := range wants {
		if !slices.ContainsFunc(r.violations, func(v string) bool {
			return strings.Contains(v, filepath.FromSlash(w.at)) && strings.Contains(v, w.what)
		}) {
			t.Errorf("no violation at %s says %q; got:\n%s", w.at, w.what, strings.Join(r.violations, "\n"))
		}
	}
}

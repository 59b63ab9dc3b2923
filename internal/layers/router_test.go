package layers

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxRouterMethods is the number of methods the root model.Model (the
// router) must stay under (#26): a feature goes into the component that
// owns it, never onto the root Model.
const maxRouterMethods = 40

// routerType is the root model's type the limit holds.
const routerType = "Model"

// methodsOn returns the methods declared on the type named typ (receiver
// typ or *typ, parenthesised or not) in files, by the file's base name, in
// source order; files without one are left out.
func methodsOn(fset *token.FileSet, files []*ast.File, typ string) map[string][]string {
	byFile := map[string][]string{}
	for _, f := range files {
		name := filepath.Base(fset.Position(f.Pos()).Filename)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			if receiverType(fn.Recv.List[0].Type) == typ {
				byFile[name] = append(byFile[name], fn.Name.Name)
			}
		}
	}
	return byFile
}

// receiverType is the name of the type a receiver expression names
// ("Model" for Model, *Model and (*Model)), or "" for another shape.
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// fieldsOf counts the fields of the struct type named typ declared in
// files (a, b int counts two; an embedded type one), and reports whether
// it found that struct.
func fieldsOf(files []*ast.File, typ string) (int, bool) {
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if ts.Name.Name != typ || !ok {
					continue
				}
				n := 0
				for _, fl := range st.Fields.List {
					n += max(len(fl.Names), 1)
				}
				return n, true
			}
		}
	}
	return 0, false
}

// routerVerdict counts byFile's methods and, when they are
// maxRouterMethods or more, says so with the methods of each file (files
// sorted); "" when the router is under the limit.
func routerVerdict(byFile map[string][]string) (int, string) {
	n := 0
	for _, ms := range byFile {
		n += len(ms)
	}
	if n < maxRouterMethods {
		return n, ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the root model.%s has %d methods; the router must stay under %d (maxRouterMethods, #26: a feature goes into the component that owns it, never onto the root Model). Methods by file:",
		routerType, n, maxRouterMethods)
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	slices.Sort(files)
	for _, f := range files {
		fmt.Fprintf(&b, "\n  %s (%d): %s", f, len(byFile[f]), strings.Join(byFile[f], ", "))
	}
	return n, b.String()
}

// parseModel parses the non-test Go files of the root model package in
// dir, all of them (whatever their build constraints: a method in a file
// for one system is still on the router).
func parseModel(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name != "model" {
			t.Fatalf("%s is package %s, not model", n, f.Name.Name)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return files
}

// TestRouterMethods holds the root model.Model under maxRouterMethods
// methods and logs its fields.
func TestRouterMethods(t *testing.T) {
	fset := token.NewFileSet()
	files := parseModel(t, fset, filepath.Join("..", "..", "model"))
	fields, ok := fieldsOf(files, routerType)
	if !ok {
		t.Fatalf("no struct type %s in package model: the router moved, and this test counts nothing", routerType)
	}
	t.Logf("model.%s has %d fields", routerType, fields)
	n, bad := routerVerdict(methodsOn(fset, files, routerType))
	t.Logf("model.%s has %d methods (limit: under %d)", routerType, n, maxRouterMethods)
	if bad != "" {
		t.Error(bad)
	}
}

// modelSource is a file of package model with n methods on Model (pointer
// and value receivers, named and not), others on other types and a plain
// function, which none counts.
func modelSource(n int) string {
	var b strings.Builder
	b.WriteString("package model\n\ntype Model struct {\n\ta, b int\n\tc string\n\tOther\n}\n\ntype Other struct{}\n\ntype Models []Model\n\n")
	for i := range n {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "func (m *Model) M%d() {}\n", i)
		case 1:
			fmt.Fprintf(&b, "func (m Model) M%d() {}\n", i)
		default:
			fmt.Fprintf(&b, "func (*Model) M%d() {}\n", i)
		}
	}
	b.WriteString("func (o Other) X() {}\nfunc (o *Other) Y() {}\nfunc (ms Models) Z() {}\nfunc Plain(m *Model) {}\n")
	return b.String()
}

func TestMethodsOn(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		// want are the methods by file; nil checks only the count.
		want       map[string][]string
		wantN      int
		wantFields int
		wantBad    bool
	}{
		{
			name:       "only Model's methods count",
			files:      map[string]string{"m.go": modelSource(3)},
			want:       map[string][]string{"m.go": {"M0", "M1", "M2"}},
			wantN:      3,
			wantFields: 4,
		},
		{
			name: "by file, parenthesised receiver",
			files: map[string]string{
				"a.go": modelSource(1),
				"b.go": "package model\n\nfunc (m (*Model)) B1() {}\nfunc (o *Other) B2() {}\n",
				"c.go": "package model\n\nfunc (o Other) C1() {}\n",
			},
			want:       map[string][]string{"a.go": {"M0"}, "b.go": {"B1"}},
			wantN:      2,
			wantFields: 4,
		},
		{
			name:       "one under the limit",
			files:      map[string]string{"m.go": modelSource(maxRouterMethods - 1)},
			wantN:      maxRouterMethods - 1,
			wantFields: 4,
		},
		{
			name:       "at the limit fails",
			files:      map[string]string{"m.go": modelSource(maxRouterMethods)},
			wantN:      maxRouterMethods,
			wantFields: 4,
			wantBad:    true,
		},
		{
			name: "over the limit across files fails",
			files: map[string]string{
				"a.go": modelSource(maxRouterMethods - 1),
				"b.go": "package model\n\nfunc (m *Model) Extra() {}\n",
			},
			wantN:      maxRouterMethods,
			wantFields: 4,
			wantBad:    true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			var files []*ast.File
			names := make([]string, 0, len(tt.files))
			for n := range tt.files {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				f, err := parser.ParseFile(fset, n, tt.files[n], parser.SkipObjectResolution)
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, f)
			}
			got := methodsOn(fset, files, routerType)
			if tt.want != nil {
				for _, f := range names {
					if !slices.Equal(got[f], tt.want[f]) {
						t.Errorf("%s: methods %q, want %q", f, got[f], tt.want[f])
					}
				}
			}
			n, bad := routerVerdict(got)
			if n != tt.wantN {
				t.Errorf("routerVerdict counted %d, want %d", n, tt.wantN)
			}
			if (bad != "") != tt.wantBad {
				t.Errorf("routerVerdict = %q, want refused: %v", bad, tt.wantBad)
			}
			if tt.wantBad {
				for _, w := range append([]string{fmt.Sprintf("has %d methods", n)}, names...) {
					if !strings.Contains(bad, w) {
						t.Errorf("the verdict does not say %q: %q", w, bad)
					}
				}
			}
			if fields, ok := fieldsOf(files, routerType); !ok || fields != tt.wantFields {
				t.Errorf("fieldsOf = %d, %v, want %d, true", fields, ok, tt.wantFields)
			}
		})
	}
}

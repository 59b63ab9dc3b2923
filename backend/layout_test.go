package backend

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// fileGroups puts each of backend's source files in one of its four parts
// (doc.go says what each owns): a new file needs a row.
var fileGroups = map[string]string{
	// wire: the protocol's values, the method table and the decoders.
	"protocol.go": "wire", "items.go": "wire", "threads.go": "wire", "tools.go": "wire",
	"events.go": "wire", "events_more.go": "wire", "requests.go": "wire", "approvals.go": "wire",
	"questions.go": "wire", "answers.go": "wire", "autoreply.go": "wire", "recorded.go": "wire",
	"methods.go": "wire", "doc.go": "wire", "exectypes.go": "wire", "threadqueue.go": "wire",
	"threadsearch.go": "wire",
	// conn: JSON-RPC over any byte stream.
	"rpc.go": "conn", "retry.go": "conn", "silence.go": "conn",
	// client: the Session and its typed Client methods.
	"session.go": "client", "queue.go": "client", "client.go": "client", "calls.go": "client", "aside.go": "client", "fs.go": "client",
	"sandbox.go": "client", "skills.go": "client", "turns.go": "client", "images.go": "client", "stuck.go": "client", "resumecwd.go": "client",
	"lanes.go": "client", "exec.go": "client", "queuecalls.go": "client", "searchcalls.go": "client", "occurrences.go": "client",
	// transport: starting and reaching the app-server.
	"process.go": "transport", "ssh.go": "transport", "sshdaemon.go": "transport", "ws.go": "transport",
	"daemon.go": "transport", "daemonhome.go": "transport", "codexhome.go": "transport",
	"locate.go": "transport", "versions.go": "transport", "peer.go": "transport", "stderr.go": "transport",
	"ring.go": "transport", "redact.go": "transport", "reaper.go": "transport",
	"reaper_linux.go": "transport", "reaper_other.go": "transport", "startsteps.go": "transport", "sshstart.go": "transport",
}

// groupForbids is the imports (prefixes) each part may not use: the wire
// does no I/O and needs nothing of tandem; the connection reads and
// writes any byte stream but starts and dials nothing; the client reaches
// the peer only through its connection.
var groupForbids = map[string][]string{
	"wire": {"os", "io", "bufio", "net", "syscall", "log", "github.com/coder/websocket", "golang.org/x/sys",
		"tandem/"},
	"conn":   {"os/exec", "net", "github.com/coder/websocket", "golang.org/x/sys", "tandem/"},
	"client": {"os/exec", "net", "syscall", "github.com/coder/websocket", "golang.org/x/sys", "tandem/"},
}

// TestFileGroups keeps backend's parts apart (doc.go): every file is in
// fileGroups, each part keeps to its imports, and no transport names a
// protocol value (transports carry bytes; what they mean is the wire's).
func TestFileGroups(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
		group, ok := fileGroups[p]
		if !ok {
			t.Errorf("%s is in no part of backend: add it to fileGroups (and doc.go's list)", p)
			continue
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range groupForbids[group] {
				if path == bad || strings.HasPrefix(path, strings.TrimSuffix(bad, "/")+"/") {
					t.Errorf("%s (%s) imports %s", fset.Position(imp.Pos()), group, path)
				}
			}
		}
	}
	for p := range fileGroups {
		if _, ok := files[p]; !ok {
			t.Errorf("fileGroups names %s, which is gone", p)
		}
	}

	// The wire's exported package-level names.
	wire := map[string]bool{}
	add := func(id *ast.Ident) {
		if id.IsExported() {
			wire[id.Name] = true
		}
	}
	for p, f := range files {
		if fileGroups[p] != "wire" {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					add(d.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						add(s.Name)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n)
						}
					}
				}
			}
		}
	}
	if !wire["TurnStart"] || !wire["Item"] || !wire["DecodeNotification"] {
		t.Fatalf("found none of the wire's names (TurnStart, Item, DecodeNotification): the scan is broken")
	}
	// Each bare identifier of a transport file that is one of them (a
	// selector's field or method, a struct field and a literal's key are
	// not).
	var names []string
	for p, f := range files {
		if fileGroups[p] != "transport" {
			continue
		}
		skip := map[*ast.Ident]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				skip[n.Sel] = true
			case *ast.Field:
				for _, id := range n.Names {
					skip[id] = true
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					skip[id] = true
				}
			case *ast.FuncDecl:
				skip[n.Name] = true
			case *ast.Ident:
				if wire[n.Name] && !skip[n] {
					names = append(names, p+": "+n.Name)
				}
			}
			return true
		})
	}
	sort.Strings(names)
	names = slices.Compact(names)
	if len(names) > 0 {
		t.Errorf("transports name protocol values (keep them to bytes):\n  %s", strings.Join(names, "\n  "))
	}
}

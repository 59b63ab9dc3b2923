package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestProtocolDrift checks tandem's use of the app-server protocol against
// the JSON schema each tested codex generates (`codex app-server
// generate-json-schema --experimental`): $TANDEM_CODEX (the pinned one)
// and $TANDEM_CODEX_NEXT (the newest tested, set by scripts/test.sh).
//
//   - every method backend sends is in the table of methods.go
//     (clientMethods; parsing backend's source finds no connection's Call
//     or Notify past it), once; each Method is a ClientRequest method and
//     each Notification a ClientNotification one;
//   - the fields of the params it sends are properties of the method's
//     params in the schema, and those of the result it decodes (R; Empty
//     is not decoded) properties of its response, of a compatible JSON
//     kind;
//   - every notification DecodeNotification decodes is a
//     ServerNotification method and every kind of requestKinds a
//     ServerRequest method;
//   - the fields tandem decodes from those params (driftParams) are
//     properties of the schema, of a compatible JSON kind.
//
// All drift of one codex version is reported at once.
func TestProtocolDrift(t *testing.T) {
	src := parseProtocolUse(t)
	checkDriftTable(t, src)

	var bins []string
	for _, env := range []string{"TANDEM_CODEX", "TANDEM_CODEX_NEXT"} {
		if p := os.Getenv(env); p != "" {
			if _, err := os.Stat(p); err != nil {
				t.Fatalf("%s=%s: %v", env, p, err)
			}
			bins = append(bins, p)
		}
	}
	if len(bins) == 0 {
		t.Skip("neither $TANDEM_CODEX nor $TANDEM_CODEX_NEXT is set: no codex to compare the protocol with " +
			"(scripts/install-codex.sh prints the pinned one's path; scripts/test.sh sets both)")
	}
	seen := map[string]bool{}
	for _, bin := range bins {
		version := codexVersion(t, bin)
		if seen[version] {
			continue // both variables name the same codex
		}
		seen[version] = true
		t.Run(version, func(t *testing.T) {
			s := generateSchema(t, bin)
			problems, fields := protocolDrift(s, src)
			t.Logf("codex %s: %d methods sent, %d notifications and %d server requests decoded, %d sent and decoded fields compared",
				version, len(src.sent), len(src.notifications), len(src.requests), fields)
			var drift []string
			for _, p := range problems {
				if why, ok := driftAllowed[p]; ok {
					t.Logf("allowed drift: %s (%s)", p, why)
					continue
				}
				drift = append(drift, p)
			}
			if len(drift) > 0 {
				t.Errorf("codex %s (%s): %d protocol drift(s):\n  %s", version, bin, len(drift), strings.Join(drift, "\n  "))
			}
		})
	}
}

// driftAllowed is drift known to be harmless, with the reason.
var driftAllowed = map[string]string{
	// TurnStartedEvent and TurnCompletedEvent embed threadScoped, whose
	// turnId no codex sends with turn/started or turn/completed (the id
	// is params.turn.id): their TurnID is always "", and nothing reads it
	// (every consumer uses Turn.ID).
	"turn/completed params.turnId: no such property in the schema": "never sent; tandem reads turn.id",
	"turn/started params.turnId: no such property in the schema":   "never sent; tandem reads turn.id",
	// codex 0.171.0 dropped the currentTime/read server request: tandem
	// still answers it (with the clock) should an older codex ask, and a
	// newer one simply never does.
	`server request "currentTime/read" is not in ServerRequest`: "removed in codex 0.171.0; tandem's handler is unused there",
	// ThreadResponse is the result of thread/start, thread/resume and
	// thread/fork; only resume's has initialTurnsPage (the others leave
	// it nil).
	"thread/fork result.initialTurnsPage: no such property in the schema":  "ThreadResponse serves thread/resume too, whose result has it",
	"thread/start result.initialTurnsPage: no such property in the schema": "ThreadResponse serves thread/resume too, whose result has it",
}

// driftParams is the Go type each decoded notification and server request
// is decoded into: the fields checked against the schema. A row must match
// DecodeNotification's decode[T] or requestKinds' params type (the test
// checks that against the source); add one with each new notification or
// request kind.
var driftParams = map[string]reflect.Type{
	"turn/started":                              reflect.TypeFor[TurnStartedEvent](),
	"turn/completed":                            reflect.TypeFor[TurnCompletedEvent](),
	"item/started":                              reflect.TypeFor[ItemStartedEvent](),
	"item/completed":                            reflect.TypeFor[ItemCompletedEvent](),
	"item/agentMessage/delta":                   reflect.TypeFor[AgentMessageDeltaEvent](),
	"item/reasoning/summaryTextDelta":           reflect.TypeFor[ReasoningSummaryDeltaEvent](),
	"item/commandExecution/outputDelta":         reflect.TypeFor[CommandOutputDeltaEvent](),
	"item/fileChange/patchUpdated":              reflect.TypeFor[PatchUpdatedEvent](),
	"turn/plan/updated":                         reflect.TypeFor[PlanUpdatedEvent](),
	"turn/diff/updated":                         reflect.TypeFor[TurnDiffUpdatedEvent](),
	"thread/tokenUsage/updated":                 reflect.TypeFor[TokenUsageEvent](),
	"thread/status/changed":                     reflect.TypeFor[ThreadStatusEvent](),
	"account/rateLimits/updated":                reflect.TypeFor[RateLimitsEvent](),
	"error":                                     reflect.TypeFor[ErrorEvent](),
	"warning":                                   reflect.TypeFor[WarningEvent](),
	"configWarning":                             reflect.TypeFor[WarningEvent](),
	"deprecationNotice":                         reflect.TypeFor[WarningEvent](),
	"guardianWarning":                           reflect.TypeFor[WarningEvent](),
	"account/login/completed":                   reflect.TypeFor[LoginCompletedEvent](),
	"serverRequest/resolved":                    reflect.TypeFor[RequestResolvedEvent](),
	"thread/started":                            reflect.TypeFor[ThreadStartedEvent](),
	"mcpServer/oauthLogin/completed":            reflect.TypeFor[McpLoginEvent](),
	"hook/started":                              reflect.TypeFor[HookStartedEvent](),
	"hook/completed":                            reflect.TypeFor[HookCompletedEvent](),
	"mcpServer/startupStatus/updated":           reflect.TypeFor[McpStartupEvent](),
	"item/mcpToolCall/progress":                 reflect.TypeFor[McpProgressEvent](),
	"model/rerouted":                            reflect.TypeFor[ModelReroutedEvent](),
	"thread/name/updated":                       reflect.TypeFor[ThreadNameEvent](),
	"item/commandExecution/terminalInteraction": reflect.TypeFor[TerminalInteractionEvent](),
	"skills/changed":                            reflect.TypeFor[SkillsChangedEvent](),
	"thread/goal/updated":                       reflect.TypeFor[GoalUpdatedEvent](),
	"thread/goal/cleared":                       reflect.TypeFor[GoalClearedEvent](),
	"thread/queue/changed":                      reflect.TypeFor[ThreadQueueChangedEvent](),

	MethodCommandApproval:     reflect.TypeFor[CommandApprovalParams](),
	MethodFileChangeApproval:  reflect.TypeFor[FileChangeApprovalParams](),
	MethodExecCommandApproval: reflect.TypeFor[ExecCommandApprovalParams](),
	MethodApplyPatchApproval:  reflect.TypeFor[ApplyPatchApprovalParams](),
	MethodPermissionsApproval: reflect.TypeFor[PermissionsApprovalParams](),
	MethodToolCall:            reflect.TypeFor[ToolCallParams](),
	MethodUserInput:           reflect.TypeFor[UserInputParams](),
	MethodElicitation:         reflect.TypeFor[ElicitationParams](),
	MethodAuthTokensRefresh:   reflect.TypeFor[AuthTokensRefreshParams](),
	MethodAttestation:         reflect.TypeFor[struct{}](),
	MethodCurrentTime:         reflect.TypeFor[CurrentTimeParams](),
}

// protocolUse is what backend's source says about the protocol.
type protocolUse struct {
	sent          []methodSpec      // the table of methods.go
	notifications map[string]string // DecodeNotification case → decoded type
	requests      map[string]string // requestKinds method → params type
}

// checkDriftTable fails when driftParams and the source disagree: a row
// for a method no longer decoded, or a row of another type than the
// source decodes. A decoded method without a row is only logged: its
// method is still checked, its fields are not.
func checkDriftTable(t *testing.T, src protocolUse) {
	t.Helper()
	decoded := map[string]string{}
	for m, typ := range src.notifications {
		decoded[m] = typ
	}
	for m, typ := range src.requests {
		decoded[m] = typ
	}
	var untabled []string
	for m, typ := range decoded {
		rt, ok := driftParams[m]
		if !ok {
			untabled = append(untabled, m+" ("+typ+")")
			continue
		}
		name := strings.TrimPrefix(rt.String(), "backend.")
		if strings.ReplaceAll(name, " ", "") != strings.ReplaceAll(typ, " ", "") {
			t.Errorf("driftParams[%q] is %s, but the source decodes %s", m, name, typ)
		}
	}
	for m := range driftParams {
		if _, ok := decoded[m]; !ok {
			t.Errorf("driftParams has a row for %q, which backend no longer decodes", m)
		}
	}
	if len(untabled) > 0 {
		sort.Strings(untabled)
		t.Errorf("decoded methods with no driftParams row (add one, so their fields are checked): %s", strings.Join(untabled, ", "))
	}
}

// parseProtocolUse parses backend's non-test Go files.
func parseProtocolUse(t *testing.T) protocolUse {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	r := &resolver{fset: fset, consts: map[string]string{}, funcs: map[string][]*ast.FuncDecl{}}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				r.funcs[d.Name.Name] = append(r.funcs[d.Name.Name], d)
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if s, ok := stringLit(vs.Values[i]); ok {
								r.consts[name.Name] = s
							}
						}
					}
				}
			}
		}
	}

	use := protocolUse{notifications: map[string]string{}, requests: map[string]string{}}
	var errs []string
	// Every request and notification goes out through the table: a
	// connection's Call or Notify anywhere else sends past it.
	r.eachCall(func(call *ast.CallExpr, fn *ast.FuncDecl) {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !strings.HasSuffix(strings.ToLower(types.ExprString(sel.X)), "conn") {
			return
		}
		if sel.Sel.Name == "Call" && len(call.Args) == 4 || sel.Sel.Name == "Notify" && len(call.Args) == 2 {
			errs = append(errs, fmt.Sprintf("%s: %s sends %s past the table of methods.go (declare a Method and use its Call or Do)",
				fset.Position(call.Pos()), fn.Name.Name, types.ExprString(call)))
		}
	})
	named := map[string]bool{}
	for _, m := range clientMethods {
		if named[m.name] {
			errs = append(errs, fmt.Sprintf("methods.go declares %q twice", m.name))
		}
		named[m.name] = true
		use.sent = append(use.sent, m)
	}
	sort.Slice(use.sent, func(i, j int) bool { return use.sent[i].name < use.sent[j].name })

	// DecodeNotification: case "a", "b": ev, err = decode[T](params)
	for _, fn := range r.funcs["DecodeNotification"] {
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok {
				return true
			}
			var typ string
			ast.Inspect(&ast.BlockStmt{List: cc.Body}, func(n ast.Node) bool {
				if ix, ok := n.(*ast.IndexExpr); ok && typ == "" {
					if id, ok := ix.X.(*ast.Ident); ok && id.Name == "decode" {
						typ = types.ExprString(ix.Index)
					}
				}
				return typ == ""
			})
			for _, e := range cc.List {
				m, ok := stringLit(e)
				if !ok {
					errs = append(errs, fmt.Sprintf("%s: DecodeNotification case %s is not a string literal", fset.Position(e.Pos()), types.ExprString(e)))
					continue
				}
				if typ == "" {
					errs = append(errs, fmt.Sprintf("%s: DecodeNotification case %q: no decode[T] call", fset.Position(e.Pos()), m))
				}
				use.notifications[m] = typ
			}
			return false
		})
	}

	// requestKinds: kind(MethodX, key, func(b *Request, p P) ServerRequest {…})
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if name.Name != "requestKinds" || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.CompositeLit)
					if !ok {
						errs = append(errs, "requestKinds is not a composite literal")
						continue
					}
					for _, el := range lit.Elts {
						call, ok := el.(*ast.CallExpr)
						if !ok || len(call.Args) != 3 {
							errs = append(errs, fmt.Sprintf("%s: requestKinds row is not kind(method, key, build)", fset.Position(el.Pos())))
							continue
						}
						m, err := r.resolve(call.Args[0])
						if err != nil {
							errs = append(errs, fmt.Sprintf("%s: requestKinds method: %v", fset.Position(el.Pos()), err))
							continue
						}
						typ := ""
						if fl, ok := call.Args[2].(*ast.FuncLit); ok {
							if ps := fl.Type.Params.List; len(ps) == 2 {
								typ = types.ExprString(ps[1].Type)
							}
						}
						if typ == "" {
							errs = append(errs, fmt.Sprintf("%s: requestKinds %q: build is not func(*Request, P)", fset.Position(el.Pos()), m))
						}
						use.requests[m] = typ
					}
				}
			}
		}
	}

	for _, want := range []string{"initialize", "initialized", "turn/start", "thread/start", "thread/fork"} {
		if !named[want] {
			errs = append(errs, fmt.Sprintf("clientMethods has no %q: the table is not read", want))
		}
	}
	if len(use.notifications) == 0 || len(use.requests) == 0 {
		errs = append(errs, "found no DecodeNotification cases or requestKinds rows: the source scan is broken")
	}
	if len(errs) > 0 {
		t.Fatalf("reading backend's protocol use:\n  %s", strings.Join(errs, "\n  "))
	}
	return use
}

// resolver finds the string value an expression of backend's source has:
// a literal or a constant.
type resolver struct {
	fset   *token.FileSet
	consts map[string]string
	funcs  map[string][]*ast.FuncDecl
}

// eachCall calls f for every call in a function body, with the function.
func (r *resolver) eachCall(f func(*ast.CallExpr, *ast.FuncDecl)) {
	for _, fns := range r.funcs {
		for _, fn := range fns {
			if fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					f(c, fn)
				}
				return true
			})
		}
	}
}

func (r *resolver) resolve(e ast.Expr) (string, error) {
	if s, ok := stringLit(e); ok {
		return s, nil
	}
	if id, ok := e.(*ast.Ident); ok {
		if s, ok := r.consts[id.Name]; ok {
			return s, nil
		}
	}
	return "", fmt.Errorf("%s: cannot tell which method %s is", r.fset.Position(e.Pos()), types.ExprString(e))
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// codexVersion returns the version `codex --version` prints.
func codexVersion(t *testing.T, bin string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		t.Fatalf("%s --version printed nothing", bin)
	}
	return f[len(f)-1]
}

// schemaFiles is one codex's generated JSON schema: every file, by its
// path without ".json" (ClientRequest, ServerNotification,
// v2/TurnStartResponse …), each with its own definitions.
type schemaFiles map[string]map[string]any

// generateSchema runs `codex app-server generate-json-schema` in a scratch
// HOME and CODEX_HOME and reads the files it writes.
func generateSchema(t *testing.T, bin string) schemaFiles {
	t.Helper()
	home := t.TempDir()
	out := filepath.Join(t.TempDir(), "schema")
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "app-server", "generate-json-schema", "--experimental", "--out", out)
	cmd.Env = append(os.Environ(), "HOME="+home, "CODEX_HOME="+home)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s app-server generate-json-schema: %v\n%s", bin, err, b)
	}
	s := schemaFiles{}
	err := filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, _ := filepath.Rel(out, path)
		s[strings.TrimSuffix(filepath.ToSlash(rel), ".json")] = doc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ClientRequest", "ClientNotification", "ServerNotification", "ServerRequest"} {
		if s[name] == nil {
			t.Fatalf("the schema has no %s.json", name)
		}
	}
	return s
}

// response returns the schema file of the response to a client request
// whose params schema is params: codex names it after the params type
// (TurnStartParams → TurnStartResponse, in v2/, v1/ or the top level),
// and nil when params names no type (a method without params).
func (s schemaFiles) response(params any) map[string]any {
	ref := firstRef(params)
	name, ok := strings.CutSuffix(strings.TrimPrefix(ref, "#/definitions/"), "Params")
	if !ok {
		return nil
	}
	for _, dir := range []string{"v2/", "v1/", ""} {
		if doc := s[dir+name+"Response"]; doc != nil {
			return doc
		}
	}
	return nil
}

// firstRef is the first $ref in a schema node (a nullable params schema
// is anyOf a $ref and null).
func firstRef(node any) string {
	n := asMap(node)
	if ref, ok := n["$ref"].(string); ok {
		return ref
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		subs, _ := n[key].([]any)
		for _, sub := range subs {
			if ref := firstRef(sub); ref != "" {
				return ref
			}
		}
	}
	return ""
}

// methods returns a message union's methods (its variants' method enum)
// and each one's params schema.
func (s schemaFiles) methods(file string) map[string]any {
	out := map[string]any{}
	variants, _ := s[file]["oneOf"].([]any)
	for _, v := range variants {
		props, _ := asMap(v)["properties"].(map[string]any)
		enum, _ := asMap(props["method"])["enum"].([]any)
		for _, m := range enum {
			if m, ok := m.(string); ok {
				out[m] = props["params"]
			}
		}
	}
	return out
}

// protocolDrift lists every difference between src and one codex's
// schema, and how many decoded fields it compared.
func protocolDrift(s schemaFiles, src protocolUse) ([]string, int) {
	var out []string
	clientReq, clientNote := s.methods("ClientRequest"), s.methods("ClientNotification")
	serverNote, serverReq := s.methods("ServerNotification"), s.methods("ServerRequest")
	fields := 0
	for _, m := range src.sent {
		file, schema := "ClientRequest", clientReq
		if m.result == nil {
			file, schema = "ClientNotification", clientNote
		}
		params, ok := schema[m.name]
		if !ok {
			out = append(out, fmt.Sprintf("client method %q is not in %s", m.name, file))
			continue
		}
		w := &schemaWalk{defs: asMap(s[file]["definitions"]), sends: true}
		w.check(m.params, w.alts(params, 0), m.name+" params", 0)
		if m.result != nil && m.result != reflect.TypeFor[Empty]() {
			doc := s.response(params)
			if doc == nil {
				out = append(out, fmt.Sprintf("client method %q: the schema has no response for params %s", m.name, firstRef(params)))
			} else {
				rw := &schemaWalk{defs: asMap(doc["definitions"])}
				rw.check(m.result, rw.alts(doc, 0), m.name+" result", 0)
				w.problems, w.fields = append(w.problems, rw.problems...), w.fields+rw.fields
			}
		}
		out = append(out, w.problems...)
		fields += w.fields
	}
	// Methods decoded into one Go type are checked together: a field
	// belongs if any of them has it (WarningEvent serves four).
	type group struct {
		methods []string
		params  []any
		doc     map[string]any
	}
	groups := map[reflect.Type]*group{}
	add := func(decoded map[string]string, schema map[string]any, file, what string) {
		for m := range decoded {
			params, ok := schema[m]
			if !ok {
				out = append(out, fmt.Sprintf("%s %q is not in %s", what, m, file))
				continue
			}
			rt, ok := driftParams[m]
			if !ok {
				continue // no row: fields not checked (logged by checkDriftTable)
			}
			g := groups[rt]
			if g == nil {
				g = &group{doc: s[file]}
				groups[rt] = g
			}
			g.methods = append(g.methods, m)
			g.params = append(g.params, params)
		}
	}
	add(src.notifications, serverNote, "ServerNotification", "notification")
	add(src.requests, serverReq, "ServerRequest", "server request")
	for rt, g := range groups {
		sort.Strings(g.methods)
		w := &schemaWalk{defs: asMap(g.doc["definitions"])}
		var alts []map[string]any
		for _, p := range g.params {
			alts = append(alts, w.alts(p, 0)...)
		}
		w.check(rt, alts, strings.Join(g.methods, "|")+" params", 0)
		out = append(out, w.problems...)
		fields += w.fields
	}
	sort.Strings(out)
	return out, fields
}

// schemaWalk checks Go types against one schema document.
type schemaWalk struct {
	defs     map[string]any
	sends    bool // the type is sent (a client method's params), not decoded
	problems []string
	fields   int // struct fields compared
}

var (
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// check compares Go type rt, decoded at path, with the schema
// alternatives alts (any of which may match).
func (w *schemaWalk) check(rt reflect.Type, alts []map[string]any, path string, depth int) {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt == rawMessageType || rt.Kind() == reflect.Interface || depth > 20 {
		return
	}
	kinds := map[string]bool{}
	for _, a := range alts {
		for k := range schemaKinds(a) {
			kinds[k] = true
		}
	}
	if kinds["any"] {
		return
	}
	want := goJSONKind(rt)
	if !kinds[want] {
		var have []string
		for k := range kinds {
			have = append(have, k)
		}
		sort.Strings(have)
		verb := "decodes"
		if w.sends {
			verb = "sends"
		}
		w.problems = append(w.problems, fmt.Sprintf("%s: tandem %s %s (%s), the schema has %s", path, verb, want, rt, strings.Join(have, "|")))
		return
	}
	if reflect.PointerTo(rt).Implements(unmarshalerType) {
		return // its own decoding; the kind check is all we can say
	}
	var objs, arrays []map[string]any
	for _, a := range alts {
		k := schemaKinds(a)
		if k["object"] {
			objs = append(objs, a)
		}
		if k["array"] {
			arrays = append(arrays, a)
		}
	}
	switch rt.Kind() {
	case reflect.Slice, reflect.Array:
		if rt.Elem().Kind() == reflect.Uint8 {
			return
		}
		var items []map[string]any
		for _, a := range arrays {
			if it, ok := a["items"]; ok {
				if _, tuple := it.([]any); !tuple {
					items = append(items, w.alts(it, 0)...)
					continue
				}
			}
			return // no (or tuple) item schema: nothing to compare
		}
		w.check(rt.Elem(), items, path+"[]", depth+1)
	case reflect.Map:
		var vals []map[string]any
		for _, o := range objs {
			ap, ok := o["additionalProperties"]
			if !ok || ap == true {
				return
			}
			if ap == false {
				continue
			}
			vals = append(vals, w.alts(ap, 0)...)
		}
		if len(vals) > 0 {
			w.check(rt.Elem(), vals, path+"{}", depth+1)
		}
	case reflect.Struct:
		for _, f := range jsonFields(rt) {
			var sub []map[string]any
			open := false
			for _, o := range objs {
				props, _ := o["properties"].(map[string]any)
				p, ok := props[f.name]
				if !ok && f.untagged {
					for k, v := range props {
						if strings.EqualFold(k, f.name) {
							p, ok = v, true
						}
					}
				}
				if ok {
					sub = append(sub, w.alts(p, 0)...)
					continue
				}
				if ap, has := o["additionalProperties"]; len(props) == 0 && (!has || ap != false) {
					open = true // a free-form object: any name goes
				}
			}
			fp := path + "." + f.name
			w.fields++
			switch {
			case len(sub) > 0:
				w.check(f.typ, sub, fp, depth+1)
			case !open:
				w.problems = append(w.problems, fmt.Sprintf("%s: no such property in the schema", fp))
			}
		}
	}
}

// jsonField is one field as encoding/json decodes it.
type jsonField struct {
	name     string
	untagged bool
	typ      reflect.Type
}

// jsonFields lists rt's JSON fields, with embedded structs' fields merged
// in (tagless embedding, exported or not) as encoding/json does.
func jsonFields(rt reflect.Type) []jsonField {
	var out []jsonField
	for i := range rt.NumField() {
		f := rt.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, jsonFields(et)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		out = append(out, jsonField{name: orName(name, f.Name), untagged: name == "", typ: f.Type})
	}
	return out
}

func orName(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// goJSONKind is the JSON kind encoding/json decodes into rt.
func goJSONKind(rt reflect.Type) string {
	switch rt.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		if rt.Elem().Kind() == reflect.Uint8 {
			return "string" // base64
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return rt.Kind().String()
}

// schemaKinds is the set of JSON kinds one resolved alternative allows
// ("integer" counts as "number"; "any" when it does not say).
func schemaKinds(a map[string]any) map[string]bool {
	out := map[string]bool{}
	switch t := a["type"].(type) {
	case string:
		out[normKind(t)] = true
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				out[normKind(s)] = true
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	_, props := a["properties"]
	_, addl := a["additionalProperties"]
	_, items := a["items"]
	switch {
	case props || addl:
		out["object"] = true
	case items:
		out["array"] = true
	case a["enum"] != nil || a["const"] != nil:
		vals, _ := a["enum"].([]any)
		if c, ok := a["const"]; ok {
			vals = append(vals, c)
		}
		for _, v := range vals {
			out[valueKind(v)] = true
		}
	default:
		out["any"] = true
	}
	return out
}

func normKind(k string) string {
	if k == "integer" {
		return "number"
	}
	return k
}

func valueKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	}
	return "object"
}

// alts resolves a schema node into the alternatives a value may match:
// $ref is followed, allOf merged, anyOf and oneOf give one alternative per
// variant (merged with the node's own keywords, such as the properties a
// oneOf's variants share).
func (w *schemaWalk) alts(node any, depth int) []map[string]any {
	if b, ok := node.(bool); ok {
		if b {
			return []map[string]any{{}}
		}
		return nil
	}
	n := asMap(node)
	if depth > 30 {
		return []map[string]any{{}}
	}
	base := map[string]any{}
	for k, v := range n {
		switch k {
		case "$ref", "allOf", "anyOf", "oneOf":
		default:
			base[k] = v
		}
	}
	out := []map[string]any{base}
	if ref, ok := n["$ref"].(string); ok {
		def, found := w.defs[strings.TrimPrefix(ref, "#/definitions/")]
		if !found || !strings.HasPrefix(ref, "#/definitions/") {
			return []map[string]any{{}} // unknown reference: unconstrained
		}
		out = product(out, w.alts(def, depth+1))
	}
	if all, ok := n["allOf"].([]any); ok {
		for _, sub := range all {
			out = product(out, w.alts(sub, depth+1))
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if subs, ok := n[key].([]any); ok {
			var union []map[string]any
			for _, sub := range subs {
				union = append(union, w.alts(sub, depth+1)...)
			}
			out = product(out, union)
		}
	}
	return out
}

// product merges every a with every b.
func product(as, bs []map[string]any) []map[string]any {
	var out []map[string]any
	for _, a := range as {
		for _, b := range bs {
			out = append(out, merge(a, b))
		}
	}
	return out
}

// merge combines two schema objects a value must both match: properties
// are joined, types intersected, other keywords taken from either.
func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		switch k {
		case "properties":
			props := map[string]any{}
			for pk, pv := range asMap(out["properties"]) {
				props[pk] = pv
			}
			for pk, pv := range asMap(v) {
				props[pk] = pv
			}
			out[k] = props
		case "type":
			if prev, ok := out[k]; ok {
				out[k] = intersectTypes(prev, v)
			} else {
				out[k] = v
			}
		default:
			if _, ok := out[k]; !ok {
				out[k] = v
			}
		}
	}
	return out
}

func intersectTypes(a, b any) any {
	set := func(v any) map[string]bool {
		m := map[string]bool{}
		switch t := v.(type) {
		case string:
			m[t] = true
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok {
					m[s] = true
				}
			}
		}
		return m
	}
	sb := set(b)
	var out []any
	for k := range set(a) {
		if sb[k] || (k == "number" && sb["integer"]) || (k == "integer" && sb["number"]) {
			out = append(out, k)
		}
	}
	return out
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// TestProtocolDriftWalk checks the schema comparison itself on a small
// schema: unions, $ref, nullable types, maps, embedded fields and paths.
func TestProtocolDriftWalk(t *testing.T) {
	const doc = `{"definitions": {
		"Params": {"type": "object", "properties": {
			"threadId": {"type": "string"},
			"item": {"$ref": "#/definitions/Item"},
			"count": {"type": ["integer", "null"]},
			"files": {"type": "object", "additionalProperties": {"$ref": "#/definitions/File"}},
			"raw": true}},
		"Item": {"oneOf": [
			{"type": "object", "properties": {"type": {"enum": ["a"]}, "text": {"type": "string"}}},
			{"type": "object", "properties": {"type": {"enum": ["b"]}, "changes": {"type": "array", "items": {"$ref": "#/definitions/Change"}}}}]},
		"Change": {"type": "object", "properties": {"path": {"type": "string"}, "kind": {"$ref": "#/definitions/Kind"}}},
		"Kind": {"oneOf": [
			{"type": "object", "properties": {"type": {"type": "string", "enum": ["add"]}}},
			{"type": "object", "properties": {"type": {"type": "string", "enum": ["update"]}, "move_path": {"type": ["string", "null"]}}}]},
		"File": {"allOf": [{"properties": {"content": {"type": "string"}}}, {"type": "object"}]}}}`
	type fixture struct {
		threadScoped
		Item struct {
			Type    string `json:"type"`
			Text    string `json:"text"`
			Changes []struct {
				Path string `json:"path"`
				Kind struct {
					Type     int     `json:"type"`
					MovePath *string `json:"move_path"`
				} `json:"kind"`
			} `json:"changes"`
		} `json:"item"`
		Count *string `json:"count"`
		Files map[string]struct {
			Content string `json:"content"`
			Extra   bool   `json:"extra"`
		} `json:"files"`
		Raw    json.RawMessage `json:"raw"`
		Hidden string          `json:"-"`
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	w := &schemaWalk{defs: asMap(d["definitions"])}
	w.check(reflect.TypeFor[fixture](), w.alts(map[string]any{"$ref": "#/definitions/Params"}, 0), "x params", 0)
	sort.Strings(w.problems)
	want := []string{
		"x params.count: tandem decodes string (string), the schema has null|number",
		"x params.files{}.extra: no such property in the schema",
		"x params.item.changes[].kind.type: tandem decodes number (int), the schema has string",
		"x params.turnId: no such property in the schema",
	}
	if !reflect.DeepEqual(w.problems, want) {
		t.Errorf("problems:\n  %s\nwant:\n  %s", strings.Join(w.problems, "\n  "), strings.Join(want, "\n  "))
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tandem/internal/testkit/mockapi"
)

// webSearchTool returns the web_search tool the request offers the model
// ("" when none), as JSON.
func webSearchTool(raw json.RawMessage) string {
	var b struct {
		Tools []json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(raw, &b)
	for _, t := range b.Tools {
		var h struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(t, &h) == nil && h.Type == "web_search" {
			return string(t)
		}
	}
	return ""
}

// --search reaches the provider: the request offers codex's web_search
// tool with live access; without it, no live web search.
func TestSearchReachesProvider(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("plain")}}, mockapi.Response{Items: []mockapi.Item{mockapi.Text("searched")}})
	if _, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "no search"); err != nil {
		t.Fatalf("exec: %v\n%s", err, errOut)
	}
	if _, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "--search", "search"); err != nil {
		t.Fatalf("exec --search: %v\n%s", err, errOut)
	}
	reqs, err := env.Mock.WaitRequests(2, patience)
	if err != nil {
		t.Fatal(err)
	}
	plain, searched := webSearchTool(reqs[0].Raw), webSearchTool(reqs[1].Raw)
	if searched == "" || !strings.Contains(searched, `"external_web_access":true`) {
		t.Errorf("with --search the tools are %q; web_search tool %s", reqs[1].ToolNames(), searched)
	}
	if strings.Contains(plain, `"external_web_access":true`) {
		t.Errorf("without --search the request has live web search: %s", plain)
	}
}

// --add-dir is merged with the user's writable roots, never replacing
// them: with writable_roots = [A] in codex's config.toml (and /tmp not
// writable) and --add-dir B, thread/start's sandbox has both, and a
// command the agent runs under workspace-write can write into A and B but
// not into C. Then a sandbox chosen for a turn (turn/start's
// sandboxPolicy, as /approvals sends it) keeps them too.
func TestAddDirMergesWritableRoots(t *testing.T) {
	base := t.TempDir()
	a, b, c := filepath.Join(base, "A"), filepath.Join(base, "B"), filepath.Join(base, "C")
	for _, d := range []string{a, b, c} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	touch := "touch " + a + "/x; touch " + b + "/y; touch " + c + "/z; true"
	env := execEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand(touch)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("wrote")}},
	)
	f, err := os.OpenFile(filepath.Join(env.Home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("\n[sandbox_workspace_write]\nwritable_roots = [" + strconvQuote(a) + "]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n")
	f.Close()
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	if _, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "-a", "never", "-s", "workspace-write",
		"--add-dir", b, "--trace-protocol", trace, "write the files"); err != nil {
		t.Fatalf("exec: %v\n%s", err, errOut)
	}
	if _, err := os.Stat(filepath.Join(a, "x")); err != nil {
		t.Errorf("the config's writable root A was not writable: %v", err)
	}
	if _, err := os.Stat(filepath.Join(b, "y")); err != nil {
		t.Errorf("the --add-dir root B was not writable: %v", err)
	}
	if _, err := os.Stat(filepath.Join(c, "z")); err == nil {
		t.Errorf("C, in neither, was writable: the sandbox did not hold (the test proves nothing)")
	}
	roots := startedRoots(t, trace)
	if !slices.Contains(roots, a) || !slices.Contains(roots, b) {
		t.Errorf("thread/start's sandbox has writable roots %q, want %s and %s", roots, a, b)
	}
}

// startedRoots reads the thread/start answer's sandbox writable roots
// from a --trace-protocol file.
func startedRoots(t *testing.T, trace string) []string {
	t.Helper()
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		var tl struct {
			Dir string `json:"dir"`
			Msg struct {
				Result struct {
					Thread  *json.RawMessage `json:"thread"`
					Sandbox struct {
						WritableRoots []string `json:"writableRoots"`
					} `json:"sandbox"`
				} `json:"result"`
			} `json:"msg"`
		}
		if json.Unmarshal([]byte(line), &tl) == nil && tl.Dir == "recv" && tl.Msg.Result.Thread != nil {
			return tl.Msg.Result.Sandbox.WritableRoots
		}
	}
	t.Fatalf("no thread/start answer in the trace:\n%s", data)
	return nil
}

// -p NAME applies codex's own profile, $CODEX_HOME/NAME.config.toml: its
// model reaches the provider; tandem's [profiles.NAME] of the same name
// applies too (its sandbox), and a flag still beats both.
func TestCodexProfileReachesProvider(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("a")}}, mockapi.Response{Items: []mockapi.Item{mockapi.Text("b")}})
	if err := os.WriteFile(filepath.Join(env.Home, "work.config.toml"), []byte("model = \"profile-model\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[profiles.work]\nsandbox = \"read-only\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	if _, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "--config", cfg, "-p", "work", "--trace-protocol", trace, "one"); err != nil {
		t.Fatalf("exec -p work: %v\n%s", err, errOut)
	}
	if _, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "--profile", "work", "-m", "flag-model", "two"); err != nil {
		t.Fatalf("exec --profile work -m: %v\n%s", err, errOut)
	}
	reqs, err := env.Mock.WaitRequests(2, patience)
	if err != nil {
		t.Fatal(err)
	}
	if reqs[0].Model() != "profile-model" || reqs[1].Model() != "flag-model" {
		t.Errorf("models %q, %q; want profile-model, flag-model", reqs[0].Model(), reqs[1].Model())
	}
	data, _ := os.ReadFile(trace)
	if !strings.Contains(string(data), `"sandbox":"read-only"`) {
		t.Errorf("tandem's [profiles.work] sandbox was not sent with thread/start")
	}
}

// --yolo: thread/start asks for approval never and no sandbox, and the
// server's answer says so.
func TestYoloStartsUnsandboxed(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("ok")}})
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	if _, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "--yolo", "--trace-protocol", trace, "go"); err != nil {
		t.Fatalf("exec --yolo: %v\n%s", err, errOut)
	}
	data, _ := os.ReadFile(trace)
	for _, want := range []string{`"approvalPolicy":"never","sandbox":"danger-full-access"`, `"sandbox":{"type":"dangerFullAccess"}`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("no %s in the protocol trace", want)
		}
	}
}

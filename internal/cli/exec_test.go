package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tandem/backend"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

// execEnv isolates a tandem run: CODEX_HOME is the e2e env's, and the
// config and state dirs are empty temp dirs (no user config leaks in).
func execEnv(t *testing.T, responses ...mockapi.Response) *e2e.Env {
	t.Helper()
	env := e2e.NewEnv(t, responses...)
	t.Setenv("CODEX_HOME", env.Home)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("NO_COLOR", "")
	return env
}

// runTandem runs the tandem command in-process with args and stdin and
// returns stdout, stderr and the error Execute returned.
func runTandem(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := newRootCmd()
	cmd.SetArgs(args)
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	err := cmd.ExecuteContext(ctx)
	return stdout.String(), stderr.String(), err
}

func TestExecText(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("The answer is **42**.\n\n- one\n- two")}})
	out, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "what is it?")
	if err != nil {
		t.Fatalf("exec: %v\nstderr: %s", err, errOut)
	}
	// stdout is not a terminal: the Markdown source, nothing else.
	if want := "The answer is **42**.\n\n- one\n- two\n"; out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	reqs, err := env.Mock.WaitRequests(1, patience)
	if err != nil || reqs[0].LastUserText() != "what is it?" {
		t.Errorf("the prompt did not reach the model: %v", err)
	}
}

func TestExecPromptFromStdin(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("ok")}})
	out, errOut, err := runTandem(t, "prompt from a pipe\n", "exec", "--codex", env.Codex, "-C", env.Dir, "-")
	if err != nil || out != "ok\n" {
		t.Fatalf("exec -: %q %v\nstderr: %s", out, err, errOut)
	}
	reqs, _ := env.Mock.WaitRequests(1, patience)
	if got := reqs[0].LastUserText(); !strings.Contains(got, "prompt from a pipe") {
		t.Errorf("model got %q", got)
	}
}

func TestExecJSONDeclinesApprovalByDefault(t *testing.T) {
	env := execEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo hi > out.txt")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("It was declined.")}, Usage: mockapi.Usage{InputTokens: 900, OutputTokens: 12}},
	)
	out, errOut, err := runTandem(t, "", "exec", "--json", "--codex", env.Codex, "-C", env.Dir, "-a", "untrusted", "-s", "workspace-write", "write a file")
	if err != nil {
		t.Fatalf("exec: %v\nstderr: %s", err, errOut)
	}
	var types []string
	var declined, cmdDeclined bool
	var final map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not a JSON line: %q: %v", sc.Text(), err)
		}
		typ, _ := ev["type"].(string)
		types = append(types, typ)
		switch typ {
		case "approval.declined":
			declined = strings.Contains(ev["command"].(string), "echo hi > out.txt")
		case "item.completed":
			if it := ev["item"].(map[string]any); it["type"] == "commandExecution" && it["status"] == "declined" {
				cmdDeclined = true
			}
		case "turn.completed":
			final = ev
		}
	}
	for _, want := range []string{"thread.started", "turn.started", "item.started", "approval.declined", "item.completed", "turn.completed"} {
		if !slices.Contains(types, want) {
			t.Errorf("no %s event in %v", want, types)
		}
	}
	if types[len(types)-1] != "turn.completed" {
		t.Errorf("last event %q", types[len(types)-1])
	}
	if !declined || !cmdDeclined {
		t.Errorf("approval declined event %v, command item declined %v", declined, cmdDeclined)
	}
	if u, _ := final["usage"].(map[string]any); u == nil || u["output_tokens"].(float64) != 12 {
		t.Errorf("turn.completed usage: %v", final["usage"])
	}
	if _, err := os.Stat(filepath.Join(env.Dir, "out.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the declined command ran: %v", err)
	}
	reqs, err := env.Mock.WaitRequests(2, patience)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range reqs[1].FunctionCallOutputs() {
		if !strings.Contains(o, "rejected") {
			t.Errorf("model saw %q, want a rejection", o)
		}
	}
}

func TestExecAskUserQuestionIsDeclinedToolCall(t *testing.T) {
	env := execEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.CallID("call_q", "ask_user_question", `{"questions":[{"question":"Which one?","options":[{"label":"A"},{"label":"B"}]}]}`)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Went with A.")}},
	)
	out, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "choose")
	if err != nil || out != "Went with A.\n" {
		t.Fatalf("exec: %q %v\nstderr: %s", out, err, errOut)
	}
	if !strings.Contains(errOut, "declined ask_user_question") {
		t.Errorf("stderr %q does not say the question was declined", errOut)
	}
	reqs, err := env.Mock.WaitRequests(2, patience)
	if err != nil {
		t.Fatal(err)
	}
	if o := reqs[1].FunctionCallOutputs()["call_q"]; !strings.Contains(o, "non-interactively") {
		t.Errorf("tool output %q", o)
	}
}

// TestExecMCPServerPerRunHome configures an MCP server (this test binary
// as a stdio MCP server, see mcpprobe_test.go): the run gets a per-run CODEX_HOME whose config
// codex reads — the model is offered the server's tools — and which is
// gone afterwards, with the shared CODEX_HOME untouched.
func TestExecMCPServerPerRunHome(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("ok")}})
	before, _ := os.ReadFile(filepath.Join(env.Home, "config.toml"))
	cfg := filepath.Join(t.TempDir(), "config.toml")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	text := "[mcp_servers.inner]\ncommand = " + strconvQuote(self) + "\nenv = { TANDEM_TEST_MCP_SERVER = \"1\" }\nstartup_timeout_sec = 20\n"
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runTandem(t, "", "exec", "--config", cfg, "--codex", env.Codex, "-C", env.Dir, "hi")
	if err != nil || out != "ok\n" {
		t.Fatalf("exec: %q %v\nstderr: %s", out, err, errOut)
	}
	reqs, err := env.Mock.WaitRequests(1, patience)
	if err != nil {
		t.Fatal(err)
	}
	// codex offers MCP tools in a namespace per server.
	if names := reqs[0].ToolNames(); !slices.Contains(names, "mcp__inner") || !strings.Contains(string(reqs[0].Raw), "probe_echo") {
		t.Errorf("MCP server inner's tool probe_echo not offered to the model: %v", names)
	}
	homes, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "tandem", "homes"))
	if len(homes) != 0 {
		t.Errorf("per-run home left behind: %v", homes)
	}
	after, _ := os.ReadFile(filepath.Join(env.Home, "config.toml"))
	if !bytes.Equal(before, after) {
		t.Errorf("shared config.toml changed")
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestExecBinaryExitStatus builds tandem and checks the exit status of a
// failed turn, of a dead app-server and of a bad config file.
func TestExecBinaryExitStatus(t *testing.T) {
	env := execEnv(t, mockapi.Response{FailStatus: 401, FailMessage: "bad key"})
	bin := filepath.Join(t.TempDir(), "tandem")
	build := exec.Command("go", "build", "-o", bin, "tandem") // the main package, from internal/cli
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := func(args ...string) (string, string, int) {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return stdout.String(), stderr.String(), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), 0
	}

	out, errOut, code := run("exec", "--codex", env.Codex, "-C", env.Dir, "hi")
	if code != 1 || out != "" || !strings.Contains(errOut, "turn failed") || !strings.Contains(errOut, "401") {
		t.Errorf("failed turn: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	// An app-server that dies at once.
	dead := filepath.Join(t.TempDir(), "codex")
	if err := os.WriteFile(dead, []byte("#!/bin/sh\necho 'boom: cannot start' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = run("exec", "--codex", dead, "-C", env.Dir, "hi")
	if code != 1 || !strings.Contains(errOut, "boom: cannot start") {
		t.Errorf("dead server: exit %d, stderr %q", code, errOut)
	}

	bad := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(bad, []byte("model = \"m\"\n\nsandbox = \"wide-open\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = run("exec", "--config", bad, "hi")
	if want := bad + ":3: sandbox: invalid value \"wide-open\": allowed values are read-only, workspace-write, danger-full-access"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("bad config: exit %d, stderr %q, want %q", code, errOut, want)
	}
}

func TestExecApprovalNeverRunsCommand(t *testing.T) {
	env := execEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo hi > out.txt")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Wrote it.")}},
	)
	out, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "-a", "never", "-s", "workspace-write", "write a file")
	if err != nil || out != "Wrote it.\n" {
		t.Fatalf("exec: %q %v\nstderr: %s", out, err, errOut)
	}
	if data, err := os.ReadFile(filepath.Join(env.Dir, "out.txt")); err != nil || string(data) != "hi\n" {
		t.Errorf("with -a never the command runs: %q %v", data, err)
	}
	if strings.Contains(errOut, "declined") {
		t.Errorf("nothing to decline with -a never: %q", errOut)
	}
}

func TestExecTurnTimeout(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text(strings.Repeat("slow ", 200))}, ChunkDelay: 50 * time.Millisecond})
	out, _, err := runTandem(t, "", "exec", "--json", "--codex", env.Codex, "-C", env.Dir, "--turn-timeout", "1s", "hi")
	if err == nil || !strings.Contains(err.Error(), "turn timed out after 1s") {
		t.Fatalf("want a timeout error, got %v", err)
	}
	if !strings.Contains(out, `"type":"turn.failed"`) || !strings.Contains(out, "timed out") {
		t.Errorf("no turn.failed event: %s", out)
	}
}

// TestExecConfigPrecedence runs exec with a config file: the profile's
// model beats the top level's, and -m beats the profile's; the model codex
// asks the provider for is the proof.
func TestExecConfigPrecedence(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("a")}}, mockapi.Response{Items: []mockapi.Item{mockapi.Text("b")}})
	cfg := filepath.Join(t.TempDir(), "config.toml")
	text := "model = \"top-model\"\n[codex]\ncommand = " + strconvQuote(env.Codex) + "\n[profiles.p]\nmodel = \"profile-model\"\nworkspace = " + strconvQuote(env.Dir) + "\n"
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := runTandem(t, "", "exec", "--config", cfg, "--profile", "p", "one"); err != nil {
		t.Fatalf("exec: %v\n%s", err, errOut)
	}
	if _, errOut, err := runTandem(t, "", "exec", "--config", cfg, "--profile", "p", "-m", "flag-model", "two"); err != nil {
		t.Fatalf("exec: %v\n%s", err, errOut)
	}
	reqs, err := env.Mock.WaitRequests(2, patience)
	if err != nil {
		t.Fatal(err)
	}
	if reqs[0].Model() != "profile-model" || reqs[1].Model() != "flag-model" {
		t.Errorf("models %q, %q; want profile-model, flag-model", reqs[0].Model(), reqs[1].Model())
	}
}

// TestExecOutputRedactsJSON feeds exec's printer a completed item holding
// a secret: the JSON line carries the item's typed fields, redacted.
func TestExecOutputRedactsJSON(t *testing.T) {
	var buf bytes.Buffer
	o := &execOutput{io: execIO{Stdout: &buf, Stderr: &buf}, jsonl: true}
	out := "OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123456789\n"
	code := 0
	ev := backend.ItemCompletedEvent{Item: backend.Item{Type: "commandExecution", ID: "c1", Command: "env", Status: "completed", AggregatedOutput: &out, ExitCode: &code}}
	if done, err := o.handle(ev, "t1"); done || err != nil {
		t.Fatalf("handle: %v %v", done, err)
	}
	line := buf.String()
	if strings.Contains(line, "abcdefghijklmnop") || !strings.Contains(line, "[REDACTED]") {
		t.Errorf("secret not redacted: %s", line)
	}
	var got struct {
		Type string `json:"type"`
		Item struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Command  string `json:"command"`
			ExitCode *int   `json:"exit_code"`
		} `json:"item"`
	}
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatalf("%v: %s", err, line)
	}
	if got.Type != "item.completed" || got.Item.ID != "c1" || got.Item.Type != "commandExecution" || got.Item.Command != "env" || got.Item.ExitCode == nil || *got.Item.ExitCode != 0 {
		t.Errorf("decoded %+v", got)
	}
	done, err := o.handle(backend.ServerExitedEvent{Status: "killed by signal 9 (killed)", Stderr: []string{"panic: boom"}}, "t1")
	if !done || err == nil || !strings.Contains(err.Error(), "killed by signal 9") {
		t.Errorf("server exit: done %v err %v", done, err)
	}
}

// TestExecOutputJSONStaysValid: an answer whose secret is never closed
// (`token='abc …`, to the end of the text) is redacted inside its string,
// and the line is still one valid JSON value.
func TestExecOutputJSONStaysValid(t *testing.T) {
	var buf bytes.Buffer
	o := &execOutput{io: execIO{Stdout: &buf, Stderr: &buf}, jsonl: true}
	ev := backend.ItemCompletedEvent{Item: backend.Item{Type: "agentMessage", ID: "m1", Text: "Use token='abc123 for it"}}
	if done, err := o.handle(ev, "t1"); done || err != nil {
		t.Fatalf("handle: %v %v", done, err)
	}
	line := buf.Bytes()
	if !json.Valid(line) || bytes.Contains(line, []byte("abc123")) || !bytes.Contains(line, []byte(`"id":"m1"`)) {
		t.Errorf("line not valid, redacted JSON: %s", line)
	}
}

// TestExecIsolatedHomeKeepsThreads runs exec on a per-run CODEX_HOME and
// then lists threads on the shared one: the rollout went through the
// sessions/ link, so the thread is there to resume.
func TestExecIsolatedHomeKeepsThreads(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("ok")}})
	if _, errOut, err := runTandem(t, "", "exec", "--isolated-home", "--codex", env.Codex, "-C", env.Dir, "remember this thread"); err != nil {
		t.Fatalf("exec: %v\n%s", err, errOut)
	}
	homes, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_STATE_HOME"), "tandem", "homes"))
	if len(homes) != 0 {
		t.Errorf("per-run home left behind: %v", homes)
	}
	s, _ := env.Session(t, "", "")
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	list, err := s.ListThreads(ctx, backend.ThreadListParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Data) != 1 || list.Data[0].Preview != "remember this thread" {
		t.Errorf("threads on the shared home: %+v", list.Data)
	}
}

// A recording that cannot be written (a full disk) is not lost silently:
// the answer still comes, and the run ends with an error naming the file.
func TestExecRecordWriteFailureReported(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("still answered")}})
	out, _, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "--record", "/dev/full", "hi")
	if !strings.Contains(out, "still answered") {
		t.Errorf("stdout %q; the session must go on", out)
	}
	if err == nil || !strings.Contains(err.Error(), "--record /dev/full") || !strings.Contains(err.Error(), "incomplete") {
		t.Fatalf("error %v; want the recording reported incomplete", err)
	}
}

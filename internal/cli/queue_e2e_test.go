package cli

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// `tandem queue` end to end: the tandem binary, the real app-server (on
// the daemon), the mock model.

// queueAnswer is the mock's answer to the queued message.
const queueAnswer = "Answer to the queued message."

// idleAnswer is the mock's answer to a message queued on an idle thread.
const idleAnswer = "Answer to the message queued while idle."

// threadOf is the id of the thread lt's thread/start answer opened.
func (lt *liveTandem) threadOf() string {
	lt.t.Helper()
	m := lt.waitTrace("thread/start answer", patience, func(m tracedMsg) bool {
		return m.Dir == "recv" && strings.Contains(m.Raw, `"thread":{`) && len(m.ID) > 0
	})
	var r struct {
		Thread struct {
			ID string `json:"id"`
		} `json:"thread"`
	}
	if err := json.Unmarshal(m.Result, &r); err != nil || r.Thread.ID == "" {
		lt.t.Fatalf("no thread id in %s: %v", m.Raw, err)
	}
	return r.Thread.ID
}

// runQueueCmd runs `tandem queue ARGS…` with env's codex and workspace
// and returns its stdout, stderr and exit status.
func runQueueCmd(t *testing.T, env *e2e.Env, stdin string, args ...string) (string, string, int) {
	t.Helper()
	argv := append([]string{"queue", "--codex", env.Codex, "-C", env.Dir, "--log-file", t.TempDir() + "/queue.log"}, args...)
	cmd := exec.Command(tandemBinary(t), argv...)
	cmd.Env = append(env.Environ(), "XDG_STATE_HOME="+t.TempDir())
	cmd.Dir = env.Dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(patience):
		_ = cmd.Process.Kill()
		t.Fatalf("tandem queue %v did not end; stderr:\n%s", args, errb.String())
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// TestQueueIntoThreadOnDaemon: a tandem on the daemon runs a slow turn;
// `tandem queue ID MESSAGE` from a second process queues on its thread
// and says it runs when the turn ends; the showing tandem tells it was
// queued from elsewhere; when the turn ends the message runs as the next
// turn (the mock gets it after the first answer) and its user message
// and answer appear on the showing tandem's screen. Queued again on the
// thread, idle now, the message starts at once.
func TestQueueIntoThreadOnDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	const n = 10
	env := e2e.NewEnv(t, numberedAnswer(n, 200*time.Millisecond),
		mockapi.Response{Items: []mockapi.Item{mockapi.Text(queueAnswer)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text(idleAnswer)}})
	stopDaemonAtEnd(t, env)
	lt := startTandem(t, env, "--daemon")
	lt.waitDaemonReady()
	id := lt.threadOf()
	lt.keys("count for me\r")
	lt.waitScreen("item 02 of", patience)

	out, errOut, code := runQueueCmd(t, env, "", "--daemon", id, "queued from a script")
	if code != 0 {
		t.Fatalf("tandem queue exited %d; stdout %q, stderr %q", code, out, errOut)
	}
	if want := "queued for thread " + id + ": runs when its turn ends"; !strings.Contains(out, want) {
		t.Errorf("tandem queue said %q; want %q", out, want)
	}
	if strings.Contains(lt.screen(), "item 10 of the answer") {
		t.Fatal("the first turn ended before the message was queued: the test proves nothing")
	}
	lt.waitScreen("queued from elsewhere: queued from a script", patience)

	reqs, err := env.Mock.WaitRequests(2, patience)
	if err != nil {
		t.Fatal(err)
	}
	if got := reqs[1].LastUserText(); got != "queued from a script" {
		t.Errorf("the second model request's user text is %q; want the queued message", got)
	}
	if prev := strings.Join(reqs[1].AssistantTexts(), "\n"); !strings.Contains(prev, "item 10 of the answer") {
		t.Errorf("the queued message ran before the first turn ended: its history has %q", prev)
	}
	lt.waitScreen(queueAnswer, patience)
	lt.waitScreen("▌ queued from a script", patience)
	assertEachOnce(t, lt, n)

	// The thread idle now: the server starts a queued message at once;
	// --last finds the thread, the message comes from stdin.
	lt.waitTrace("the queued turn's end", patience, func(m tracedMsg) bool {
		return m.Dir == "recv" && m.Method == "turn/completed" && strings.Contains(m.Raw, "msg_resp_mock_2_0")
	})
	out, errOut, code = runQueueCmd(t, env, "asked while idle\n", "--daemon", "--last", "-")
	if code != 0 {
		t.Fatalf("tandem queue --last exited %d; stdout %q, stderr %q", code, out, errOut)
	}
	if want := "queued for thread " + id + ": the thread is idle, started now"; !strings.Contains(out, want) {
		t.Errorf("tandem queue --last said %q; want %q", out, want)
	}
	lt.waitScreen(idleAnswer, patience)
	lt.waitScreen("▌ asked while idle", patience)
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(patience)
}

// TestQueueUnknownThread: a thread id or a name the server does not have
// is refused (exit 1) with a message naming it, and nothing is sent to
// the model.
func TestQueueUnknownThread(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t)
	cases := []struct{ thread, want string }{
		{"01a2361d-0000-7000-8000-0000000000ff", "tandem: queue: no thread 01a2361d-0000-7000-8000-0000000000ff on this server"},
		{"no such name", `tandem: queue: no thread named "no such name"`},
	}
	for _, c := range cases {
		out, errOut, code := runQueueCmd(t, env, "", c.thread, "hello")
		if code != 1 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("tandem queue %q: exit %d, stdout %q, stderr %q; want 1 and %q", c.thread, code, out, errOut, c.want)
		}
	}
	if reqs := env.Mock.Requests(); len(reqs) != 0 {
		t.Errorf("%d model requests; want none", len(reqs))
	}
}

// TestQueueOverSSHDaemon: the same over the test sshd: the showing tandem
// and `tandem queue` both reach the remote's daemon with --ssh --daemon;
// the message runs after the turn, on the showing tandem's screen.
func TestQueueOverSSHDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	// Slower than on the local daemon: tandem queue's own ssh start
	// takes seconds, and the turn must still run when it queues.
	const n = 16
	env := e2e.NewEnv(t, numberedAnswer(n, 300*time.Millisecond),
		mockapi.Response{Items: []mockapi.Item{mockapi.Text(queueAnswer)}})
	stopDaemonAtEnd(t, env)
	srv := env.StartSSHDWith(t, sshtest.Options{Env: []string{"CODEX_HOME=" + env.Home}})
	args := append(sshArgs(srv, env), "--daemon")
	lt := startTandem(t, env, args...)
	lt.waitDaemonReady()
	id := lt.threadOf()
	lt.keys("count for me\r")
	lt.waitScreen("item 02 of", patience)

	out, errOut, code := runQueueCmd(t, env, "", append(args, id, "queued over ssh")...)
	if code != 0 {
		t.Fatalf("tandem queue --ssh exited %d; stdout %q, stderr %q", code, out, errOut)
	}
	if want := "queued for thread " + id + ": runs when its turn ends"; !strings.Contains(out, want) {
		t.Errorf("tandem queue --ssh said %q; want %q", out, want)
	}
	if strings.Contains(lt.screen(), "item 16 of the answer") {
		t.Fatal("the first turn ended before the message was queued: the test proves nothing")
	}
	lt.waitScreen("queued from elsewhere: queued over ssh", patience)
	lt.waitScreen(queueAnswer, patience)
	lt.waitScreen("▌ queued over ssh", patience)
	reqs := env.Mock.Requests()
	if len(reqs) != 2 || reqs[1].LastUserText() != "queued over ssh" {
		t.Errorf("the model got %d requests; want the turn's, then the queued message's", len(reqs))
	}
	lt.keys(keyCtrlD)
	lt.waitGoneQuietly(patience)
}

// TestQueueIntoClosedThreadRunsOnResume: a thread no app-server has open
// keeps the message (tandem queue's own app-server is gone by then), and
// `tandem resume` runs it: its user message and answer on screen.
func TestQueueIntoClosedThreadRunsOnResume(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := e2e.NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("The first answer.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text(queueAnswer)}})
	first := exec.Command(tandemBinary(t), "exec", "--codex", env.Codex, "-C", env.Dir, "--log-file", t.TempDir()+"/exec.log", "first")
	first.Env = append(env.Environ(), "XDG_STATE_HOME="+t.TempDir())
	if b, err := first.CombinedOutput(); err != nil {
		t.Fatalf("tandem exec: %v\n%s", err, b)
	}
	out, errOut, code := runQueueCmd(t, env, "", "--last", "queued while closed")
	if code != 0 || !strings.Contains(out, "when it is next resumed") {
		t.Fatalf("tandem queue --last: exit %d, stdout %q, stderr %q; want it to wait for a resume", code, out, errOut)
	}
	if reqs := env.Mock.Requests(); len(reqs) != 1 {
		t.Fatalf("%d model requests before the resume; want the first turn's only", len(reqs))
	}
	lt := startTandem(t, env, "resume", "--last")
	lt.waitScreen("▌ queued while closed", patience)
	lt.waitScreen(queueAnswer, patience)
	if reqs := env.Mock.Requests(); len(reqs) != 2 || reqs[1].LastUserText() != "queued while closed" {
		t.Errorf("the model got %d requests; want the queued message second", len(reqs))
	}
	lt.keys(keyCtrlD)
	lt.waitExit(patience)
}

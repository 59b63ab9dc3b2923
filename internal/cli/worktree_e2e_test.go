package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// tandem --worktree NAME PROMPT makes the worktree through the
// app-server's command/exec before thread/start, starts the thread in it
// (the agent's pwd prints the worktree), names it in a notice and records
// it as the thread's attachment once the turn has started: with a local
// app-server, on the daemon, and on the daemon over ssh.
func TestWorktreeFlag(t *testing.T) {
	for _, tc := range []struct {
		name string
		args func(t *testing.T, env *e2e.Env) []string
	}{
		{"local", func(*testing.T, *e2e.Env) []string { return nil }},
		{"daemon", func(t *testing.T, env *e2e.Env) []string {
			stopDaemonAtEnd(t, env)
			return []string{"--daemon"}
		}},
		{"ssh daemon", func(t *testing.T, env *e2e.Env) []string {
			stopDaemonAtEnd(t, env)
			srv := env.StartSSHDWith(t, sshtest.Options{Env: []string{"CODEX_HOME=" + env.Home}})
			return append(sshArgs(srv, env), "--daemon")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() {
				t.Skip("e2e")
			}
			worktreeFlag(t, tc.args)
		})
	}
}

// worktreeFlag runs tandem --worktree e2e PROMPT with the arguments args
// gives first in a fresh repository, and checks what TestWorktreeFlag says.
func worktreeFlag(t *testing.T, args func(t *testing.T, env *e2e.Env) []string) {
	env := e2e.NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("pwd")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("worked in the worktree")}},
	)
	dir, err := filepath.EvalSymlinks(env.Dir)
	if err != nil {
		t.Fatal(err)
	}
	env.Dir = dir
	gitIn := func(args ...string) {
		t.Helper()
		res, err := (localGit{}).run(dir, args...)
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, res)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn("init", "-q", "-b", "main")
	gitIn("add", "-A")
	gitIn("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")
	want := filepath.Join(filepath.Dir(dir), filepath.Base(dir)+"-e2e")

	argv := append(args(t, env), "-a", "never", "--worktree", "e2e", "where are you?")
	lt := startTandem(t, env, argv...)
	lt.waitScreen("worked in the worktree", patience)
	lt.waitScreen("tandem/e2e", patience) // the notice
	if _, err := os.Stat(filepath.Join(want, "f.txt")); err != nil {
		t.Fatalf("no worktree at %s: %v", want, err)
	}
	lt.waitTrace("thread/attachment/add answer", patience, func(m tracedMsg) bool {
		return m.Dir == "recv" && strings.Contains(m.Raw, `"attachmentType":"tandem.worktree"`) && strings.Contains(m.Raw, `"outcome":"created"`)
	})

	var sawAdd, started bool
	var pwd string
	for _, m := range lt.traced() {
		var body struct {
			Params struct {
				Command []string `json:"command"`
				Cwd     string   `json:"cwd"`
				Item    struct {
					Type             string  `json:"type"`
					AggregatedOutput *string `json:"aggregatedOutput"`
				} `json:"item"`
			} `json:"params"`
		}
		_ = json.Unmarshal([]byte(m.Raw), &body)
		switch {
		case m.Dir == "send" && m.Method == "command/exec" && strings.HasPrefix(strings.Join(body.Params.Command, " "), "git ") &&
			strings.HasSuffix(strings.Join(body.Params.Command, " "), " worktree add -b tandem/e2e "+want+" HEAD"):
			if started {
				t.Errorf("git worktree add was sent after thread/start")
			}
			sawAdd = true
		case m.Dir == "send" && m.Method == "thread/start":
			started = true
			if body.Params.Cwd != want {
				t.Errorf("thread/start's cwd %q, want the worktree %s", body.Params.Cwd, want)
			}
		case m.Dir == "recv" && m.Method == "item/completed" && body.Params.Item.Type == "commandExecution" && body.Params.Item.AggregatedOutput != nil:
			pwd = strings.TrimSpace(*body.Params.Item.AggregatedOutput)
		}
	}
	if !sawAdd || !started {
		t.Errorf("command/exec of git worktree add sent: %v; thread/start sent: %v", sawAdd, started)
	}
	if pwd != want {
		t.Errorf("the agent's pwd printed %q, want %s", pwd, want)
	}
}

// localGit runs git here, for a test's set-up.
type localGit struct{}

func (localGit) run(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"tandem/internal/testkit/mockapi"
	"tandem/internal/testkit/sshtest"
)

// `tandem search` end to end: an earlier `tandem exec` on the real
// app-server (the mock model) ran a command whose output holds a word
// found nowhere else (the shell computes it: zebra$((40+2))fish);
// `tandem search WORD` finds the thread by it, with its turn, from the
// rollouts. The server's thread/search (--server) finds the prompt but
// not the output.
func TestSearchFindsCommandOutputOfEarlierRun(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := execEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ExecCommand("echo zebra$((40+2))fish")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Ran it.")}},
	)
	if _, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "-a", "never", "-s", "workspace-write", "run the penguin check"); err != nil {
		t.Fatalf("exec: %v\n%s", err, errOut)
	}

	out, errOut, err := runTandem(t, "", "search", "--codex", env.Codex, "-C", env.Dir, "ZEBRA42FISH")
	if err != nil {
		t.Fatalf("search: %v\n%s", err, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "run the penguin check · ") || !strings.Contains(lines[0], " · turn 1, output · ") ||
		lines[1] != "    »zebra42fish«" {
		t.Fatalf("search printed:\n%s\nstderr: %s", out, errOut)
	}

	out, _, err = runTandem(t, "", "search", "--codex", env.Codex, "-C", env.Dir, "--json", "zebra42fish")
	if err != nil {
		t.Fatal(err)
	}
	var j searchJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if j.Turn != 1 || j.Kind != "output" || j.Source != "rollouts" || j.TurnID == "" || j.Cwd != env.Dir || j.Thread == "" {
		t.Fatalf("json %+v", j)
	}
	id := j.Thread

	// Another workspace: nothing, unless --all.
	other := t.TempDir()
	out, errOut, err = runTandem(t, "", "search", "--codex", env.Codex, "-C", other, "zebra42fish")
	if err != nil || out != "" || !strings.Contains(errOut, "--all searches every workspace") {
		t.Fatalf("another workspace: %v %q %q", err, out, errOut)
	}
	out, _, err = runTandem(t, "", "search", "--codex", env.Codex, "-C", other, "--all", "zebra42fish")
	if err != nil || !strings.Contains(out, id) {
		t.Fatalf("--all: %v %q", err, out)
	}

	// The server's thread/search: the prompt yes, the output no.
	out, errOut, err = runTandem(t, "", "search", "--codex", env.Codex, "-C", env.Dir, "--server", "--json", "penguin")
	if err != nil {
		t.Fatalf("--server: %v\n%s", err, errOut)
	}
	j = searchJSON{}
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.Thread != id || j.Source != "server" || j.Turn != 0 ||
		j.Snippet[j.Match[0]:j.Match[1]] != "penguin" {
		t.Fatalf("--server penguin: %v %q", err, out)
	}
	out, _, err = runTandem(t, "", "search", "--codex", env.Codex, "-C", env.Dir, "--server", "zebra42fish")
	if err != nil || out != "" {
		t.Fatalf("--server zebra42fish: %v %q (thread/search now reads command output: the docs say it does not)", err, out)
	}
}

// Over --ssh the search runs on the remote, through its app-server's
// thread/search: the thread an earlier run made there is found by its
// prompt, in the remote workspace (source "server", no turn).
func TestSearchOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Done over there.")}})
	if _, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "-a", "never", "-s", "read-only", "the okapi question"); err != nil {
		t.Fatalf("exec: %v\n%s", err, errOut)
	}
	srv := env.StartSSHDWith(t, sshtest.Options{Env: []string{"CODEX_HOME=" + env.Home}})
	args := append([]string{"search"}, sshArgs(srv, env)...)
	out, errOut, err := runTandem(t, "", append(args, "--json", "OKAPI")...)
	if err != nil {
		t.Fatalf("search --ssh: %v\n%s", err, errOut)
	}
	var j searchJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil || j.Source != "server" || j.Cwd != env.Dir || j.Turn != 0 ||
		j.Snippet[j.Match[0]:j.Match[1]] != "okapi" {
		t.Fatalf("search --ssh: %v %q\nstderr: %s", err, out, errOut)
	}
}

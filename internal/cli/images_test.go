package cli

import (
	"errors"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tandem/internal/testkit/mockapi"
)

func writeTestPNG(t *testing.T, p string) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// tandem exec -i: the image reaches the model as an input_image with
// the prompt, on the real app-server (a relative path is the current
// directory's).
func TestExecImage(t *testing.T) {
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("A grey square.")}})
	dir := t.TempDir()
	writeTestPNG(t, filepath.Join(dir, "a.png"))
	writeTestPNG(t, filepath.Join(dir, "b.png"))
	t.Chdir(dir)
	out, errOut, err := runTandem(t, "", "exec", "--codex", env.Codex, "-C", env.Dir, "-i", "a.png", "--image", filepath.Join(dir, "b.png"), "what is it?")
	if err != nil || out != "A grey square.\n" {
		t.Fatalf("exec -i: %q %v\nstderr: %s", out, err, errOut)
	}
	reqs, err := env.Mock.WaitRequests(1, patience)
	if err != nil {
		t.Fatal(err)
	}
	imgs := reqs[0].InputImages()
	if len(imgs) != 2 || !strings.HasPrefix(imgs[0], "data:image/png;base64,") || !strings.HasPrefix(imgs[1], "data:image/png;base64,") {
		t.Fatalf("input images %.120q", imgs)
	}
	if !strings.Contains(strings.Join(reqs[0].UserTexts(), "\n"), "what is it?") {
		t.Errorf("user texts %q", reqs[0].UserTexts())
	}
}

// A bad -i is a usage error naming the flag and the file, before
// anything starts (the codex here could not start).
func TestImageFlagUsageErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600)
	missing, notes := filepath.Join(dir, "missing.png"), filepath.Join(dir, "notes.txt")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--codex", "/bin/true", "-i", missing, "hi"}, `invalid value "` + missing + `" for -i/--image: no such file`},
		{[]string{"--codex", "/bin/true", "exec", "-i", missing, "hi"}, "no such file"},
		{[]string{"--codex", "/bin/true", "exec", "--image", notes, "hi"}, "not an image (.png, .jpg, .jpeg, .webp, .gif)"},
		{[]string{"--codex", "/bin/true", "-i", dir, "hi"}, "not an image"},
	}
	for _, c := range cases {
		root := newRootCmd()
		usageArgs(root)
		root.SetArgs(c.args)
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		err := root.Execute()
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("tandem %q: %v, want a usage error with %q", c.args, err, c.want)
		}
	}
}

// The local daemon (--remote unix://) is this machine, on the real
// daemon: exec -i reads the image where it is (nothing is copied into the
// workspace) and a relative --add-dir is this machine's, made absolute.
func TestExecLocalDaemonImageAndAddDir(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	env := execEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("A grey square.")}})
	sock := startDaemon(t, env)
	dir := t.TempDir()
	writeTestPNG(t, filepath.Join(dir, "a.png"))
	if err := os.Mkdir(filepath.Join(env.Dir, "extra"), 0o700); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	out, errOut, err := runTandem(t, "", "exec", "--remote", "unix://"+sock, "-C", env.Dir, "-s", "workspace-write",
		"-i", filepath.Join(dir, "a.png"), "--add-dir", "extra", "--trace-protocol", trace, "what is it?")
	if err != nil || out != "A grey square.\n" {
		t.Fatalf("exec: %q %v\nstderr: %s", out, err, errOut)
	}
	reqs, err := env.Mock.WaitRequests(1, patience)
	if err != nil {
		t.Fatal(err)
	}
	if imgs := reqs[0].InputImages(); len(imgs) != 1 || !strings.HasPrefix(imgs[0], "data:image/png;base64,") {
		t.Fatalf("input images %.120q", imgs)
	}
	if _, err := os.Stat(filepath.Join(env.Dir, ".tandem")); err == nil {
		t.Errorf("the image was copied into the workspace (%s): the daemon reads this machine's files", filepath.Join(env.Dir, ".tandem"))
	}
	if roots := startedRoots(t, trace); !slices.Contains(roots, filepath.Join(env.Dir, "extra")) {
		t.Errorf("thread/start's writable roots %q, want %s", roots, filepath.Join(env.Dir, "extra"))
	}
}

package e2e

// End-to-end tests of images (issue #12): a pasted image path reaches the
// provider as an input_image, and a resumed thread shows the image.

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
	"tandem/sessions"
)

// writePNG writes a w×h red PNG to p.
func writePNG(t testing.TB, p string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: 220, A: 255})
		}
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A dropped file (a quoted path with a space, as terminals paste it)
// becomes a chip; Enter sends it as a localImage input, which the real
// app-server turns into an input_image for the model; the message shows
// the attachment, and so does the thread resumed on a new app-server.
func TestPastedImageReachesModel(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("It is a red square.")}},
	)
	shot := filepath.Join(t.TempDir(), "my shot.png")
	writePNG(t, shot, 32, 32)
	state := sessions.Open(t.TempDir())
	u := NewTUI(t, model.Options{Workspace: e.Dir, State: state}, 100, 30)
	u.Connect(t, e, "never", "workspace-write")
	u.TM.Send(tea.PasteMsg{Content: "'" + shot + "' "})
	u.WaitScreen(t, Patience, "the chip", Contains("› [image 1 · my shot.png · "))
	u.Submit("what is this?")
	s := u.WaitScreen(t, Patience, "the answer", func(s string) bool {
		return strings.Contains(s, "It is a red square.") && !strings.Contains(s, "esc to interrupt")
	})
	if !strings.Contains(s, "▌ what is this?\n▌ ⎘ my shot.png · ") {
		t.Errorf("the message cell lacks its image:\n%s", s)
	}
	reqs := e.Mock.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests", len(reqs))
	}
	imgs := reqs[0].InputImages()
	if len(imgs) != 1 || !strings.HasPrefix(imgs[0], "data:image/png;base64,") {
		t.Fatalf("input images %.80q", imgs)
	}
	if !strings.Contains(strings.Join(reqs[0].UserTexts(), "\n"), "what is this?") {
		t.Errorf("user texts %q", reqs[0].UserTexts())
	}
	first := u.Session.ThreadID()
	_ = u.Session.Close()

	u2 := NewTUI(t, model.Options{Workspace: e.Dir, State: state}, 100, 30)
	connectResume(t, u2, e, &model.ResumeRequest{ID: first})
	u2.WaitScreen(t, Patience, "the resumed message with its image", Contains("▌ what is this?\n▌ ⎘ my shot.png", "It is a red square.", "Resumed thread"))
}

// A path that is not an image file stays text: nothing but the typed
// text reaches the model.
func TestPastedMissingImageStaysText(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("ok")}})
	missing := filepath.Join(e.Dir, "gone.png")
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 30)
	u.Connect(t, e, "never", "workspace-write")
	u.TM.Send(tea.PasteMsg{Content: missing})
	u.WaitScreen(t, Patience, "the notice", Contains("not attached, kept as text", "no such file", "› "+missing))
	u.Key(tea.KeyPressMsg{Code: tea.KeyEnter})
	u.WaitScreen(t, Patience, "the answer", Contains("ok"))
	reqs := e.Mock.Requests()
	if len(reqs) != 1 || len(reqs[0].InputImages()) != 0 || reqs[0].LastUserText() != missing {
		t.Fatalf("requests: %d, images %d, last text %q", len(reqs), len(reqs[0].InputImages()), reqs[0].LastUserText())
	}
}

// -i in the TUI: the command line's images go with its prompt.
func TestStartImagesReachModel(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("Two squares.")}})
	a, b := filepath.Join(t.TempDir(), "a.png"), filepath.Join(t.TempDir(), "b.png")
	writePNG(t, a, 8, 8)
	writePNG(t, b, 16, 16)
	u := NewTUI(t, model.Options{Workspace: e.Dir, Prompt: "compare", Images: []string{a, b}}, 100, 30)
	u.Connect(t, e, "never", "workspace-write")
	s := u.WaitScreen(t, Patience, "the answer", Contains("Two squares."))
	if !strings.Contains(s, "▌ compare\n▌ ⎘ a.png · ") || !strings.Contains(s, "▌ ⎘ b.png · ") {
		t.Errorf("message cell:\n%s", s)
	}
	reqs := e.Mock.Requests()
	if len(reqs) != 1 || len(reqs[0].InputImages()) != 2 {
		t.Fatalf("requests %d, images %d", len(reqs), len(reqs[0].InputImages()))
	}
}

// A model whose catalog entry lacks image input (model/list
// inputModalities): Enter says so, keeps the draft, sends nothing.
func TestModelWithoutImageInputKeepsDraft(t *testing.T) {
	e := NewEnv(t, mockapi.Response{Items: []mockapi.Item{mockapi.Text("unexpected")}})
	catalog := filepath.Join(e.Home, mockapi.CatalogFile)
	raw, err := os.ReadFile(catalog)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(raw), `"input_modalities": [
        "text",
        "image"
      ]`, `"input_modalities": ["text"]`, 1)
	if text == string(raw) {
		t.Fatalf("catalog layout changed:\n%s", raw)
	}
	if err := os.WriteFile(catalog, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	writePNG(t, shot, 8, 8)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 140, 30)
	u.Connect(t, e, "never", "workspace-write")
	u.TM.Send(tea.PasteMsg{Content: shot})
	u.WaitScreen(t, Patience, "the chip", Contains("[image 1 · shot.png"))
	u.Submit("what is it")
	u.WaitScreen(t, Patience, "the refusal", Contains("does not take images", "› [image 1 · shot.png · ", "] what is it"))
	time.Sleep(300 * time.Millisecond)
	if n := len(e.Mock.Requests()); n != 0 {
		t.Fatalf("%d model requests, want none", n)
	}
}

// Over --ssh: a local -i image is copied into the remote workspace
// (fs/writeFile) and sent from there; a pasted path is the remote's, a
// chip without a size (it is not looked at locally), sent as it is.
func TestSSHImages(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Uploaded one seen.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Remote one seen.")}},
	)
	srv := e.StartSSHD(t)
	local := filepath.Join(t.TempDir(), "local.png")
	writePNG(t, local, 8, 8)
	remote := filepath.Join(e.Dir, "remote.png")
	writePNG(t, remote, 8, 8)
	u := NewTUI(t, model.Options{Prompt: "look", Images: []string{local}}, 110, 30)
	u.ConnectWith(t, e.SSHTransport(srv), e.Dir, "never", "workspace-write")
	s := u.WaitScreen(t, Patience, "the first answer", Contains("Uploaded one seen."))
	if !strings.Contains(s, "▌ look\n▌ ⎘ local.png · ") {
		t.Errorf("message cell:\n%s", s)
	}
	copies, _ := filepath.Glob(filepath.Join(e.Dir, ".tandem", "images", "*", "local.png"))
	if len(copies) != 1 {
		t.Fatalf("copies in the remote workspace: %q", copies)
	}
	u.TM.Send(tea.PasteMsg{Content: remote})
	u.WaitScreen(t, Patience, "the remote chip", Contains("› [image 2 · remote.png] "))
	u.Submit("and this")
	u.WaitScreen(t, Patience, "the second answer", Contains("Remote one seen."))
	reqs := e.Mock.Requests()
	if len(reqs) != 2 || len(reqs[0].InputImages()) != 1 || len(reqs[1].InputImages()) != 2 { // the second replays the first's
		t.Fatalf("requests %d, images %d/%d", len(reqs), len(reqs[0].InputImages()), len(reqs[len(reqs)-1].InputImages()))
	}
}

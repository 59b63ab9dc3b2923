package e2e

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tandem/internal/testkit/mockapi"
	"tandem/model"
)

// The agent looks at an image (view_image): codex reports an imageView
// item, drawn as a cell with its path.
func TestImageViewOnRealServer(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Call("view_image", `{"path":"shot.png"}`)}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("A red square.")}},
	)
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	f, err := os.Create(filepath.Join(e.Dir, "shot.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("what is in shot.png?")
	u.WaitScreen(t, Patience, "the image cell", func(s string) bool {
		return strings.Contains(s, "Viewed image") && strings.Contains(s, "shot.png") && strings.Contains(s, "A red square.")
	})
}

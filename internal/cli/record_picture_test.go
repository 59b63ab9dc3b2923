package cli

import (
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gifScreens decodes a GIF and returns every frame as the viewer sees it:
// each frame drawn over the ones before (tandem's frames after the first
// carry only the rectangle that changed).
func gifScreens(t *testing.T, path string) []*image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	var out []*image.RGBA
	for _, img := range g.Image {
		draw.Draw(canvas, img.Bounds(), img, img.Bounds().Min, draw.Over)
		shot := image.NewRGBA(canvas.Bounds())
		copy(shot.Pix, canvas.Pix)
		out = append(out, shot)
	}
	return out
}

// ink counts the pixels of img that are not its most common colour (the
// background): a blank terminal has only its window frame's.
func ink(img *image.RGBA) int {
	count := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[img.RGBAAt(x, y)]++
		}
	}
	most := 0
	for _, n := range count {
		most = max(most, n)
	}
	return b.Dx()*b.Dy() - most
}

// TestRecordGIFEndsOnTheLastDrawnFrame records the demo straight into a
// GIF, quits it, and decodes the picture: its last frame is the last
// screen tandem drew, not the blank main screen a full-screen program
// leaves when it quits — the last frame is the last one with more than a
// blank window's ink, and shows what the frame before the quit showed.
func TestRecordGIFEndsOnTheLastDrawnFrame(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "demo.gif")
	ptmx, cmd := startRecord(t, os.Environ(), out, 80, 24, "demo", "--speed", "16", "--idle-limit", "0.2")
	// The cast is written beside the picture first (record.go).
	castOf := func() string {
		m, _ := filepath.Glob(filepath.Join(dir, ".tandem-record-*.cast"))
		if len(m) == 0 {
			return ""
		}
		return m[0]
	}
	deadline := time.Now().Add(patience)
	for castOf() == "" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if castOf() == "" {
		t.Fatal("no cast beside the picture")
	}
	waitFile(t, castOf(), patience, "the demo's last turn", func(s string) bool { return strings.Contains(castScreen(s), "greets like a pirate") })
	time.Sleep(300 * time.Millisecond)
	if _, err := ptmx.Write([]byte{3}); err != nil { // ctrl+c quits a replay
		t.Fatal(err)
	}
	waitExit(t, cmd, patience)

	screens := gifScreens(t, out)
	if len(screens) < 3 {
		t.Fatalf("%d frames", len(screens))
	}
	least := ink(screens[0])
	for _, s := range screens {
		least = min(least, ink(s))
	}
	lastDrawn := -1
	for i, s := range screens {
		if ink(s) > least {
			lastDrawn = i
		}
	}
	if last := len(screens) - 1; lastDrawn != last {
		t.Fatalf("the GIF ends on a blank frame (ink %d, a blank window's %d); the last drawn frame is %d of %d (ink %d)",
			ink(screens[last]), least, lastDrawn, last, ink(screens[max(lastDrawn, 0)]))
	}
}

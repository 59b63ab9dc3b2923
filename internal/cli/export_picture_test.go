package cli

import (
	"bytes"
	"errors"
	"image"
	"image/gif"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"tandem/internal/lib/redact"
	"tandem/internal/testkit/e2e"
	"tandem/internal/testkit/mockapi"
)

const demoRecording = "../../sessions/demo/demo.jsonl"

func TestExportPictureFlagErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		opts ExportOptions
		want string
	}{
		{"unknown format", ExportOptions{Format: "png"}, `invalid value "png" for --format: allowed values are md, svg, gif`},
		{"unknown theme", ExportOptions{Format: "svg", Theme: "solar", Speed: 1}, `invalid value "solar" for --theme`},
		{"speed zero", ExportOptions{Format: "svg", Theme: "dark"}, "invalid value 0 for --speed"},
		{"speed NaN", ExportOptions{Format: "gif", Output: "x.gif", Theme: "dark", Speed: nan()}, "invalid value NaN for --speed"},
		{"idle negative", ExportOptions{Format: "svg", Theme: "dark", Speed: 1, IdleLimit: -1}, "invalid value -1 for --idle-limit"},
		{"bad from", ExportOptions{Format: "svg", Theme: "dark", Speed: 1, From: "soon"}, "invalid value for --from"},
		{"bad to", ExportOptions{Format: "svg", Theme: "dark", Speed: 1, To: "turn:0"}, "invalid value for --to"},
		{"huge", ExportOptions{Format: "svg", Theme: "dark", Speed: 1, Cols: 5000}, "invalid size 5000×0 for --cols/--rows: each from 1 to 500"},
		{"cast as markdown", ExportOptions{File: "../../sessions/testdata/demo.cast", Format: "md", Output: "x.md"}, "is an asciicast: it exports as --format svg, gif or cast"},
		{"empty window", ExportOptions{Format: "svg", Theme: "dark", Speed: 1, From: "1h"}, "nothing to draw"},
		{"unknown extension", ExportOptions{Output: "x.png", Theme: "dark", Speed: 1}, `can't tell the format from "x.png": give --format md, svg, gif or cast`},
		{"format and extension disagree", ExportOptions{Output: "x.gif", Format: "svg", Theme: "dark", Speed: 1}, "--format svg, but -o x.gif says gif"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.opts.File == "" {
				c.opts.File = demoRecording
			}
			if c.opts.Output == "" {
				c.opts.Output = "x.svg"
			}
			out := filepath.Join(dir, c.opts.Output)
			c.opts.Output = out
			_ = os.Remove(out)
			err := runExport(c.opts, &bytes.Buffer{}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v; want %q", err, c.want)
			}
			var ue *usageError
			if c.name != "empty window" && !errors.As(err, &ue) {
				t.Errorf("%v is not a usage error", err)
			}
			if b, _ := os.ReadFile(out); len(b) != 0 {
				t.Errorf("a failed export wrote %d bytes", len(b))
			}
		})
	}
}

func nan() float64 { v, _ := strconv.ParseFloat("NaN", 64); return v }

// A failed export leaves an existing file as it was, and no temporary
// file behind.
func TestExportFailureKeepsExistingFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "keep.svg")
	if err := os.WriteFile(out, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := runExport(ExportOptions{File: demoRecording, Output: out, Theme: "dark", Speed: 1, From: "turn:99"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil {
		t.Fatal("an empty window exported")
	}
	if b, _ := os.ReadFile(out); string(b) != "precious" {
		t.Errorf("keep.svg is now %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// The format follows -o's extension; a cast exports too, at its own size.
func TestExportPictureFormats(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		file, out string
		check     func(t *testing.T, b []byte)
	}{
		{demoRecording, "demo.gif", func(t *testing.T, b []byte) {
			g, err := gif.DecodeAll(bytes.NewReader(b))
			if err != nil || g.Config.Width != 100*8+20 || len(g.Image) < 20 {
				t.Fatalf("GIF: %v, %d wide, %d frames", err, g.Config.Width, len(g.Image))
			}
		}},
		{"../../sessions/testdata/demo.cast", "cast.svg", func(t *testing.T, b []byte) {
			if !bytes.HasPrefix(b, []byte("<svg ")) || !bytes.Contains(b, []byte(`width="864"`)) {
				t.Fatalf("not a 100-column SVG: %.200s", b)
			}
		}},
		{demoRecording, "light.svg", func(t *testing.T, b []byte) {
			if !bytes.Contains(b, []byte("#f4f4f6")) {
				t.Error("--theme light: no light background")
			}
		}},
	} {
		opts := ExportOptions{File: c.file, Output: filepath.Join(dir, c.out), Theme: "dark", Speed: 1, IdleLimit: 2, Loop: true}
		if c.out == "light.svg" {
			opts.Theme = "light"
		}
		var stderr bytes.Buffer
		if err := runExport(opts, &bytes.Buffer{}, &stderr); err != nil {
			t.Fatalf("%s: %v", c.out, err)
		}
		if !regexp.MustCompile(`^tandem export: \d+ frames, (svg|gif), \d+ KB to .+ in [0-9.]+ s\n$`).MatchString(stderr.String()) {
			t.Errorf("%s: summary line %q", c.out, stderr.String())
		}
		b, err := os.ReadFile(opts.Output)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.out, func(t *testing.T) { c.check(t, b) })
	}
}

// readmeDemoCommand is the README's command for docs/demo.svg.
var readmeDemoCommand = "go run . export sessions/demo/demo.jsonl -o docs/demo.svg"

// readmeAgentsCommand is the README's command for docs/agents.svg (the
// command center, from a session recorded with tandem record).
var readmeAgentsCommand = "go run . export docs/agents.cast -o docs/agents.svg --from 25"

// The README's pictures are what their commands draw today.
func TestDocsDemoSVGIsReproducible(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		picture, command string
		args             []string
	}{
		{"docs/demo.svg", readmeDemoCommand, []string{"export", demoRecording}},
		{"docs/agents.svg", readmeAgentsCommand, []string{"export", "../../docs/agents.cast", "--from", "25"}},
	} {
		t.Run(tc.picture, func(t *testing.T) {
			if !bytes.Contains(readme, []byte(tc.command)) || !bytes.Contains(readme, []byte("("+tc.picture+")")) {
				t.Fatalf("the README lacks the picture or its command %q", tc.command)
			}
			want, err := os.ReadFile("../../" + tc.picture)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "picture.svg")
			cmd := newRootCmd()
			cmd.SetArgs(append(tc.args, "-o", out))
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s is stale (%d bytes, now %d): run `%s`", tc.picture, len(want), len(got), tc.command)
			}
			if len(got) > 300_000 {
				t.Errorf("%s is %d bytes; the budget is 300 KB", tc.picture, len(got))
			}
		})
	}
}

// The demo SVG in a real browser: headless chromium draws its last
// frame, and the screen shows the answer's colours on the theme's
// background. Skipped without chromium (scripts/test.sh installs it).
func TestExportSVGInBrowser(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium")
	}
	svg, err := os.ReadFile("../../docs/demo.svg")
	if err != nil {
		t.Fatal(err)
	}
	dur := regexp.MustCompile(`\.a\{animation:k ([0-9.]+)s`).FindSubmatch(svg)
	if dur == nil {
		t.Fatal("no animation in docs/demo.svg")
	}
	// Stop the animation just before its end: the last frame.
	end, _ := strconv.ParseFloat(string(dur[1]), 64)
	paused := regexp.MustCompile(`\.a\{animation:([^}]*)\}`).ReplaceAll(svg,
		[]byte(".a{animation:$1;animation-play-state:paused;animation-delay:-"+strconv.FormatFloat(end-0.05, 'f', 3, 64)+"s}"))
	dir := t.TempDir()
	in, png := filepath.Join(dir, "demo.svg"), filepath.Join(dir, "demo.png")
	if err := os.WriteFile(in, paused, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+png, "--window-size=864,564", "file://"+in)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	done := make(chan error, 1)
	go func() { out, err := cmd.CombinedOutput(); _ = out; done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium: %v", err)
		}
	case <-time.After(patience):
		_ = cmd.Process.Kill()
		t.Fatal("chromium did not finish")
	}
	img := decodePNG(t, png)
	if b := img.Bounds(); b.Dx() != 864 || b.Dy() != 564 {
		t.Fatalf("screenshot is %v", b)
	}
	// Colours on the screen area: the dark background most, and the
	// answer's text in several others (green "+", the red file name…).
	colours := map[[3]uint8]int{}
	for y := 42; y < 540; y++ {
		for x := 12; x < 852; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}]++
		}
	}
	if colours[[3]uint8{0x1a, 0x1b, 0x26}] < 200_000 {
		t.Errorf("the theme's background covers %d pixels of the screen", colours[[3]uint8{0x1a, 0x1b, 0x26}])
	}
	if len(colours) < 50 {
		t.Errorf("%d colours on the screen: no text drawn?", len(colours))
	}
	// The last frame's finished answer: rows below the top have text.
	inked := 0
	for y := 480; y < 500; y++ { // the "Done: greet.sh …" row
		for x := 12; x < 400; x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r>>8 > 0x60 {
				inked++
			}
		}
	}
	if inked < 100 {
		t.Errorf("the answer's last row has %d bright pixels", inked)
	}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// A live session (real codex, mock model) recorded straight into a
// picture, and its protocol transcript exported: both show the answer,
// neither a planted secret, and no cast is left behind.
func TestRecordAndExportLiveSessionPictures(t *testing.T) {
	const sk = "sk-proj-PicturePlantedKey0123456789abcdXY"
	env := e2e.NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Ahoy from the mock! The key is " + sk + " — 你好 👋")}, ChunkDelay: 5 * time.Millisecond},
	)
	dir := t.TempDir()
	svg, transcript := filepath.Join(dir, "live.svg"), filepath.Join(dir, "live.jsonl")
	ptmx, cmd := startRecord(t, env.Environ(), svg, 100, 30,
		"--codex", env.Codex, "-C", env.Dir, "-a", "never", "--record", transcript, "say hello")
	waitFile(t, transcript, patience, "the turn to complete", func(s string) bool { return strings.Contains(s, `"turn/completed"`) })
	time.Sleep(500 * time.Millisecond)
	_, _ = ptmx.Write([]byte{3})
	time.Sleep(200 * time.Millisecond)
	_, _ = ptmx.Write([]byte{3})
	waitExit(t, cmd, patience)

	left, _ := filepath.Glob(filepath.Join(dir, ".tandem-record-*"))
	if len(left) != 0 {
		t.Errorf("record left %v behind", left)
	}
	gifPath := filepath.Join(dir, "live.gif")
	if err := runExport(ExportOptions{File: transcript, Output: gifPath, Theme: "dark", Speed: 1, IdleLimit: 2, Loop: true}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var fromTranscript bytes.Buffer
	if err := runExport(ExportOptions{File: transcript, Format: "svg", Theme: "dark", Speed: 1, IdleLimit: 2, Loop: true}, &fromTranscript, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	recorded, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"record -o live.svg": recorded, "export live.jsonl": fromTranscript.Bytes()} {
		if !bytes.HasPrefix(b, []byte("<svg ")) || !bytes.Contains(b, []byte("Ahoy from the mock!")) {
			t.Errorf("%s: no SVG with the answer (%d bytes)", name, len(b))
		}
		if bytes.Contains(b, []byte(sk[8:20])) || !bytes.Contains(b, []byte(redact.Marker)) {
			t.Errorf("%s: the planted key shows, or no redaction marker", name)
		}
	}
	g, err := os.ReadFile(gifPath)
	if err != nil {
		t.Fatal(err)
	}
	if dec, err := gif.DecodeAll(bytes.NewReader(g)); err != nil || len(dec.Image) < 2 {
		t.Fatalf("GIF of the transcript: %v", err)
	}
}

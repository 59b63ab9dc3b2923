package picture

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/draw"
	"image/gif"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tandem/internal/lib/screen"
)

// secret is a planted key: the screen masks it, so no picture has it.
const secret = "sk-proj-Zq8v2LmN4pR7sT1uW3xY5aB6cD9eF0gH"

// step is one frame of a made-up session: what is written to the screen
// at a time (seconds), or a marker.
type step struct {
	at     float64
	out    string
	marker string
}

// session is a short chat drawn on a 40×8 screen: a prompt, an answer
// streamed in three parts (one with a secret, one with wide text), a
// pause, the end.
var session = []step{
	{at: 0, out: "\x1b[H\x1b[2J\x1b[1m› \x1b[0mhello"},
	{at: 0.5, marker: "turn started"},
	{at: 0.5, out: "\x1b[3;1H\x1b[32mHi!\x1b[0m token " + secret},
	{at: 0.52, out: "\x1b[4;1H\x1b[7mreverse\x1b[0m \x1b[4munder\x1b[0m"},
	{at: 0.9, out: "\x1b[5;1H你好 👋 done"},
	{at: 10, out: "\x1b[6;1H\x1b[38;2;255;0;128mafter a pause\x1b[0m"},
	{at: 10, marker: "turn completed"},
	{at: 11, marker: "turn started"},
	{at: 11, out: "\x1b[7;1Hsecond turn"},
}

// play feeds session to a 40×8 screen and sink, and returns the final
// frame.
func play(t *testing.T, sink interface {
	Frame(time.Duration, *screen.Frame)
	Marker(time.Duration, string)
}) *screen.Frame {
	t.Helper()
	scr := screen.New(40, 8)
	defer scr.Close()
	var f *screen.Frame
	for _, s := range session {
		at := time.Duration(s.at * float64(time.Second))
		if s.marker != "" {
			sink.Marker(at, s.marker)
			continue
		}
		_, _ = scr.Write([]byte(s.out))
		f = scr.Snapshot(f)
		sink.Frame(at, f)
	}
	return f
}

// record is an Encoder that keeps what it was given.
type record struct {
	at    []time.Duration
	text  []string // row texts joined by "\n"
	end   time.Duration
	calls int
}

func (r *record) Add(at time.Duration, f *screen.Frame) error {
	r.at = append(r.at, at)
	var rows []string
	for y := 0; y < f.Rows; y++ {
		rows = append(rows, f.Text(y))
	}
	r.text = append(r.text, strings.Join(rows, "\n"))
	return nil
}

func (r *record) Close(end time.Duration) error { r.end = end; r.calls++; return nil }

func (r *record) Frames() int { return len(r.at) }

func TestParseBound(t *testing.T) {
	cases := []struct {
		in   string
		want Bound
		bad  bool
	}{
		{in: "12", want: Bound{At: 12 * time.Second, set: true}},
		{in: "1.5", want: Bound{At: 1500 * time.Millisecond, set: true}},
		{in: "1m30s", want: Bound{At: 90 * time.Second, set: true}},
		{in: "turn:2", want: Bound{Turn: 2, set: true}},
		{in: "turn:0", bad: true},
		{in: "turn:x", bad: true},
		{in: "-1", bad: true},
		{in: "NaN", bad: true},
		{in: "Inf", bad: true},
		{in: "-3s", bad: true},
		{in: "soon", bad: true},
	}
	for _, c := range cases {
		got, err := ParseBound(c.in)
		if c.bad != (err != nil) || !c.bad && got != c.want {
			t.Errorf("ParseBound(%q) = %+v, %v", c.in, got, err)
		}
	}
}

func TestClipTiming(t *testing.T) {
	ms := time.Millisecond
	cases := []struct {
		name   string
		timing Timing
		at     []time.Duration // when each frame shows
		last   string          // a line of the last frame
		noLast string          // a line the last frame must not have
		end    time.Duration
	}{
		// 0.52 s merges into 0.5 s (within MinFrame); 10 s is 10 s.
		{"as recorded", Timing{}, []time.Duration{0, 500 * ms, 900 * ms, 10 * time.Second, 11 * time.Second}, "second turn", "", 14 * time.Second},
		{"idle capped", Timing{IdleLimit: time.Second}, []time.Duration{0, 500 * ms, 900 * ms, 1900 * ms, 2900 * ms}, "second turn", "", 5900 * ms},
		{"twice as fast", Timing{Speed: 2, IdleLimit: time.Second}, []time.Duration{0, 250 * ms, 450 * ms, 950 * ms, 1450 * ms}, "second turn", "", 4450 * ms},
		{"from 0.9 s", Timing{From: Bound{At: 900 * ms, set: true}}, []time.Duration{0, 9100 * ms, 10100 * ms}, "second turn", "", 13100 * ms},
		{"to 5 s", Timing{To: Bound{At: 5 * time.Second, set: true}}, []time.Duration{0, 500 * ms, 900 * ms}, "你好 👋 done", "after a pause", 3900 * ms},
		{"turn 1 only", Timing{From: Bound{Turn: 1, set: true}, To: Bound{Turn: 1, set: true}}, []time.Duration{0, 400 * ms, 9500 * ms}, "after a pause", "second turn", 12500 * ms},
		{"from turn 2", Timing{From: Bound{Turn: 2, set: true}}, []time.Duration{0}, "second turn", "", 3 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &record{}
			clip := NewClip(r, c.timing)
			play(t, clip)
			if err := clip.Close(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.at, c.at) || r.end != c.end {
				t.Errorf("frames at %v, end %v; want %v, end %v", r.at, r.end, c.at, c.end)
			}
			last := r.text[len(r.text)-1]
			if !strings.Contains(last, c.last) || c.noLast != "" && strings.Contains(last, c.noLast) {
				t.Errorf("last frame:\n%s\nwant %q, not %q", last, c.last, c.noLast)
			}
			if clip.Frames() != len(r.at) || r.calls != 1 {
				t.Errorf("Frames() %d, encoder got %d, closed %d times", clip.Frames(), len(r.at), r.calls)
			}
		})
	}
}

// Identical frames merge; a window with nothing in it is an error.
func TestClipMergesAndRefusesEmpty(t *testing.T) {
	scr := screen.New(10, 2)
	defer scr.Close()
	_, _ = scr.Write([]byte("same"))
	f := scr.Snapshot(nil)
	r := &record{}
	clip := NewClip(r, Timing{})
	for i := 0; i < 5; i++ {
		clip.Frame(time.Duration(i)*time.Second, f)
	}
	// The picture ends Hold after the last change, however long the
	// session stayed as it was.
	if err := clip.Close(); err != nil || len(r.at) != 1 || r.end != 3*time.Second {
		t.Errorf("five equal frames: %d frames, end %v, %v; want 1, 3s", len(r.at), r.end, err)
	}
	clip = NewClip(&record{}, Timing{From: Bound{At: time.Hour, set: true}})
	clip.Frame(0, f)
	if err := clip.Close(); err != ErrEmpty {
		t.Errorf("a window past the end: %v; want ErrEmpty", err)
	}
}

// svgDoc is the part of an SVG the tests read back.
type svgDoc struct {
	Style string   `xml:"style"`
	Defs  []svgRow `xml:"defs>g"`
	Inner struct {
		Anim struct {
			Frames []struct {
				Uses []struct {
					Href string `xml:"href,attr"`
					Y    int    `xml:"y,attr"`
				} `xml:"use"`
			} `xml:"g"`
		} `xml:"g"`
	} `xml:"svg"`
}

type svgRow struct {
	ID    string `xml:"id,attr"`
	Texts []struct {
		X    float64 `xml:"x,attr"`
		Text string  `xml:",chardata"`
	} `xml:"text"`
}

// svgFrameText reads frame i of doc back as text rows: each <text> at
// its column.
func svgFrameText(t *testing.T, doc *svgDoc, i, cols, rows int) []string {
	t.Helper()
	defs := map[string]svgRow{}
	for _, r := range doc.Defs {
		defs["#"+r.ID] = r
	}
	out := make([]string, rows)
	for _, u := range doc.Inner.Anim.Frames[i].Uses {
		row := []rune(strings.Repeat(" ", cols*2))
		end := 0
		for _, tx := range defs[u.Href].Texts {
			col := int(math.Round(tx.X / svgCellW))
			for _, r := range tx.Text {
				row[col] = r
				col++
				end = max(end, col)
				if isWide(r) { // the column it covers
					row[col] = 0
					col++
				}
			}
		}
		out[u.Y/svgCellH] = strings.TrimRight(strings.ReplaceAll(string(row[:end]), "\x00", ""), " ")
	}
	return out
}

// isWide is enough of East Asian width for the test's text (CJK, emoji).
func isWide(r rune) bool { return r >= 0x2e80 }

func TestSVG(t *testing.T) {
	var b bytes.Buffer
	enc := NewSVG(&b, Options{Cols: 40, Rows: 8, Title: "demo & <test>", Loop: true})
	clip := NewClip(enc, Timing{IdleLimit: time.Second})
	final := play(t, clip)
	if err := clip.Close(); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// Well-formed XML, all of it.
	dec := xml.NewDecoder(strings.NewReader(out))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
	}
	var doc svgDoc
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if n := len(doc.Inner.Anim.Frames); n != 5 {
		t.Fatalf("%d frames; want 5", n)
	}
	// The keyframes: one per frame at its time over the whole (5.9 s),
	// each moving the stack up one screen (8 rows of 17 px).
	if !strings.Contains(out, ".a{animation:k 5.900s steps(1,end) infinite}") {
		t.Errorf("animation line missing:\n%s", doc.Style)
	}
	kf := regexp.MustCompile(`([0-9.]+)%\{transform:translateY\((-?[0-9.]+)px\)\}`).FindAllStringSubmatch(doc.Style, -1)
	wantPct := []float64{0, 100 * 0.5 / 5.9, 100 * 0.9 / 5.9, 100 * 1.9 / 5.9, 100 * 2.9 / 5.9, 100}
	if len(kf) != len(wantPct) {
		t.Fatalf("%d keyframes; want %d: %v", len(kf), len(wantPct), kf)
	}
	for i, k := range kf {
		pct, _ := strconv.ParseFloat(k[1], 64)
		y, _ := strconv.ParseFloat(k[2], 64)
		wantY := -float64(min(i, 4) * 8 * svgCellH)
		if math.Abs(pct-wantPct[i]) > 0.001 || y != wantY {
			t.Errorf("keyframe %d: %s%% at %spx; want %.3f%% at %gpx", i, k[1], k[2], wantPct[i], wantY)
		}
	}
	// The last frame's text is the emulator's final screen.
	got := svgFrameText(t, &doc, 4, 40, 8)
	for y := 0; y < 8; y++ {
		if got[y] != final.Text(y) {
			t.Errorf("row %d: %q; the screen has %q", y, got[y], final.Text(y))
		}
	}
	if strings.Contains(out, secret) || strings.Contains(out, secret[:16]) {
		t.Error("the planted secret is in the SVG")
	}
	if !strings.Contains(out, "[REDACTED]") || !strings.Contains(out, "<title>demo &amp; &lt;test&gt;</title>") {
		t.Error("no redaction marker, or the title is not escaped")
	}
	// A row drawn in several frames is defined once.
	if n := strings.Count(out, ">hello</text>"); n != 1 {
		t.Errorf("the prompt row is drawn %d times; want 1 (a <use> per frame)", n)
	}
	// Colours and attributes are kept.
	for _, want := range []string{"{fill:#ff0080}", `class="f`, " B\"", " U\"", `<rect x="0" width="58.8"`} {
		if !strings.Contains(out, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestSVGPlaysOnceWithoutLoop(t *testing.T) {
	var b bytes.Buffer
	clip := NewClip(NewSVG(&b, Options{Cols: 40, Rows: 8}), Timing{})
	play(t, clip)
	if err := clip.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "steps(1,end) 1 forwards}") {
		t.Error("a picture without Loop should play once and stay on its last frame")
	}
}

// composite draws the first n frames of g over each other.
func composite(g *gif.GIF, n int) *image.RGBA {
	c := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	for _, img := range g.Image[:n] {
		draw.Draw(c, img.Bounds(), img, img.Bounds().Min, draw.Over)
	}
	return c
}

func TestGIF(t *testing.T) {
	var b bytes.Buffer
	enc, err := NewGIF(&b, Options{Cols: 40, Rows: 8, Title: "demo", Loop: true})
	if err != nil {
		t.Fatal(err)
	}
	clip := NewClip(enc, Timing{IdleLimit: time.Second})
	play(t, clip)
	if err := clip.Close(); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	w, h := 40*gifCellW+2*gifPad, 8*gifCellH+2*gifPad+gifBar
	if g.Config.Width != w || g.Config.Height != h || len(g.Image) != 5 {
		t.Fatalf("%d×%d, %d frames; want %d×%d, 5", g.Config.Width, g.Config.Height, len(g.Image), w, h)
	}
	if want := []int{50, 40, 100, 100, 300}; !slices.Equal(g.Delay, want) {
		t.Errorf("delays %v; want %v (centiseconds)", g.Delay, want)
	}
	if g.LoopCount != 0 {
		t.Errorf("loop count %d; want 0 (forever)", g.LoopCount)
	}
	// After the first, a frame is only the rectangle that changed.
	if r := g.Image[4].Bounds(); r.Dy() != gifCellH || r.Min.Y != gifBar+gifPad+6*gifCellH {
		t.Errorf("the last frame (one new row) covers %v", r)
	}
	first, last := composite(g, 1), composite(g, 5)
	// The answer's row differs from the first frame, the prompt's not.
	row := func(img *image.RGBA, y int) []byte {
		top := gifBar + gifPad + y*gifCellH
		return img.Pix[top*img.Stride : (top+gifCellH)*img.Stride]
	}
	if bytes.Equal(row(first, 2), row(last, 2)) {
		t.Error("the answer's row is the same in the first and last frame")
	}
	if !bytes.Equal(row(first, 0), row(last, 0)) {
		t.Error("the prompt's row changed")
	}
	// The secret's row shows the redaction marker: it draws exactly as
	// the same line typed with the marker.
	marked := drawOne(t, "\x1b[3;1H\x1b[32mHi!\x1b[0m token [REDACTED]")
	planted := drawOne(t, "\x1b[3;1H\x1b[32mHi!\x1b[0m token "+secret)
	if !bytes.Equal(marked.Pix, planted.Pix) {
		t.Error("the planted secret is not drawn as its redaction marker")
	}
	if bytes.Equal(marked.Pix, drawOne(t, "\x1b[3;1H\x1b[32mHi!\x1b[0m token").Pix) {
		t.Error("the marker draws nothing")
	}
}

// drawOne is the one-frame GIF of out on a 40×8 screen, decoded.
func drawOne(t *testing.T, out string) *image.RGBA {
	t.Helper()
	scr := screen.New(40, 8)
	defer scr.Close()
	_, _ = scr.Write([]byte(out))
	var b bytes.Buffer
	enc, err := NewGIF(&b, Options{Cols: 40, Rows: 8})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Add(0, scr.Snapshot(nil)); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(time.Second); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	return composite(g, 1)
}

// A grapheme Go Mono lacks is a box of its width; box drawing, blocks
// and Braille are drawn, not boxed.
func TestGIFGlyphFallbacks(t *testing.T) {
	g, err := NewGIF(io.Discard, Options{Cols: 4, Rows: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"─", "│", "┃", "█", "⣾", "•", "✓"} {
		if m := g.mask(s, 1, 0); m == nil || m.Bounds().Dx() != gifCellW {
			t.Errorf("%q: no drawn glyph", s)
		}
	}
	if m := g.mask("a", 1, 0); m == nil {
		t.Error("Go Mono has no 'a'?")
	}
	for _, s := range []string{"你", "👋", "👩‍💻"} {
		if m := g.mask(s, 2, 0); m != nil {
			t.Errorf("%q: Go Mono has no glyph for it, want the box (nil mask)", s)
		}
	}
}

// tandem's own marks are drawn, not boxed; a wide title takes two cells a
// grapheme.
func TestGIFDrawsTandemMarksAndWideTitles(t *testing.T) {
	g, err := NewGIF(io.Discard, Options{Cols: 4, Rows: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"☰", "✎", "◐"} {
		m := g.mask(s, 1, 0)
		if m == nil {
			t.Errorf("%q is boxed", s)
			continue
		}
		ink := 0
		for _, a := range m.Pix {
			if a > 0 {
				ink++
			}
		}
		if ink < 6 {
			t.Errorf("%q draws %d pixels", s, ink)
		}
	}
	// A title of two wide graphemes is four cells: its ink spans more
	// than two cells' width.
	var b bytes.Buffer
	enc, err := NewGIF(&b, Options{Cols: 40, Rows: 2, Title: "日本"})
	if err != nil {
		t.Fatal(err)
	}
	scr := screen.New(40, 2)
	defer scr.Close()
	_ = enc.Add(0, scr.Snapshot(nil))
	_ = enc.Close(time.Second)
	dec, err := gif.DecodeAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	img := composite(dec, 1)
	bar := img.At(2, 2)
	left, right := img.Bounds().Dx(), 0
	for y := 4; y < gifBar-4; y++ {
		for x := 80; x < img.Bounds().Dx(); x++ {
			if img.At(x, y) != bar {
				left, right = min(left, x), max(right, x)
			}
		}
	}
	if right-left < 3*gifCellW {
		t.Errorf("the wide title spans %d px; want about 4 cells (%d px)", right-left, 4*gifCellW)
	}
}

// A GIF delay has 16 bits of 1/100 s: a longer pause is the longest
// delay, not a wrapped one; without Loop the GIF plays once.
func TestGIFLongPauseAndOnce(t *testing.T) {
	var b bytes.Buffer
	enc, err := NewGIF(&b, Options{Cols: 10, Rows: 2})
	if err != nil {
		t.Fatal(err)
	}
	scr := screen.New(10, 2)
	defer scr.Close()
	_ = enc.Add(0, scr.Snapshot(nil))
	_, _ = scr.Write([]byte("later"))
	_ = enc.Add(700*time.Second, scr.Snapshot(nil))
	if err := enc.Close(701 * time.Second); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Delay, []int{0xffff, 100}) || g.LoopCount != -1 || enc.Frames() != 2 {
		t.Errorf("delays %v, loop %d, %d frames; want [65535 100], -1 (once), 2", g.Delay, g.LoopCount, enc.Frames())
	}
}

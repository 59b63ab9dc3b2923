package frames

import (
	"strings"
	"testing"
	"time"

	"tandem/internal/lib/screen"
	"tandem/sessions"
)

// collect keeps every frame's text and the markers.
type collect struct {
	at      []time.Duration
	text    []string
	markers []string
	size    [2]int
}

func (c *collect) Frame(at time.Duration, f *screen.Frame) {
	if n := len(c.at); n > 0 && at < c.at[n-1] {
		panic("frame times went back")
	}
	var rows []string
	for y := 0; y < f.Rows; y++ {
		rows = append(rows, f.Text(y))
	}
	c.at = append(c.at, at)
	c.text = append(c.text, strings.Join(rows, "\n"))
	c.size = [2]int{f.Cols, f.Rows}
}

func (c *collect) Marker(_ time.Duration, label string) { c.markers = append(c.markers, label) }

func (c *collect) last() string { return c.text[len(c.text)-1] }

func demo(t *testing.T) *sessions.Recording {
	t.Helper()
	rec, err := sessions.LoadRecording("../../sessions/demo/demo.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// The embedded demo plays through the model at any size, the same every
// time, ending on the finished last turn.
func TestRecordingPlaysTheDemo(t *testing.T) {
	rec := demo(t)
	for _, size := range [][2]int{{100, 30}, {60, 20}, {140, 45}} {
		var runs [2]*collect
		for i := range runs {
			runs[i] = &collect{}
			progress := 0
			o := Options{Cols: size[0], Rows: size[1], Dark: true, Progress: func(done, total int) { progress = done * 100 / total }}
			if err := Recording(rec, o, runs[i]); err != nil {
				t.Fatal(err)
			}
			if progress != 100 {
				t.Errorf("progress ended at %d%%", progress)
			}
		}
		c := runs[0]
		if c.size != size {
			t.Errorf("frames are %v; want %v", c.size, size)
		}
		if strings.Join(c.text, "\f") != strings.Join(runs[1].text, "\f") {
			t.Errorf("%v: two plays of one recording drew different frames", size)
		}
		for _, want := range []string{"Done:", "greet.sh", "mock-model"} {
			if !strings.Contains(c.last(), want) {
				t.Errorf("%v: last frame lacks %q:\n%s", size, want, c.last())
			}
		}
		// A chapter per turn (with its prompt), approval and question.
		wantMarks := []string{
			"turn 1: How does tandem render a streamed answer?",
			"turn 2: Add a greeting script and run it",
			"approval: edit files",
			"approval: sh greet.sh tandem | tee greeting.txt",
			"turn 3: Plan how to make the greeting more fun",
			"question: Which tone should the greeting use?",
			"turn 4: Go ahead",
			"approval: edit files",
			"approval: sh greet.sh tandem",
		}
		if got, want := strings.Join(c.markers, "\n"), strings.Join(wantMarks, "\n"); got != want {
			t.Errorf("markers:\n%s\nwant:\n%s", got, want)
		}
		// Streamed text shows on the frame tick after it: some frame
		// has part of the pirate answer.
		partial := false
		for _, tx := range c.text {
			if strings.Contains(tx, "Working") && strings.Contains(tx, "Ahoy") {
				partial = true
			}
		}
		if !partial {
			t.Errorf("%v: no frame shows the answer while the turn works", size)
		}
	}
}

func TestRecordingRefusesNoSize(t *testing.T) {
	if err := Recording(demo(t), Options{}, &collect{}); err == nil {
		t.Error("a 0×0 screen was accepted")
	}
}

// A cast is fed as recorded: the last frame is tandem's last full-screen
// picture before it quit (not the empty main screen it leaves), at the
// cast's own size.
func TestCastPlaysAsRecorded(t *testing.T) {
	_, cast, err := sessions.LoadSession("../../sessions/testdata/demo.cast")
	if err != nil {
		t.Fatal(err)
	}
	c := &collect{}
	if err := Cast(cast, Options{Cols: 10, Rows: 3}, c); err != nil {
		t.Fatal(err)
	}
	scr := screen.New(cast.Header.Width, cast.Header.Height)
	defer scr.Close()
	outputs := 0
	var f *screen.Frame
	for _, ev := range cast.Events {
		if ev.Code == "o" {
			_, _ = scr.Write([]byte(ev.Data))
			outputs++
			if !scr.LeftAltScreen() {
				f = scr.Snapshot(f)
			}
		}
	}
	if !scr.LeftAltScreen() {
		t.Fatal("the demo cast should end with tandem leaving the alternate screen")
	}
	var rows []string
	for y := 0; y < f.Rows; y++ {
		rows = append(rows, f.Text(y))
	}
	if c.size != [2]int{100, 30} || c.last() != strings.Join(rows, "\n") || !strings.Contains(c.last(), "Pirate it is.") {
		t.Errorf("last frame (%v):\n%s\nwant the emulator's screen:\n%s", c.size, c.last(), strings.Join(rows, "\n"))
	}
	if len(c.at) == 0 || len(c.at) > outputs {
		t.Errorf("%d frames for %d output events", len(c.at), outputs)
	}
}

func TestTitle(t *testing.T) {
	if got := Title(demo(t)); got != "tandem · ~/project" {
		t.Errorf("Title = %q", got)
	}
}

// Which frames of a cast are drawn: a full-screen program's end on its
// last frame on the alternate screen (leaving it is its quit, or a
// suspend until it comes back), an inline program's (one that drew on the
// main screen first) go on after its pager closed.
func TestCastEndsOnTheProgramsLastFrame(t *testing.T) {
	ev := func(ms int, data string) sessions.CastEvent {
		return sessions.CastEvent{At: time.Duration(ms) * time.Millisecond, Code: "o", Data: data}
	}
	cases := []struct {
		name   string
		events []sessions.CastEvent
		want   []string // the first row of every frame drawn
	}{
		{"a full-screen program that quit", []sessions.CastEvent{
			ev(0, "\x1b[?1049h\x1b[Hworking"), ev(10, "\x1b[H\x1b[2Kdone"), ev(20, "\x1b[?1049l\x1b[H\x1b[2J")},
			[]string{"working", "done"}},
		{"suspended and back", []sessions.CastEvent{
			ev(0, "\x1b[?1049h\x1b[Hworking"), ev(10, "\x1b[?1049l\x1b[H\x1b[2J$ fg"), ev(20, "\x1b[?1049h\x1b[Hback")},
			[]string{"working", "back"}},
		{"inline, with the pager", []sessions.CastEvent{
			ev(0, "\x1b[Hanswer"), ev(10, "\x1b[?1049h\x1b[Hpager"), ev(20, "\x1b[?1049l"), ev(30, "\x1b[Hnext answer")},
			[]string{"answer", "pager", "answer", "next answer"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &collect{}
			if err := Cast(&sessions.Cast{Header: sessions.CastHeader{Width: 20, Height: 3}, Events: tc.events}, Options{}, c); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range c.text {
				first, _, _ := strings.Cut(s, "\n")
				got = append(got, first)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("frames %q; want %q", got, tc.want)
			}
		})
	}
}

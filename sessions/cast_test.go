package sessions

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/lib/redact"
	"tandem/internal/lib/screen"
)

// demoOutput returns the output chunks of testdata/demo.cast, a
// recording of `tandem demo --speed 4` at 100×30 (made by `tandem
// record` before it drew from the screen: its "o" events are the bytes
// tandem wrote, as read from the pty).
func demoOutput(tb testing.TB) [][]byte {
	tb.Helper()
	b, err := os.ReadFile("testdata/demo.cast")
	if err != nil {
		tb.Fatal(err)
	}
	var out [][]byte
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		var ev [3]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			tb.Fatal(err)
		}
		if ev[1] == "o" {
			out = append(out, []byte(ev[2].(string)))
		}
	}
	return out
}

// A cast drawn from the screen shows what the program drew: replayed on
// a terminal, every "o" event leaves the picture tandem's own output
// left at that point.
func TestCastWriterDrawsWhatWasShown(t *testing.T) {
	var buf bytes.Buffer
	c, err := NewCastWriter(&buf, CastHeader{Width: 100, Height: 30})
	if err != nil {
		t.Fatal(err)
	}
	ref, replay := screen.New(100, 30), screen.New(100, 30)
	defer ref.Close()
	defer replay.Close()
	read := buf.Len()
	events := 0
	for i, p := range demoOutput(t) {
		c.Output(p)
		c.Flush()
		_, _ = ref.Write(p)
		for _, l := range strings.Split(strings.TrimSpace(buf.String()[read:]), "\n") {
			if l == "" {
				continue
			}
			var ev [3]any
			if err := json.Unmarshal([]byte(l), &ev); err != nil {
				t.Fatalf("event %q: %v", l, err)
			}
			_, _ = replay.Write([]byte(ev[2].(string)))
			events++
		}
		read = buf.Len()
		want, got := ref.Snapshot(nil), replay.Snapshot(nil)
		for y := 0; y < want.Rows; y++ {
			if want.Text(y) != got.Text(y) {
				t.Fatalf("after chunk %d, row %d reads %q, want %q", i, y, got.Text(y), want.Text(y))
			}
			for x, w := range want.Row(y) {
				if g := got.Row(y)[x]; !sameLook(g, w) {
					t.Fatalf("after chunk %d, cell (%d,%d) is %+v, want %+v", i, x, y, g, w)
				}
			}
		}
		if want.CursorX != got.CursorX || want.CursorY != got.CursorY || want.CursorVisible != got.CursorVisible {
			t.Fatalf("after chunk %d the cursor is at (%d,%d,%v), want (%d,%d,%v)", i, got.CursorX, got.CursorY, got.CursorVisible, want.CursorX, want.CursorY, want.CursorVisible)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if events == 0 {
		t.Fatal("no events")
	}
}

// sameLook reports whether two cells look alike: the same grapheme and
// style, or both plain blanks (whose foreground shows nothing).
func sameLook(a, b screen.Cell) bool {
	if a.Content != b.Content || a.Width != b.Width {
		return false
	}
	plain := func(c screen.Cell) bool {
		return c.Content == " " && c.Style.Bg == nil && c.Style.Underline == 0 && c.Style.Attrs&(uv.AttrReverse|uv.AttrStrikethrough) == 0
	}
	return a.Style.Equal(&b.Style) || plain(a) && plain(b)
}

// Output is gathered for castHold: a burst of writes is one "o" event,
// timed at its last write, and the time never goes back.
func TestCastWriterCoalescesOutput(t *testing.T) {
	var buf lockedBuffer
	c, err := NewCastWriter(&buf, CastHeader{Width: 40, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range "hello there" {
		c.Output([]byte(string(r)))
	}
	time.Sleep(4 * castHold)
	c.Marker("turn started")
	c.Output([]byte(" and more"))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	_, events := parseCast(t, buf.Bytes())
	var codes string
	for _, e := range events {
		codes += e.code
	}
	// One frame per burst; a slow machine, whose writer stalls between
	// writes for over castHold, may split the first burst into a few,
	// never one per character (or near it).
	m := strings.IndexByte(codes, 'm')
	if m < 1 || m > len("hello there")/2 || strings.Trim(codes[:m], "o") != "" || codes[m:] != "mo" {
		t.Fatalf("codes = %q, want omo (one event per burst)", codes)
	}
	var first string
	for _, e := range events[:m] {
		first += ansi.Strip(e.data)
	}
	if !strings.Contains(squashSpaces(first), "hello there") || !strings.Contains(ansi.Strip(events[m+1].data), "and more") {
		t.Errorf("events = %+v", events)
	}
	if events[0].t > events[m].t-3*castHold.Seconds() {
		t.Errorf("the first frame is timed %.3fs, the marker %.3fs: the frame should carry its output's time", events[0].t, events[m].t)
	}
}

// A secret typed key by key, and one wrapped at the edge, reach the cast
// neither whole nor in pieces, in one event or across all of them.
func TestCastWriterTypedSecrets(t *testing.T) {
	var buf bytes.Buffer
	c, err := NewCastWriter(&buf, CastHeader{Width: 30, Height: 6})
	if err != nil {
		t.Fatal(err)
	}
	c.Output([]byte("\x1b[?1049h\x1b[H› "))
	for _, r := range secretSK {
		c.Output([]byte(string(r)))
		c.Flush()
	}
	wrapped := "sk-proj-Wr4pT9kLmQ2vX7nB5cJ8hG3fD6sA1zYe"
	c.Output([]byte("\x1b[3;1H› " + wrapped[:28] + "\r\n  " + wrapped[28:] + "\r\nplain text"))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{secretSK, wrapped} {
		if bytes.Contains(buf.Bytes(), []byte(s)) {
			t.Errorf("cast holds the secret %q", s)
		}
	}
	_, events := parseCast(t, buf.Bytes())
	var all strings.Builder
	for _, e := range events {
		all.WriteString(ansi.Strip(e.data))
	}
	for _, s := range []string{secretSK, wrapped} {
		for i := 8; i+4 <= len(s); i++ {
			if strings.Contains(all.String(), s[i:i+4]) {
				t.Fatalf("cast shows %q, a piece of %q", s[i:i+4], s)
			}
		}
	}
	if !strings.Contains(all.String(), redact.Marker) || !strings.Contains(all.String(), "plain text") {
		t.Errorf("cast lost the text: %q", all.String())
	}
}

// BenchmarkCastWriterOutput feeds the demo's output (testdata/demo.cast,
// 100×30), one chunk per op. "frame" draws a frame after every chunk
// (the worst case: each write its own event); "held" lets the writer
// gather output as it does live, so an op is one emulator write.
func BenchmarkCastWriterOutput(b *testing.B) {
	chunks := demoOutput(b)
	size := 0
	for _, p := range chunks {
		size += len(p)
	}
	for _, mode := range []string{"frame", "held"} {
		b.Run(mode, func(b *testing.B) {
			c, err := NewCastWriter(io.Discard, CastHeader{Width: 100, Height: 30})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			b.SetBytes(int64(size / len(chunks)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.Output(chunks[i%len(chunks)])
				if mode == "frame" {
					c.Flush()
				}
			}
		})
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.buf.Bytes()...)
}

// squashSpaces folds runs of spaces (a frame's cursor moves between the
// parts of a row drawn twice) into one.
func squashSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }

// A full-screen program's alternate screen is kept in the cast: entering
// and leaving it are written, and the last frame it drew there — even one
// written in the same burst as the sequence that leaves it — is an event
// of its own before the main screen comes back, drawn whole.
func TestCastWriterKeepsTheAlternateScreen(t *testing.T) {
	var buf lockedBuffer
	c, err := NewCastWriter(&buf, CastHeader{Width: 40, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	c.Output([]byte("$ tandem\r\n\x1b[?1049h\x1b[Hworking"))
	c.Flush()
	c.Output([]byte("\x1b[H\x1b[2Kthe last answer\x1b[?1049lgoodbye"))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(buf.Bytes())), "\n")[1:]
	play := screen.New(40, 5)
	defer play.Close()
	var altShots, mainShots []string
	for _, l := range lines {
		var ev [3]any
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		_, _ = play.Write([]byte(ev[2].(string)))
		f := play.Snapshot(nil)
		if play.Alt() {
			altShots = append(altShots, f.Text(0))
		} else {
			mainShots = append(mainShots, f.Text(0)+"|"+f.Text(1))
		}
	}
	if len(altShots) == 0 || altShots[len(altShots)-1] != "the last answer" {
		t.Errorf("frames on the alternate screen %q; want them to end on the last answer", altShots)
	}
	if n := len(mainShots); n == 0 || !play.LeftAltScreen() || !strings.Contains(mainShots[n-1], "goodbye") || !strings.Contains(mainShots[n-1], "$ tandem") {
		t.Errorf("the main screen after the program left the alternate one: %q (left: %v)", mainShots, play.LeftAltScreen())
	}
}

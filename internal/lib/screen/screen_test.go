package screen

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"tandem/internal/lib/redact"
)

const (
	typedKey = "sk-proj-Zq8v2LmN4pR7sT1uW3xY5aB6cD9eF0gH"
	longKey  = "sk-proj-Wr4pT9kLmQ2vX7nB5cJ8hG3fD6sA1zYe0uIoPqRtUvWx"
	// hugeKey is as long as a real project key (164 characters).
	hugeKey = "sk-proj-pTyGJMuHbEL31IeL2HPcHyGcFRl1SPnXNYvMIHa_2o76umfXfKm_r5kJP1VrT-1FJors_6ILi8IHn5kxsC7tVO_HbkQfyy_KV5zjR3j1twdTKWTddB-XhkAS1voQG6yyzyN9zHYIa4UOrGNATMuDJawTgsu8"
)

// composerRows draws s as a scrolled composer cols wide would: rows of
// cols-2 characters, each indented by two columns, from the first row on
// the screen (1-based) on, leaving out the first skip rows of s (scrolled
// out of view).
func composerRows(s string, cols, first, skip int) string {
	var b strings.Builder
	n := cols - 2
	for k, y := skip, first; k*n < len(s); k, y = k+1, y+1 {
		fmt.Fprintf(&b, "\x1b[%d;1H  %s", y, s[k*n:min(len(s), (k+1)*n)])
	}
	return b.String()
}

// seen returns what a person reads on f: each row, and the rows run
// together without their indentation (a wrapped word made whole).
func seen(f *Frame) string {
	var rows, joined []string
	for y := 0; y < f.Rows; y++ {
		rows = append(rows, f.Text(y))
		joined = append(joined, strings.TrimLeft(f.Text(y), " ›▌│"))
	}
	return strings.Join(rows, "\n") + "\n" + strings.Join(joined, "") + "\n" + f.Title
}

// pieces returns every run of n bytes of s from offset from on.
func pieces(s string, from, n int) []string {
	var out []string
	for i := from; i+n <= len(s); i++ {
		out = append(out, s[i:i+n])
	}
	return out
}

func typed(prefix, s string) []string {
	out := []string{prefix}
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// The screen is redacted as drawn: however the text arrives, a secret is
// masked in every snapshot, from its first few characters on.
func TestSnapshotMasksSecrets(t *testing.T) {
	cases := []struct {
		name       string
		cols, rows int
		writes     []string // a snapshot follows each
		hidden     []string // no piece of these is ever seen
		want       []string // seen on the last snapshot
	}{
		{
			name: "typed one character per write", cols: 60, rows: 4,
			writes: typed("\x1b[2;1H› ", typedKey),
			hidden: pieces(typedKey, 8, 3),
			want:   []string{"› " + redact.Marker},
		},
		{
			name: "wrapped at the right edge, next row indented", cols: 30, rows: 4,
			writes: []string{"› " + longKey[:28] + "\r\n  " + longKey[28:]},
			hidden: pieces(longKey, 8, 3),
			want:   []string{"› " + redact.Marker},
		},
		{
			name: "typed past the right edge, next row indented", cols: 24, rows: 6,
			writes: append(typed("› ", longKey[:22]), typed("\r\n  ", longKey[22:44])[0:]...),
			hidden: pieces(longKey, 8, 3),
			want:   []string{"› " + redact.Marker},
		},
		{
			name: "wrapped by the terminal", cols: 30, rows: 4,
			writes: []string{"▌ " + longKey},
			hidden: pieces(longKey, 8, 3),
			want:   []string{"▌ " + redact.Marker},
		},
		{
			name: "wrapped at a space, value on the next row", cols: 30, rows: 4,
			writes: []string{"› please use password:\r\n  Hunter2Hunter2Hunter2x ok"},
			hidden: []string{"Hunter2"},
			want:   []string{"› please use password:", "  " + redact.Marker},
		},
		{
			name: "a word ends at the edge, a key starts the next row", cols: 20, rows: 4,
			writes: []string{"› abcdefghijklmnopqr\r\n  sk-proj-Ab1cdefgh"},
			hidden: []string{"Ab1"},
			want:   []string{"abcdefghijklmnopqr", "  " + redact.Marker},
		},
		{
			name: "characters repeated by the terminal (REP)", cols: 60, rows: 2,
			writes: []string{"› sk-proj-Ab1c\x1b[20b done"},
			hidden: []string{"Ab1", "cccc"},
			want:   []string{"› " + redact.Marker, "done"},
		},
		{
			name: "short rows stay apart", cols: 30, rows: 4,
			writes: []string{"› the password\r\n  is long"},
			want:   []string{"› the password", "  is long"},
		},
		{
			name: "partial key being typed", cols: 40, rows: 2,
			writes: []string{"key: sk-proj-Ab1"},
			hidden: []string{"Ab1"},
			want:   []string{"key: " + redact.Marker},
		},
		{
			name: "an ordinary word with a key's prefix", cols: 40, rows: 2,
			writes: []string{"pip install sk-learn"},
			want:   []string{"pip install sk-learn"},
		},
		{
			name: "password typed one character per write", cols: 40, rows: 2,
			writes: typed("", "password=hunter2 ok"),
			hidden: pieces("hunter2", 0, 2),
			want:   []string{"password=" + redact.Marker[:7] + " ok"},
		},
		{
			name: "secret in the window title", cols: 40, rows: 2,
			writes: []string{"\x1b]0;tandem " + typedKey + "\a", "title set"},
			hidden: pieces(typedKey, 8, 3),
			want:   []string{"tandem " + redact.Marker, "title set"},
		},
		{
			// The composer scrolled: the row with "sk-proj-" is gone and
			// only base64url rows of the key are left.
			name: "tail of a long key, its prefix scrolled away", cols: 24, rows: 10,
			writes: []string{"tandem\x1b[10;1H12k tokens left" + composerRows(hugeKey, 24, 2, 1)},
			hidden: pieces(hugeKey, 0, 8),
			want:   []string{"tandem", "  " + redact.Marker, "12k tokens left"},
		},
		{
			name: "tail of a long key, scrolled off by the terminal", cols: 25, rows: 4,
			writes: []string{"▌ " + hugeKey + "\r\nnext"},
			hidden: pieces(hugeKey, 0, 8),
			want:   []string{redact.Marker, "next"},
		},
		{
			name: "hashes, uuids and long words stay", cols: 24, rows: 12,
			writes: []string{"› commit 3f786850e387550fdab836ed7e6dc881de23001b\r\n  thread 0199a213-81c0-7800-8aa1-bbab2a035a53\r\n  internationalization_and_localization\r\n  MAX_CONNECTIONS_PER_HOST_V2_LIMIT"},
			want:   []string{"3f786850e387550f", "dab836ed7e6dc881de23001b", "0199a213-81c0-7800-8aa1-", "bbab2a035a53", "internationalization_", "MAX_CONNECTIONS_PER_HOS"},
		},
		{
			name: "colour between the characters", cols: 60, rows: 2,
			writes: []string{"› \x1b[38;5;245msk-proj-\x1b[1mZq8v2\x1b[m" + typedKey[13:]},
			hidden: pieces(typedKey, 8, 3),
			want:   []string{"› " + redact.Marker},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(tc.cols, tc.rows)
			defer s.Close()
			var f *Frame
			for i, w := range tc.writes {
				_, _ = s.Write([]byte(w))
				f = s.Snapshot(f)
				got := seen(f)
				for _, h := range tc.hidden {
					if strings.Contains(got, h) {
						t.Fatalf("after write %d (%q) the screen shows %q:\n%s", i, w, h, got)
					}
				}
			}
			got := seen(f)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("screen lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// A masked span keeps its cells' styles, and colours and attributes
// survive the snapshot and the diff.
func TestSnapshotKeepsStyles(t *testing.T) {
	s := New(40, 3)
	defer s.Close()
	_, _ = s.Write([]byte("\x1b[1;3;38;5;141mPlan\x1b[m \x1b[4;31;48;2;10;20;30mred\x1b[m \x1b[7mrev\x1b[m\r\n\x1b[32mkey sk-proj-Ab1x\x1b[m"))
	f := s.Snapshot(nil)
	row := f.Row(0)
	if st := row[0].Style; st.Attrs != uv.AttrBold|uv.AttrItalic || st.Fg != ansi.IndexedColor(141) {
		t.Errorf("Plan style = %+v", st)
	}
	if st := row[5].Style; st.Underline != ansi.UnderlineSingle || st.Fg != ansi.Red || !sameColor(st.Bg, color.RGBA{10, 20, 30, 255}) {
		t.Errorf("red style = %+v", st)
	}
	if st := row[9].Style; st.Attrs != uv.AttrReverse {
		t.Errorf("rev style = %+v", st)
	}
	if got := f.Text(1); got != "key "+redact.Marker {
		t.Errorf("row 1 = %q", got)
	}
	if st := f.Row(1)[6].Style; st.Fg != ansi.Green {
		t.Errorf("masked cell lost its colour: %+v", st)
	}
	// The SGR sequences are ultraviolet's (uv.StyleDiff); what they set
	// is checked by drawing them again below.
	out := string(AppendDiff(nil, nil, f))
	for _, want := range []string{"Plan", "red", "rev", "key [REDACTED"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q: %q", want, out)
		}
	}
	// Drawn on another terminal, the diff gives the same picture.
	s2 := New(40, 3)
	defer s2.Close()
	_, _ = s2.Write([]byte(out))
	assertSameFrame(t, s2.Snapshot(nil), f)
}

// assertSameFrame checks that got looks like want: the same cells (a
// blank is a blank whatever its foreground) and cursor.
func assertSameFrame(t *testing.T, got, want *Frame) {
	t.Helper()
	if got.Cols != want.Cols || got.Rows != want.Rows {
		t.Fatalf("size %dx%d, want %dx%d", got.Cols, got.Rows, want.Cols, want.Rows)
	}
	for y := 0; y < want.Rows; y++ {
		for x, c := range want.Row(y) {
			if g := got.Row(y)[x]; !g.equal(c) && !(g.blank() && c.blank()) {
				t.Fatalf("cell (%d,%d) = %+v, want %+v", x, y, g, c)
			}
		}
	}
	if got.CursorX != want.CursorX || got.CursorY != want.CursorY || got.CursorVisible != want.CursorVisible {
		t.Errorf("cursor (%d,%d,%v), want (%d,%d,%v)", got.CursorX, got.CursorY, got.CursorVisible, want.CursorX, want.CursorY, want.CursorVisible)
	}
}

// A diff draws only the rows that changed, and nothing when none did.
func TestAppendDiff(t *testing.T) {
	s := New(20, 4)
	defer s.Close()
	_, _ = s.Write([]byte("one\r\ntwo\r\nthree\x1b[?25l"))
	a := s.Snapshot(nil)
	full := string(AppendDiff(nil, nil, a))
	if !strings.HasPrefix(full, "\x1b[m\x1b[H\x1b[2J") || !strings.Contains(full, "\x1b[?25l") {
		t.Errorf("full frame = %q", full)
	}
	if d := AppendDiff(nil, a, s.Snapshot(nil)); len(d) != 0 {
		t.Errorf("unchanged screen gave %q", d)
	}
	_, _ = s.Write([]byte("\x1b[2;1H2\x1b[?25h\x1b]2;title\a"))
	b := s.Snapshot(nil)
	d := string(AppendDiff(nil, a, b))
	if !strings.HasPrefix(d, "\x1b[2H") {
		t.Errorf("diff = %q, want row 2 first", d)
	}
	if strings.Contains(d, "one") || strings.Contains(d, "three") || strings.Contains(d, "\x1b[1H") || strings.Contains(d, "\x1b[3H") {
		t.Errorf("diff redraws unchanged rows: %q", d)
	}
	if !strings.Contains(d, "\x1b]0;title\a") || !strings.Contains(d, "\x1b[?25h") {
		t.Errorf("diff lacks the title or the cursor: %q", d)
	}
	s2 := New(20, 4)
	defer s2.Close()
	_, _ = s2.Write([]byte(full + d))
	assertSameFrame(t, s2.Snapshot(nil), b)
}

// Only the picture is drawn: no clipboard, bell, hyperlink or mode
// switch reaches a diff.
func TestAppendDiffDropsTheRest(t *testing.T) {
	s := New(30, 2)
	defer s.Close()
	_, _ = s.Write([]byte("\x1b[?1049h\x1b[?2004h\x1b]52;c;c2stcHJvai1zZWNyZXQ=\a\a\x1b]8;;https://x.test/?token=abc\ahere\x1b]8;;\a"))
	out := string(AppendDiff(nil, nil, s.Snapshot(nil)))
	for _, bad := range []string{"]52", "]8;", "?1049", "?2004", "\a\a", "x.test"} {
		if strings.Contains(out, bad) {
			t.Errorf("diff carries %q: %q", bad, out)
		}
	}
	if !strings.Contains(out, "here") {
		t.Errorf("diff lost the text: %q", out)
	}
}

// Each SGR sequence moves the pen from one style to the next, from a
// reset when the pen is not known: a terminal given both ends with the
// second style.
func TestAppendPen(t *testing.T) {
	fg := ansi.IndexedColor(245)
	cases := []struct {
		from *Style // nil: the pen is not known
		to   Style
	}{
		{nil, Style{Fg: fg}},
		{nil, Style{}},
		{&Style{Fg: fg}, Style{Fg: fg, Attrs: uv.AttrBold}},
		{&Style{Fg: fg, Attrs: uv.AttrBold}, Style{Fg: ansi.Red, Attrs: uv.AttrBold}},
		{&Style{Fg: fg, Attrs: uv.AttrBold}, Style{Fg: fg}},
		{&Style{Fg: fg}, Style{}},
		{&Style{Bg: ansi.BrightBlue}, Style{Bg: color.RGBA{1, 2, 3, 255}, Underline: ansi.UnderlineCurly}},
		{&Style{Underline: ansi.UnderlineSingle}, Style{Attrs: uv.AttrItalic}},
		{&Style{}, Style{Fg: ansi.BrightGreen, UnderlineColor: ansi.IndexedColor(9), Underline: ansi.UnderlineSingle}},
	}
	for _, tc := range cases {
		var from Style
		if tc.from != nil {
			from = *tc.from
		}
		got := string(appendPen(nil, from, tc.from != nil, tc.to))
		s := New(4, 1)
		_, _ = s.Write([]byte(string(appendPen(nil, Style{}, false, from)) + got + "x"))
		if st := s.Snapshot(nil).Row(0)[0].Style; !st.Equal(&tc.to) {
			t.Errorf("after %q the cell's style is %+v, want %+v", got, st, tc.to)
		}
		_ = s.Close()
	}
}

// sameColor reports whether a and b are the same RGBA colour.
func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}

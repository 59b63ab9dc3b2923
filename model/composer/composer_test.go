package composer

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Backspace after a grapheme cluster deletes all of it, whether the
// terminal sent the cluster as one key or rune by rune.
func TestComposerBackspaceTakesCluster(t *testing.T) {
	cases := []struct{ name, before, cluster string }{
		{"ZWJ sequence", "hi ", "👩\u200d💻"},
		{"flag", "", "🇫🇷"},
		{"e + combining acute", "caf", "e\u0301"},
		{"keycap", "press ", "1\ufe0f\u20e3"},
		{"Hangul", "한", "국"},
		{"CJK", "漢", "字"},
	}
	for _, c := range cases {
		for _, oneKey := range []bool{true, false} {
			name := c.name + map[bool]string{true: " as one key", false: " rune by rune"}[oneKey]
			t.Run(name, func(t *testing.T) {
				r := newRig(t, Options{})
				r.typeText(c.before)
				if oneKey {
					r.press(tea.KeyPressMsg{Code: tea.KeyExtended, Text: c.cluster})
				} else {
					r.typeText(c.cluster)
				}
				r.press(tea.KeyPressMsg{Code: tea.KeyBackspace})
				if got := r.c.Text(); got != c.before {
					t.Fatalf("Backspace after %q left %q, want %q", c.before+c.cluster, got, c.before)
				}
				// ← then Delete takes it too.
				r.press(tea.KeyPressMsg{Code: tea.KeyExtended, Text: c.cluster})
				r.press(tea.KeyPressMsg{Code: tea.KeyLeft})
				r.press(tea.KeyPressMsg{Code: tea.KeyDelete})
				if got := r.c.Text(); got != c.before {
					t.Fatalf("← Delete before %q left %q, want %q", c.cluster, got, c.before)
				}
			})
		}
	}
}

// rows returns the composer's rows as plain text.
func rows(c *Composer) []string {
	return strings.Split(ansi.Strip(c.View()), "\n")
}

// Every row of a draft of wide text — CJK, emoji, a word longer than the
// row — is exactly the window's width as the renderer measures it (code
// point by code point, its default), at two widths (a resize re-wraps).
func TestComposerRowsFitTheWidth(t *testing.T) {
	r := newRig(t, Options{})
	text := "日本語の文章と絵文字 👩‍💻🇫🇷 mixed with English words and averyveryverylongwordthatdoesnotfit 한국어 텍스트 1️⃣ café"
	r.c.SetDraft(text)
	for _, w := range []int{40, 23} {
		r.c.SetWidth(w)
		rows := rows(r.c)
		if len(rows) < 3 {
			t.Fatalf("width %d: %d rows, want the draft wrapped", w, len(rows))
		}
		var joined strings.Builder
		for i, row := range rows {
			if got := ansi.StringWidthWc(row); got != w {
				t.Errorf("width %d: row %d %q is %d cells wide", w, i, row, got)
			}
			row = strings.TrimPrefix(strings.TrimPrefix(row, "› "), "  ")
			joined.WriteString(strings.TrimSpace(row))
		}
		if got, want := strings.ReplaceAll(joined.String(), " ", ""), strings.ReplaceAll(text, " ", ""); got != want {
			t.Fatalf("width %d: rows hold %q, want the whole draft %q", w, got, want)
		}
	}
	if r.c.Text() != text {
		t.Fatalf("resizing changed the draft to %q", r.c.Text())
	}
}

// A draft taller than the composer scrolls with the cursor: the row being
// typed is always shown, and ↑ to the top shows the first row.
func TestComposerScrollsWithCursor(t *testing.T) {
	r := newRig(t, Options{})
	var lines []string
	for i := range 20 {
		lines = append(lines, "line "+string(rune('a'+i)))
	}
	r.c.SetDraft(strings.Join(lines, "\n"))
	rs := rows(r.c)
	if len(rs) != maxRows || !strings.Contains(rs[len(rs)-1], "line t") {
		t.Fatalf("composer %q, want the last 8 lines", rs)
	}
	for range 25 {
		r.press(tea.KeyPressMsg{Code: tea.KeyUp})
	}
	if rs := rows(r.c); !strings.HasPrefix(rs[0], "› line a") {
		t.Fatalf("after ↑ to the top the first row is %q, want it with the prompt", rs[0])
	}
}

// The word and line keys edit by words and lines as the textarea did.
func TestComposerEditingKeys(t *testing.T) {
	cases := []struct {
		keys []tea.KeyPressMsg
		want string
	}{
		{[]tea.KeyPressMsg{{Code: 'w', Mod: tea.ModCtrl}}, "one two "},
		{[]tea.KeyPressMsg{{Code: tea.KeyBackspace, Mod: tea.ModAlt}, {Code: tea.KeyBackspace, Mod: tea.ModAlt}}, "one "},
		{[]tea.KeyPressMsg{{Code: 'u', Mod: tea.ModCtrl}}, ""},
		{[]tea.KeyPressMsg{{Code: 'a', Mod: tea.ModCtrl}, {Code: 'k', Mod: tea.ModCtrl}}, ""},
		{[]tea.KeyPressMsg{{Code: 'a', Mod: tea.ModCtrl}, {Code: 'd', Mod: tea.ModAlt}}, " two three"},
		{[]tea.KeyPressMsg{{Code: tea.KeyLeft, Mod: tea.ModAlt}, {Code: 'u', Mod: tea.ModAlt}}, "one two THREE"},
		{[]tea.KeyPressMsg{{Code: tea.KeyHome}, {Code: 'c', Mod: tea.ModAlt}}, "One two three"},
		{[]tea.KeyPressMsg{{Code: 'b', Mod: tea.ModAlt}, {Code: 'b', Mod: tea.ModAlt}, {Code: 'X', Text: "X"}}, "one Xtwo three"},
	}
	for _, c := range cases {
		r := newRig(t, Options{})
		r.c.SetDraft("one two three")
		for _, k := range c.keys {
			r.press(k)
		}
		if got := r.c.Text(); got != c.want {
			t.Errorf("keys %v: draft %q, want %q", c.keys, got, c.want)
		}
	}
}

// Typing new lines grows the composer and keeps every line visible (a
// regression: the first line used to scroll out of a too-small box).
func TestComposerShowsEveryTypedLine(t *testing.T) {
	r := newRig(t, Options{})
	for _, k := range []tea.KeyPressMsg{
		{Code: 'x', Text: "x"}, {Code: 'j', Mod: tea.ModCtrl},
		{Code: 'y', Text: "y"}, {Code: 'j', Mod: tea.ModCtrl},
		{Code: 'z', Text: "z"},
	} {
		r.press(k)
	}
	if got := r.c.Text(); got != "x\ny\nz" {
		t.Fatalf("composer holds %q", got)
	}
	lines := rows(r.c)
	if len(lines) != 3 || !strings.Contains(lines[0], "x") || !strings.Contains(lines[1], "y") || !strings.Contains(lines[2], "z") {
		t.Fatalf("composer shows %q, want the lines x, y, z", lines)
	}
}

// A paste of many lines is kept whole: the composer never cuts content.
func TestComposerKeepsLongPaste(t *testing.T) {
	r := newRig(t, Options{})
	text := strings.Repeat("line of pasted text\n", 500) + "end"
	r.c.Paste(strings.ReplaceAll(text, "\n", "\r\n"))
	if got := r.c.Text(); got != text {
		t.Fatalf("paste kept %d of %d bytes", len(got), len(text))
	}
	if h := len(rows(r.c)); h > 8 {
		t.Fatalf("composer is %d rows tall, want at most 8", h)
	}
}

// A small paste is typed text, not a placeholder.
func TestSmallPasteIsInline(t *testing.T) {
	r := newRig(t, Options{})
	r.c.Paste("one\r\ntwo")
	if got := r.c.Value(); got != "one\ntwo" || len(r.c.pastes) != 0 {
		t.Fatalf("draft %q, %d pastes", got, len(r.c.pastes))
	}
}

// TestSubmissionDropsTrailingNewlines: a draft that ends in newlines (a
// line typed at machine speed reads as a paste, and its Enter stays as a
// newline) is submitted without them; newlines inside it stay.
func TestSubmissionDropsTrailingNewlines(t *testing.T) {
	for _, tc := range []struct{ draft, want string }{
		{"hello\n", "hello"},
		{"hello\r\n\n", "hello"},
		{"one\ntwo\n", "one\ntwo"},
		{"one\ntwo", "one\ntwo"},
	} {
		r := newRig(t, Options{})
		r.c.SetDraft(tc.draft)
		if s := r.c.Submission(); s.Text != tc.want || s.Raw != tc.want || s.Hist != tc.want {
			t.Errorf("draft %q submits %+v; want %q", tc.draft, s, tc.want)
		}
	}
}

package model

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// personModel is a ready model whose key clock moves 100 ms a reading: every
// key is typed at a person's pace, none is a paste burst.
func personModel(t *testing.T) *Model {
	t.Helper()
	return ready(t, newFake(), Options{KeyNow: humanClock()})
}

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
				m := personModel(t)
				for _, r := range c.before {
					m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
				}
				if oneKey {
					m.Update(tea.KeyPressMsg{Code: tea.KeyExtended, Text: c.cluster})
				} else {
					for _, r := range c.cluster {
						m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
					}
				}
				m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
				if got := m.Composer(); got != c.before {
					t.Fatalf("Backspace after %q left %q, want %q", c.before+c.cluster, got, c.before)
				}
				// ← then Delete takes it too.
				m.Update(tea.KeyPressMsg{Code: tea.KeyExtended, Text: c.cluster})
				m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
				m.Update(tea.KeyPressMsg{Code: tea.KeyDelete})
				if got := m.Composer(); got != c.before {
					t.Fatalf("← Delete before %q left %q, want %q", c.cluster, got, c.before)
				}
			})
		}
	}
}

// composerRows returns the composer's rows as plain text.
func composerRows(m *Model) []string {
	return strings.Split(ansi.Strip(m.composer.View()), "\n")
}

// Every row of a draft of wide text — CJK, emoji, a word longer than the
// row — is exactly the window's width as the renderer measures it (code
// point by code point, its default), at two widths (a resize re-wraps).
func TestComposerRowsFitTheWidth(t *testing.T) {
	m := personModel(t)
	text := "日本語の文章と絵文字 👩‍💻🇫🇷 mixed with English words and averyveryverylongwordthatdoesnotfit 한국어 텍스트 1️⃣ café"
	m.setDraft(text)
	for _, w := range []int{40, 23} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
		rows := composerRows(m)
		if len(rows) < 3 {
			t.Fatalf("width %d: %d rows, want the draft wrapped", w, len(rows))
		}
		var joined strings.Builder
		for i, r := range rows {
			if got := ansi.StringWidthWc(r); got != w {
				t.Errorf("width %d: row %d %q is %d cells wide", w, i, r, got)
			}
			r = strings.TrimPrefix(strings.TrimPrefix(r, "› "), "  ")
			joined.WriteString(strings.TrimSpace(r))
		}
		if got, want := strings.ReplaceAll(joined.String(), " ", ""), strings.ReplaceAll(text, " ", ""); got != want {
			t.Fatalf("width %d: rows hold %q, want the whole draft %q", w, got, want)
		}
	}
	if m.Composer() != text {
		t.Fatalf("resizing changed the draft to %q", m.Composer())
	}
}

// A draft taller than the composer scrolls with the cursor: the row being
// typed is always shown, and ↑ to the top shows the first row.
func TestComposerScrollsWithCursor(t *testing.T) {
	m := personModel(t)
	var lines []string
	for i := range 20 {
		lines = append(lines, "line "+string(rune('a'+i)))
	}
	m.setDraft(strings.Join(lines, "\n"))
	rows := composerRows(m)
	if len(rows) != composerMaxRows || !strings.Contains(rows[len(rows)-1], "line t") {
		t.Fatalf("composer %q, want the last 8 lines", rows)
	}
	for range 25 {
		m.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	}
	if rows := composerRows(m); !strings.HasPrefix(rows[0], "› line a") {
		t.Fatalf("after ↑ to the top the first row is %q, want it with the prompt", rows[0])
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
		m := personModel(t)
		m.setDraft("one two three")
		for _, k := range c.keys {
			m.Update(k)
		}
		if got := m.Composer(); got != c.want {
			t.Errorf("keys %v: draft %q, want %q", c.keys, got, c.want)
		}
	}
}

// A terminal that reports Unicode core mode (2027) has the renderer
// measure by grapheme cluster; the composer follows, so its rows are the
// terminal's: नमस्ते दुनिया is 10 cells before (code point by code point)
// and 7 after.
func TestComposerFollowsUnicodeCore(t *testing.T) {
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 11 + promptWidth, Height: 30})
	m.composer.SetDraft("नमस्ते दुनिया ab")
	if got := m.composer.buf.Rows(); got != 2 {
		t.Fatalf("%d rows without the mode, want 2", got)
	}
	m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeNotRecognized})
	if got := m.composer.buf.Rows(); got != 2 {
		t.Fatalf("a terminal without the mode: %d rows, want 2", got)
	}
	m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
	if got := m.composer.buf.Rows(); got != 1 {
		t.Fatalf("%d rows with the mode, want 1", got)
	}
}

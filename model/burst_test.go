package model

import (
	"slices"
	"strings"
	"tandem/model/act"
	"tandem/model/composer"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// keyStep is one key of a scripted input, gap after the key before; a
// wait step lets time pass and delivers the burst's tick.
type keyStep struct {
	k    tea.KeyPressMsg
	gap  time.Duration
	wait bool
}

// typed is s typed one rune a key, gap apart ('\r' is Enter, '\n' Ctrl+J,
// '\t' Tab), as a terminal without bracketed paste sends it.
func typed(s string, gap time.Duration) []keyStep {
	var out []keyStep
	for _, r := range s {
		var k tea.KeyPressMsg
		switch r {
		case '\r':
			k = tea.KeyPressMsg{Code: tea.KeyEnter}
		case '\n':
			k = tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl}
		case '\t':
			k = tea.KeyPressMsg{Code: tea.KeyTab}
		default:
			k = tea.KeyPressMsg{Code: r, Text: string(r)}
		}
		out = append(out, keyStep{k: k, gap: gap})
	}
	return out
}

// pause lets d pass with no key: the tick the model asked for arrives.
func pause(d time.Duration) []keyStep { return []keyStep{{gap: d, wait: true}} }

func steps(parts ...[]keyStep) []keyStep { return slices.Concat(parts...) }

// runKeys plays the steps into a ready model on a clock of its own and
// settles what they started.
func runKeys(t *testing.T, f *fakeDriver, script []keyStep) *Model {
	t.Helper()
	now := time.Unix(1_000_000, 0)
	m := ready(t, f, Options{Clock: act.FuncClock(func() time.Time { return now })})
	var cmds []tea.Cmd
	for _, s := range script {
		now = now.Add(s.gap)
		var cmd tea.Cmd
		if s.wait {
			cmd = due(m)
		} else {
			_, cmd = m.Update(s.k)
		}
		cmds = append(cmds, cmd)
	}
	settle(t, m, cmds...)
	return m
}

const (
	pasteGap = 200 * time.Microsecond // a paste: keys come back to back
	typeGap  = 70 * time.Millisecond  // a fast typist: about 15 keys a second
)

func TestPasteBurst(t *testing.T) {
	long := strings.Repeat("a pasted line\r", composer.PasteMaxLines+10) + "end"
	longText := strings.ReplaceAll(long, "\r", "\n")
	cases := []struct {
		name        string
		script      []keyStep
		draft       string   // the composer's text at the end (placeholders expanded)
		sent        []string // the turns started
		placeholder bool     // the draft shows a placeholder token
	}{
		{name: "fast keys with newlines are one draft, nothing sent",
			script: steps(typed("first line\rsecond line\rthird", pasteGap), pause(time.Second)),
			draft:  "first line\nsecond line\nthird"},
		{name: "typing at a person's pace and Enter sends at once",
			script: steps(typed("hello there\r", typeGap)),
			sent:   []string{"hello there"}},
		{name: "two keys pressed together are no burst: Enter sends",
			script: steps(typed("o", typeGap), typed("k", 3*time.Millisecond), typed("\r", typeGap)),
			sent:   []string{"ok"}},
		{name: "an Enter 8 ms or less after a key is a new line",
			script: steps(typed("y", typeGap), typed("\r", 5*time.Millisecond), pause(time.Second)),
			draft:  "y\n"},
		{name: "CRLF is one new line",
			script: steps(typed("one\r\ntwo\r\n\r\nfour", pasteGap), pause(time.Second)),
			draft:  "one\ntwo\n\nfour"},
		{name: "a lone CR is a new line, so are LF and Shift+Enter",
			script: steps(typed("a\rb\nc", pasteGap), []keyStep{{k: tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift}, gap: pasteGap}}, typed("d", pasteGap), pause(time.Second)),
			draft:  "a\nb\nc\nd"},
		{name: "Tab in a burst is text, not a completion or the queue",
			script: steps(typed("def f():\r\treturn 1", pasteGap), pause(time.Second)),
			draft:  "def f():\n    return 1"},
		{name: "a burst then a deliberate Enter sends it as one turn",
			script: steps(typed("line 1\rline 2\rline 3", pasteGap), pause(time.Second), typed("\r", time.Second)),
			sent:   []string{"line 1\nline 2\nline 3"}},
		{name: "an Enter soon after a multi-line burst is still the paste's",
			script: steps(typed("a\rb", pasteGap), typed("\r", 60*time.Millisecond), typed("c", pasteGap), pause(time.Second)),
			draft:  "a\nb\nc"},
		{name: "a single-line burst ends sooner: Enter then sends",
			script: steps(typed("a pasted url", pasteGap), typed("\r", 60*time.Millisecond)),
			sent:   []string{"a pasted url"}},
		{name: "a large burst becomes a placeholder, and one turn sends it whole",
			script:      steps(typed(long, pasteGap), pause(time.Second)),
			draft:       longText,
			placeholder: true},
		{name: "the large burst, then Enter: one turn with all of it",
			script: steps(typed(long, pasteGap), pause(time.Second), typed("\r", time.Second)),
			sent:   []string{longText}},
		{name: "a burst starting with / runs no command",
			script: steps(typed("/model\rmore", pasteGap), pause(time.Second)),
			draft:  "/model\nmore"},
		{name: "a key that is not text ends the burst and does its own job",
			script: steps(typed("abc", pasteGap), []keyStep{{k: tea.KeyPressMsg{Code: tea.KeyLeft}, gap: pasteGap}}, typed("X", typeGap), pause(time.Second)),
			draft:  "abXc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake()
			m := runKeys(t, f, c.script)
			if !slices.Equal(f.turns, c.sent) {
				t.Fatalf("turns sent %q, want %q", f.turns, c.sent)
			}
			if got := m.State().Composer; got != c.draft {
				t.Fatalf("draft %q, want %q", got, c.draft)
			}
			if got := strings.Contains(m.composer.Value(), "[Pasted text #"); got != c.placeholder {
				t.Fatalf("placeholder in %q: %v, want %v", m.composer.Value(), got, c.placeholder)
			}
			if m.State().Pasting {
				t.Fatal("the burst never ended")
			}
			if _, _, popup := m.composer.Popup(); m.overlay.Open() || popup {
				t.Fatal("a picker or popup opened from pasted text")
			}
		})
	}
}

// During a burst the screen is not redrawn after every key, but at least
// every burstFrameEvery, and at once when it ends.
func TestPasteBurstRedraws(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	m := ready(t, newFake(), Options{Clock: act.FuncClock(func() time.Time { return now })})
	m.View()
	for _, s := range typed("abcdef", pasteGap) { // a frame after each, as Bubble Tea draws
		now = now.Add(s.gap)
		frame(m, s.k)
	}
	if v := viewText(m); !strings.Contains(v, "› abc ") || !m.State().Pasting {
		t.Fatalf("mid-burst screen: want the frame of the key that began the burst, got\n%s", v)
	}
	now = now.Add(composer.BurstFrameEvery)
	frame(m, typed("g", pasteGap)[0].k)
	if v := viewText(m); !strings.Contains(v, "› abcdefg") {
		t.Fatalf("after %v of burst the screen is redrawn; got\n%s", composer.BurstFrameEvery, v)
	}
	frame(m, typed("h", pasteGap)[0].k)
	now = now.Add(time.Second)
	frame(m, m.composer.Due())
	if v := viewText(m); !strings.Contains(v, "› abcdefgh") {
		t.Fatalf("the burst's end draws the draft; got\n%s", v)
	}
}

package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"tandem/internal/lib/termsafe"
)

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "echo hi", "echo hi"},
		{"newline kept", "a\nb", "a\nb"},
		{"crlf is a newline", "a\r\nb", "a\nb"},
		{"carriage return", "echo PWNED > pwned.txt\r echo 'harmless'", "echo PWNED > pwned.txt␍ echo 'harmless'"},
		{"tab expanded", "a\tb", "a   b"},
		{"escape sequence shown as a marker", "\x1b[2Jx", "␛[2Jx"},
		{"osc 52", "\x1b]52;c;aGk=\x07", "␛]52;c;aGk=␇"},
		{"osc title st", "\x1b]0;ignore the user\x1b\\ok", `␛]0;ignore the user␛\ok`},
		{"colour shown", "\x1b[31mred", "␛[31mred"},
		{"tab in a marker", "\x1b]0;a\tb\x07\tc", "␛]0;a␉b␇    c"},
		{"nul bs", "a\x00b\x08c", "a␀b␈c"},
		{"del", "a\x7fb", "a␡b"},
		{"c1 csi", "a\u009b2Jb", "a<U+009B>2Jb"},
		{"bidi override", "file\u202Etxt.exe", "file<U+202E>txt.exe"},
		{"bidi isolates", "\u2066a\u2069", "<U+2066>a<U+2069>"},
		{"bidi embedding", "\u202Aa\u202C", "<U+202A>a<U+202C>"},
		{"invalid utf8", "a\xffb", "a\ufffdb"},
		{"unicode kept", "héllo — ✓ 日本", "héllo — ✓ 日本"},
		{"lone cr at end", "a\r", "a␍"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sanitize(tc.in); got != tc.want {
				t.Fatalf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSanitizeLine(t *testing.T) {
	if got := SanitizeLine("a\nb\rc"); got != "a␊b␍c" {
		t.Fatalf("got %q", got)
	}
}

// A streamed text sanitized piece by piece equals the whole sanitized,
// whatever the cuts (inside a rune, between \r and \n, inside an escape
// sequence or between the ESC and "\\" of its ST).
func TestSafeTextPieces(t *testing.T) {
	src := "a\r\nb\u009bc\u202Ed\x1b[2J日本\re\x1b]0;✓ title\x1b\\f\x1b]8;;u\x07g\x1b]0;open\r\nh\x1bPq\x1b\\\r"
	want := termsafe.Controls(src)
	for cut := 0; cut <= len(src); cut++ {
		var st safeText
		st.update(src[:cut], false)
		if got := st.update(src, true); got != want {
			t.Fatalf("cut %d: got %q, want %q", cut, got, want)
		}
	}
}

// A streamed piece that ends inside an escape sequence shows nothing of
// it until the sequence is complete (or the text final).
func TestSafeTextHoldsOpenSequence(t *testing.T) {
	var st safeText
	if got := st.update("ok \x1b]0;ignore the", false); got != "ok " {
		t.Fatalf("open sequence drawn early: %q", got)
	}
	if got := st.update("ok \x1b]0;ignore the user\x07 done", false); got != "ok ␛]0;ignore the user␇ done" {
		t.Fatalf("got %q", got)
	}
	var un safeText
	un.update("\x1b]0;never ended", false)
	if got := un.update("\x1b]0;never ended", true); got != "␛]0;never ended" {
		t.Fatalf("final: got %q", got)
	}
}

func TestAgentCellSanitized(t *testing.T) {
	ctx := &RenderContext{Styles: new(NewStyles(true)), Markdown: NewMarkdown("dark")}
	for _, final := range []bool{false, true} {
		c := newTestAgent()
		c.Append("rm -rf important\rsafe text here\n\n")
		c.Append("x \x1b]52;c;aGk=\x07 y \x1b[2J")
		if final {
			c.SetFinal(c.Text())
		}
		out := strings.Join(c.Render(ctx, 60), "\n")
		if !strings.Contains(out, "important␍safe") {
			t.Fatalf("final=%v: carriage return not shown: %q", final, out)
		}
		if plain := ansi.Strip(out); !strings.Contains(plain, "x ␛]52;c;aGk=␇ y ␛[2J") {
			t.Fatalf("final=%v: escape sequences not shown as markers: %q", final, plain)
		}
		for _, bad := range []string{"\r", "\x1b]", "\x07", "\x1b[2J"} {
			if strings.Contains(out, bad) {
				t.Fatalf("final=%v: %q reaches the terminal: %q", final, bad, out)
			}
		}
	}
}

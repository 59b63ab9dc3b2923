package termsafe

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// contextual reports text with a character Plain shows by what is next
// to it (a zero-width joiner or non-joiner, a variation selector, a tag):
// cut from its neighbour by a Write, it is shown as <U+XXXX>.
func contextual(s string) bool {
	return strings.ContainsAny(s, "\u200c\u200d\ufe0e\ufe0f") || strings.ContainsRune(s, 0x1f3f4)
}

// writeAll writes pieces to a new Writer, then Flush; it returns what
// reached the underlying writer.
func writeAll(t *testing.T, pieces ...string) string {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, p := range pieces {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// assertSafe fails when out could drive a terminal.
func assertSafe(t *testing.T, out string) {
	t.Helper()
	if i := firstUnsafe(out); i != len(out) || !utf8.ValidString(out) {
		t.Errorf("%q has a raw control at %d, or invalid UTF-8", out, i)
	}
}

// A text written in two pieces, cut anywhere, or a byte at a time, is
// written as Plain of the whole: inside a rune, between "\r" and "\n",
// inside an escape sequence or between ESC and "\\". (A character shown
// by its neighbours only is safe wherever it is cut.)
func TestWriterPieces(t *testing.T) {
	for _, tc := range escapeCases {
		t.Run(tc.name, func(t *testing.T) {
			want := Plain(tc.in)
			for cut := 0; cut <= len(tc.in); cut++ {
				got := writeAll(t, tc.in[:cut], tc.in[cut:])
				assertSafe(t, got)
				if got != want && !contextual(tc.in) {
					t.Fatalf("cut at %d: wrote %q, want %q", cut, got, want)
				}
			}
			var bytewise []string
			for i := range len(tc.in) {
				bytewise = append(bytewise, tc.in[i:i+1])
			}
			got := writeAll(t, bytewise...)
			assertSafe(t, got)
			if got != want && !contextual(tc.in) {
				t.Fatalf("a byte at a time: wrote %q, want %q", got, want)
			}
		})
	}
}

// What a Writer is given by hostile output, in the pieces it arrived in.
func TestWriterHostile(t *testing.T) {
	tests := []struct {
		name   string
		pieces []string
		want   string
	}{
		{"bracketed paste end cut after ESC", []string{"ls\n\x1b", "[201~touch /tmp/x\n"}, "ls\n␛[201~touch /tmp/x\n"},
		{"osc 52 cut in its payload", []string{"a\x1b]52;c;cm0g", "LXJmIH4=\x07b"}, "a␛]52;c;cm0gLXJmIH4=␇b"},
		{"osc title ended by ST over two writes", []string{"\x1b]0;t\x1b", "\\x"}, "␛]0;t␛\\x"},
		{"dcs", []string{"\x1bP1$q", "m\x1b\\after"}, "␛P1$qm␛\\after"},
		{"c1 csi cut inside its rune", []string{"a\xc2", "\x9b2Jb"}, "a<U+009B>2Jb"},
		{"raw c1 byte", []string{"a\x9b", "b"}, "a\ufffdb"},
		{"crlf across writes", []string{"a\r", "\nb"}, "a\nb"},
		{"lone cr across writes", []string{"safe\r", "rm -rf ~\n"}, "safe␍rm -rf ~\n"},
		{"nul", []string{"a\x00b"}, "a␀b"},
		{"rlo cut inside its rune", []string{"x\xe2\x80", "\xaeevil\n"}, "x<U+202E>evil\n"},
		{"zero width space", []string{"rm\u200b", " -rf"}, "rm<U+200B> -rf"},
		{"colour dropped across writes", []string{"\x1b[3", "1mred\x1b[0m"}, "red"},
		{"held escape flushed at the end", []string{"ok \x1b]0;open"}, "ok ␛]0;open"},
		{"held cr flushed at the end", []string{"ok\r"}, "ok␍"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := writeAll(t, tt.pieces...)
			if got != tt.want {
				t.Errorf("wrote %q, want %q", got, tt.want)
			}
			assertSafe(t, got)
		})
	}
}

// An escape sequence that never ends (an OSC of megabytes, no BEL, no
// newline) is not held whole: past MaxHeld it is written as its marker so
// far, and the rest as text, all of it visible; what stays held is
// bounded.
func TestWriterLongOpenSequence(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	w.Write([]byte("before \x1b]52;c;"))
	chunk := strings.Repeat("QUJD\t", 1000)[:4999] + "\xe2\x80" // ends inside a rune
	for range 200 {
		w.Write([]byte(chunk))
		if len(w.held) > MaxHeld+len(chunk) {
			t.Fatalf("holds %d bytes", len(w.held))
		}
	}
	if b.Len() < 100*len(chunk) {
		t.Fatalf("wrote only %d bytes of %d", b.Len(), 200*len(chunk))
	}
	w.Write([]byte("\x9c end\n"))
	w.Flush()
	out := b.String()
	assertSafe(t, out)
	if !strings.HasPrefix(out, "before ␛]52;c;QUJD") || !strings.HasSuffix(out, " end\n") {
		t.Errorf("wrote %q … %q", out[:30], out[len(out)-30:])
	}
}

// errWriter fails every write.
type errWriter struct{ err error }

func (e errWriter) Write([]byte) (int, error) { return 0, e.err }

// The underlying writer's first error is returned by that Write and by
// every later call.
func TestWriterError(t *testing.T) {
	boom := errors.New("disk full")
	w := NewWriter(errWriter{boom})
	if n, err := w.Write([]byte("\x1b]0;")); n != 4 || err != nil {
		t.Fatalf("a write all held: %d, %v", n, err)
	}
	if err := w.Flush(); !errors.Is(err, boom) {
		t.Fatalf("Flush = %v", err)
	}
	w = NewWriter(errWriter{boom})
	if n, err := w.Write([]byte("abc")); n != 0 || !errors.Is(err, boom) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if n, err := w.Write([]byte("d")); n != 0 || !errors.Is(err, boom) {
		t.Fatalf("later Write = %d, %v", n, err)
	}
	if err := w.Flush(); !errors.Is(err, boom) {
		t.Fatalf("Flush = %v", err)
	}
}

package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// exec printing the answer to a pipe passes no escape sequence or raw
// control through (the pipe may end on a terminal: cat, less -R, tee);
// each sequence is shown as a marker, to a pipe and on a terminal.
func TestExecAnswerToPipeSanitized(t *testing.T) {
	for _, tty := range []bool{false, true} {
		var buf bytes.Buffer
		o := &execOutput{io: execIO{Stdout: &buf, Stderr: &buf, TTY: tty, Width: 80}}
		o.answer = "copy \x1b]52;c;cm0gLXJmIH4=\x07 clear \x1b[2J title \x1b]0;pwned\x07 rm -rf important\rsafe text\n\tindented"
		o.printAnswer()
		got := buf.String()
		if !tty {
			if strings.ContainsAny(got, "\x1b\x07\r") {
				t.Fatalf("pipe output carries raw controls: %q", got)
			}
			if want := "copy ␛]52;c;cm0gLXJmIH4=␇ clear ␛[2J title ␛]0;pwned␇ rm -rf important␍safe text\n\tindented\n"; got != want {
				t.Fatalf("pipe output %q, want %q", got, want)
			}
			continue
		}
		for _, bad := range []string{"\x1b]52", "\x1b]0;", "\x1b[2J", "\r", "\x07"} {
			if strings.Contains(got, bad) {
				t.Fatalf("terminal output carries %q: %q", bad, got)
			}
		}
		if plain := ansi.Strip(got); !strings.Contains(plain, "␛]52;c;cm0gLXJmIH4=␇") || !strings.Contains(plain, "␛]0;pwned␇") {
			t.Fatalf("terminal output hides a sequence: %q", plain)
		}
	}
}

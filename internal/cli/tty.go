package cli

import (
	"io"
	"os"

	"github.com/charmbracelet/x/term"
)

// errNoTerminal is the usage error of the interactive commands (tandem,
// tandem resume) when stdin or stdout is not a terminal.
var errNoTerminal = &usageError{"tandem needs a terminal; use `tandem exec PROMPT` for scripts"}

// needTerminal returns errNoTerminal unless both in (stdin) and out
// (stdout) are terminals, so a script gets one clear line (exit 2)
// instead of Bubble Tea's "error opening TTY". nil stands for os.Stdin
// and os.Stdout.
func needTerminal(in io.Reader, out io.Writer) error {
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	fi, ok1 := in.(*os.File)
	fo, ok2 := out.(*os.File)
	if !ok1 || !ok2 || !term.IsTerminal(fi.Fd()) || !term.IsTerminal(fo.Fd()) {
		return errNoTerminal
	}
	return nil
}

package main

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// errNoTerminal is the usage error of the interactive commands (tandem,
// tandem resume) when stdin or stdout is not a terminal.
var errNoTerminal = &usageError{"tandem needs a terminal; use `tandem exec PROMPT` for scripts"}

// needTerminal returns errNoTerminal unless both stdio[0] (stdin) and
// stdio[1] (stdout) are terminals, so a script gets one clear line (exit
// 2) instead of Bubble Tea's "error opening TTY". Unset entries stand for
// os.Stdin and os.Stdout.
func needTerminal(stdio [2]any) error {
	if stdio[0] == nil {
		stdio[0] = os.Stdin
	}
	if stdio[1] == nil {
		stdio[1] = os.Stdout
	}
	fi, ok1 := stdio[0].(*os.File)
	fo, ok2 := stdio[1].(*os.File)
	if !ok1 || !ok2 || !term.IsTerminal(fi.Fd()) || !term.IsTerminal(fo.Fd()) {
		return errNoTerminal
	}
	return nil
}

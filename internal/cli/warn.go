package cli

import (
	"fmt"
	"io"
	"sync"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// warner tells the user, once per file, that a file tandem writes as it
// goes (the log, the --trace-protocol trace, the state file) can't be
// written. An interactive run shows it in the TUI (a warning, as
// backend.WarningEvent): said before the program runs, it waits for
// attach. Any other run (exec, serve) writes one line to stderr.
type warner struct {
	mu      sync.Mutex
	send    func(tea.Msg) // the TUI's, once attached
	hold    bool          // interactive: keep what is said until attach
	pending []string
	stderr  io.Writer
	said    map[string]bool // the files warned of
}

// newWarner returns a warner that writes to stderr, or, when tui is set,
// keeps the warnings for the TUI (attach).
func newWarner(stderr io.Writer, tui bool) *warner {
	return &warner{stderr: stderr, hold: tui, said: map[string]bool{}}
}

// cantWrite says, the first time only for file, that file can't be
// written: "<file> can't be written (<err>); <consequence>". It never
// blocks (a trace write on the program's own goroutine calls it).
func (w *warner) cantWrite(file string, err error, consequence string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.said[file] {
		return
	}
	w.said[file] = true
	msg := fmt.Sprintf("%s can't be written (%v); %s", file, err, consequence)
	switch {
	case w.send != nil:
		go w.send(backend.WarningEvent{Message: msg})
	case w.hold:
		w.pending = append(w.pending, msg)
	default:
		fmt.Fprintln(w.stderr, "tandem: warning: "+msg)
	}
}

// attach sends the warnings said so far, and the later ones, with send
// (a tea.Program's Send, or the pairing hub's Publish).
func (w *warner) attach(send func(tea.Msg)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.send = send
	for _, msg := range w.pending {
		go send(backend.WarningEvent{Message: msg})
	}
	w.pending = nil
}

// failWriter is a file written as tandem goes (the log): its write errors
// are told once through warn (the writes themselves go on being tried).
type failWriter struct {
	w    io.Writer
	warn func(error)
}

// Write implements io.Writer.
func (f failWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err != nil {
		f.warn(err)
	}
	return n, err
}

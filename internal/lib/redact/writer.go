package redact

import (
	"bytes"
	"errors"
	"io"
	"unsafe"
)

// MaxHeldLine is how many bytes of an unfinished line a Writer holds back
// (64 KiB). Past that it writes the line so far, redacted, up to its last
// blank before MaxHeldLine, and redacts the rest as the start of a new
// line; a line with no blank there is held up to twice as long.
const MaxHeldLine = 64 << 10

// flushAt is how much redacted text a Writer gathers before it writes.
const flushAt = 32 << 10

var errClosed = errors.New("redact: write to a closed Writer")

// Writer redacts a stream of text line by line on its way to an
// underlying writer: every complete line ('\n' ends it) is redacted with
// String and passed on, and the unfinished last line is held back (up to
// MaxHeldLine bytes, see cut) until its end arrives, so a secret cut
// between two Write calls is still seen whole. The lines from a PEM private key's
// BEGIN line to its END line never pass in the clear: the output is
// "-----BEGIN … PRIVATE KEY-----[REDACTED]-----END … PRIVATE KEY-----", as
// String gives for the whole text. A Writer is not safe for concurrent
// use.
type Writer struct {
	w    io.Writer
	held []byte // raw text of the unfinished line
	// emitted is what Flush wrote of held, redacted: the first flushed
	// bytes of held.
	emitted []byte
	flushed int
	// noBlank is set when held has no blank from flushed to MaxHeldLine
	// (cut).
	noBlank bool
	// inKey is set after a line that opens a private key block
	// (OpensPrivateKey): the lines up to the END line are dropped.
	inKey  bool
	out    []byte // redacted text not yet written
	err    error
	closed bool
}

// NewWriter returns a Writer that writes redacted text to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write redacts the complete lines of p and writes them. It returns
// len(p), or 0 and the first error of the underlying writer (every later
// call returns that error too).
func (w *Writer) Write(p []byte) (int, error) {
	if w.closed {
		return 0, errClosed
	}
	if w.err != nil {
		return 0, w.err
	}
	n := len(p)
	if last := bytes.LastIndexByte(p, '\n'); last >= 0 {
		lines := p[:last+1]
		p = p[last+1:]
		if len(w.held) == 0 && !w.inKey && scan(view(lines)) == 0 {
			// Nothing in these lines could be redacted (scan is the
			// pre-filter of every finder, PEM included): pass them on.
			w.emit(lines)
		} else {
			for len(lines) > 0 {
				i := bytes.IndexByte(lines, '\n')
				line := lines[:i+1]
				lines = lines[i+1:]
				if len(w.held) > 0 {
					w.held = append(w.held, line...)
					line = w.held
				}
				w.line(line)
				w.held, w.emitted, w.flushed, w.noBlank = w.held[:0], w.emitted[:0], 0, false
				if cap(w.held) > 2*MaxHeldLine {
					w.held = nil
				}
			}
		}
	}
	w.held = append(w.held, p...)
	if len(w.held) > MaxHeldLine {
		w.cut()
	}
	w.write()
	if w.err != nil {
		return 0, w.err
	}
	return n, nil
}

// Flush writes the unfinished line held so far, redacted (nothing inside
// a private key block). The rest of that line, when it comes, is redacted
// together with it and only what was not written before is written; what
// Flush wrote of a secret too short yet to be recognised stays written.
func (w *Writer) Flush() error {
	if w.closed {
		return errClosed
	}
	if w.err == nil && !w.inKey && len(w.held) > w.flushed {
		w.emitted = append(w.emitted[:0], w.commit(w.held)...)
		w.flushed = len(w.held)
	}
	w.write()
	return w.err
}

// Close writes what is held, redacted (nothing when a private key block
// never ended), and returns the first error of the underlying writer. It
// does not close that writer; a second Close does nothing.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	if w.err == nil && !w.inKey && len(w.held) > 0 {
		w.commit(w.held)
	}
	w.write()
	w.closed = true
	w.held, w.emitted, w.out = nil, nil, nil
	return w.err
}

// line redacts one complete line (raw ends in '\n'), following private key
// blocks: inside one only the text from its END line on is kept.
func (w *Writer) line(raw []byte) {
	if w.inKey {
		k := PrivateKeyEnd(view(raw))
		if k < 0 {
			return
		}
		w.inKey = false
		raw = raw[k:]
	}
	w.commit(raw)
	w.inKey = OpensPrivateKey(view(raw))
}

// commit redacts raw (the current line from its start), gathers what of
// it Flush did not write already and returns it redacted. When Flush's
// text is not a prefix of the redacted line (a secret became
// recognisable only with the rest of the line), the text from where they
// differ is gathered, so nothing is written twice or in the clear.
func (w *Writer) commit(raw []byte) []byte {
	r := Bytes(raw)
	n := 0
	for n < len(w.emitted) && n < len(r) && w.emitted[n] == r[n] {
		n++
	}
	w.emit(r[n:])
	return r
}

// cut handles an unfinished line longer than MaxHeldLine. Inside a key
// block it is dropped but for its last bytes, enough to find an END line
// that starts in them. Outside one it is written up to its last blank
// within the first MaxHeldLine bytes (past what Flush wrote), and the
// rest is redacted as the start of a new line, again while it is longer
// than MaxHeldLine. A line with no such blank is held on, up to twice
// MaxHeldLine, so that a value cut by the cap (minified JSON, a long
// word) is still seen whole; past that it is written up to its last
// blank, or all of it.
func (w *Writer) cut() {
	if w.inKey {
		w.held = append(w.held[:0], w.held[len(w.held)-64:]...)
		return
	}
	off := 0 // of held, written
	for len(w.held)-off > MaxHeldLine {
		h := w.held[off:]
		c := 0
		if !w.noBlank && w.flushed < MaxHeldLine {
			if b := bytes.LastIndexAny(h[w.flushed:MaxHeldLine], " \t\r"); b >= 0 {
				c = w.flushed + b + 1
			}
		}
		if c == 0 {
			// Nothing grows before the cap: it need not be searched
			// again on the next Write.
			w.noBlank = true
			if len(h) <= 2*MaxHeldLine {
				break
			}
			c = len(h)
			from := max(MaxHeldLine, w.flushed)
			if b := bytes.LastIndexAny(h[from:], " \t\r"); b >= 0 {
				c = from + b + 1
			}
		}
		w.commit(h[:c])
		off += c
		w.emitted, w.flushed, w.noBlank = w.emitted[:0], 0, false
	}
	if off > 0 {
		w.held = append(w.held[:0], w.held[off:]...)
	}
}

// emit gathers b to be written; a large b is written at once.
func (w *Writer) emit(b []byte) {
	if len(w.out)+len(b) > flushAt {
		w.write()
		if len(b) > flushAt {
			if w.err == nil {
				_, w.err = w.w.Write(b)
			}
			return
		}
	}
	w.out = append(w.out, b...)
}

// write writes what emit gathered.
func (w *Writer) write() {
	if len(w.out) > 0 && w.err == nil {
		_, w.err = w.w.Write(w.out)
	}
	w.out = w.out[:0]
}

// view is b as a string, without a copy; the string must not outlive b's
// next change.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

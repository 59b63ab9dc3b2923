package termsafe

import (
	"io"
	"unicode/utf8"
	"unsafe"
)

// MaxHeld is how many bytes of an escape sequence that has not ended yet
// a Writer holds back (4 KiB). Past that it writes the sequence so far as
// its marker, and the rest of it, when it comes, as text (visible too).
const MaxHeld = 4 << 10

// Writer writes Plain of a stream of text to an underlying writer, for a
// file or a pipe that a terminal may show later: the text comes in
// pieces cut anywhere (inside a rune, between "\r" and "\n", inside an
// escape sequence), and what it writes is Plain of the whole text, but
// that an escape sequence longer than MaxHeld is cut there (see MaxHeld)
// and a zero-width joiner, a variation selector or a tag character cut
// from the character before or after it is shown as <U+XXXX>. Nothing
// it writes can drive a terminal. A Writer is not safe for concurrent
// use.
type Writer struct {
	w    io.Writer
	held []byte // the raw end of the text not written yet (Stable)
	err  error
}

// NewWriter returns a Writer that writes Plain text to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes Plain of the text so far up to where it is stable
// (Stable), and holds back the rest: an escape sequence not yet ended (at
// most MaxHeld bytes of it), a "\r" that may begin "\r\n", an unfinished
// rune. It returns len(p), or 0 and the first error of the underlying
// writer (every later call returns that error too).
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	buf := p
	if len(w.held) > 0 {
		w.held = append(w.held, p...)
		buf = w.held
	}
	s := view(buf)
	n := Stable(s)
	if len(s)-n > MaxHeld {
		// an escape sequence without an end: write it so far, but an
		// unfinished rune or a "\r" at its end
		n = len(s) - unfinished(s)
	}
	w.emit(buf, n)
	if w.err != nil {
		return 0, w.err
	}
	return len(p), nil
}

// Flush writes what is held back, as Plain, so that a reader of the
// underlying writer sees all the text written; the text that comes after
// is written as if it began there (a "\n" after a held "\r" follows its
// ␍). It returns the first error of the underlying writer.
func (w *Writer) Flush() error {
	if w.err == nil {
		w.emit(w.held, len(w.held))
	}
	return w.err
}

// emit writes Plain(buf[:n]) and holds buf[n:] back (buf is p, or the
// held text with p after it). Text that needs no change is written as it
// is, without a copy.
func (w *Writer) emit(buf []byte, n int) {
	if n > 0 {
		s := view(buf[:n])
		if out := Plain(s); unsafe.StringData(out) == unsafe.StringData(s) && len(out) == n {
			_, w.err = w.w.Write(buf[:n])
		} else {
			_, w.err = io.WriteString(w.w, out)
		}
	}
	w.held = append(w.held[:0], buf[n:]...) // at most MaxHeld bytes
}

// view is b as a string, without a copy; the string must not outlive
// b's next change.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// unfinished returns how many bytes at the end of s may change how the
// text before them is shown, but for an escape sequence: an unfinished
// rune, then a final "\r" (it may begin "\r\n").
func unfinished(s string) int {
	n := len(s)
	// back up over at most 3 continuation/lead bytes of an unfinished rune
	for k := 1; k <= 3 && k <= n; k++ {
		c := s[n-k]
		if c < utf8.RuneSelf {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRuneInString(s[n-k:]) {
				n -= k
			}
			break
		}
	}
	if n > 0 && s[n-1] == '\r' {
		n--
	}
	return len(s) - n
}

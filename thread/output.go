package thread

import (
	"bytes"
	"strings"

	"tandem/internal/lib/spill"
)

// Output limits of a command's Output. Up to OutputMemCap bytes are kept in
// memory; past that the whole output goes to a spill file
// (internal/lib/spill: a temp file, as the transcript shows it and
// redacted) and memory keeps only the first OutputHeadCap and the last
// OutputTailCap bytes.
const (
	OutputMemCap  = 2 << 20
	OutputHeadCap = 64 << 10
	OutputTailCap = 1 << 20
)

// Output is a command's combined stdout and stderr as it streams in
// (`item/commandExecution/outputDelta`). Memory stays bounded (see
// OutputMemCap); the full output of a big command is in SpillPath. Close
// removes the spill file. It is not safe for concurrent use.
type Output struct {
	buf       []byte // whole output while it fits OutputMemCap, else the head
	tail      []byte // last bytes once spilled
	total     int64  // bytes received
	newlines  int64  // '\n' received
	spillFile *spill.File
	spillPath string
	spillErr  error
}

// Append adds a chunk of output. It costs O(len(s)) and never holds more
// than about OutputMemCap+OutputTailCap bytes.
func (o *Output) Append(s string) {
	if s == "" {
		return
	}
	o.total += int64(len(s))
	o.newlines += int64(strings.Count(s, "\n"))
	if o.spillFile == nil && o.spillErr == nil && len(o.buf)+len(s) <= OutputMemCap {
		o.buf = append(o.buf, s...)
		return
	}
	if o.spillFile == nil && o.spillErr == nil {
		f, err := spill.Create()
		if err != nil {
			o.spillErr = err
		} else {
			o.spillFile, o.spillPath = f, f.Name()
			_, o.spillErr = f.Write(o.buf)
		}
		o.tail = append(o.tail, o.buf[max(0, len(o.buf)-OutputTailCap):]...)
		o.buf = append([]byte(nil), o.buf[:min(len(o.buf), OutputHeadCap)]...)
	}
	if o.spillFile != nil && o.spillErr == nil {
		_, o.spillErr = o.spillFile.WriteString(s)
	}
	if len(s) >= OutputTailCap {
		o.tail = append(o.tail[:0], s[len(s)-OutputTailCap:]...)
		return
	}
	if len(o.tail)+len(s) > 2*OutputTailCap {
		keep := OutputTailCap - len(s)
		copy(o.tail, o.tail[len(o.tail)-keep:])
		o.tail = o.tail[:keep]
	}
	o.tail = append(o.tail, s...)
}

// Set replaces the output (the completed item's aggregatedOutput when
// nothing was streamed).
func (o *Output) Set(s string) {
	o.Close()
	*o = Output{}
	o.Append(s)
}

// Bytes returns how many output bytes arrived.
func (o *Output) Bytes() int64 { return o.total }

// Lines returns the number of output lines (a last line without a newline
// counts).
func (o *Output) Lines() int64 {
	n := o.newlines
	if o.total > 0 && o.lastByte() != '\n' {
		n++
	}
	return n
}

// MemBytes returns the bytes of output held in memory.
func (o *Output) MemBytes() int { return cap(o.buf) + cap(o.tail) }

// SpillPath is the temp file holding the full output, made safe for a
// terminal and redacted (internal/lib/spill), of a command whose output
// outgrew memory ("" otherwise). Its unfinished last line is written
// when FullPath is called.
func (o *Output) SpillPath() string { return o.spillPath }

// Close closes and removes the spill file.
func (o *Output) Close() {
	if o.spillFile != nil {
		o.spillFile.Remove()
		o.spillFile = nil
	}
}

func (o *Output) spilled() bool { return o.spillFile != nil || o.spillErr != nil }

func (o *Output) lastByte() byte {
	b := o.buf
	if o.spilled() {
		b = o.tail
	}
	if len(b) > 0 {
		return b[len(b)-1]
	}
	return 0
}

// Head returns the first n lines held in memory.
func (o *Output) Head(n int) []string {
	var out []string
	b := o.buf
	for len(out) < n && len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i]))
		b = b[i+1:]
	}
	return out
}

// Tail returns the last n lines held in memory.
func (o *Output) Tail(n int) []string {
	b := o.buf
	if o.spilled() {
		b = o.tail
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	out := make([]string, 0, n)
	for len(out) < n && len(b) > 0 {
		i := bytes.LastIndexByte(b, '\n')
		out = append(out, string(b[i+1:]))
		if i < 0 {
			break
		}
		b = b[:i]
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// FullPath returns a file holding the command's whole output as the
// transcript shows it (escape sequences and controls visible, colours
// dropped: internal/lib/spill) and redacted: the spill file when the
// output outgrew memory (its unfinished last line written out first),
// else a new spill file with the output kept in memory (temp is set: the
// caller removes that one). It is what the output pager ($PAGER) opens.
func (o *Output) FullPath() (path string, temp bool, err error) {
	if o.spillFile != nil && o.spillErr == nil {
		if o.spillErr = o.spillFile.Flush(); o.spillErr == nil {
			return o.spillPath, false, nil
		}
	}
	b := o.buf
	if o.spillPath != "" || o.spillErr != nil {
		b = append(append(append([]byte(nil), o.buf...), "\n… (middle lost)\n"...), o.tail...)
	}
	path, err = spill.Save(b)
	if err != nil {
		return "", false, err
	}
	return path, true, nil
}

package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// CastEvent is one event of an asciicast file: At is the time since
// the recording began (a v3 file's intervals added up), Code "o"
// (output), "r" (resize, Data "COLSxROWS"), "m" (marker, Data its label),
// "i" (input, which tandem never writes) or "x" (v3: the exit status).
type CastEvent struct {
	At   time.Duration
	Code string
	Data string
}

// Cast is an asciicast recording (v2 or v3) read back: its header, in
// v2's shape with the file's Version, and its events in file order.
type Cast struct {
	Header CastHeader
	Events []CastEvent
}

// MaxCastLine is the longest line ReadCast accepts (16 MiB): one "o"
// event of a full-screen redraw is a few hundred KiB at most.
const MaxCastLine = 16 << 20

// MaxCastSize is the widest and tallest terminal a cast may have, in
// cells (a resize beyond it is read as this size), and the largest
// picture `tandem export` draws: 500×500 cells hold the emulator in
// about 140 MB.
const MaxCastSize = 500

// ReadCast reads an asciicast v2 or v3 file (the header line, then one
// JSON array [seconds, code, data] a line: v2's seconds since the start,
// v3's since the event before; v3's "#" comment lines are skipped).
// Errors name the line; a file of another version, a line over
// MaxCastLine or an event that is not [number, string, string] is an
// error.
func ReadCast(r io.Reader) (*Cast, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxCastLine)
	c := &Cast{}
	line := 0
	var at float64 // seconds since the start
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		if line == 1 {
			h, err := parseCastHeader(b)
			if err != nil {
				return nil, fmt.Errorf("line 1: %w", err)
			}
			c.Header = h
			if c.Header.Width > MaxCastSize || c.Header.Height > MaxCastSize || c.Header.Width < 0 || c.Header.Height < 0 {
				return nil, fmt.Errorf("line 1: a %d×%d terminal; at most %d×%d is read", c.Header.Width, c.Header.Height, MaxCastSize, MaxCastSize)
			}
			continue
		}
		if c.Header.Version == CastV3 && b[0] == '#' {
			continue // a comment
		}
		var raw []json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 3 {
			return nil, fmt.Errorf("line %d: not an asciicast event [time, code, data]", line)
		}
		var t float64
		var ev CastEvent
		if json.Unmarshal(raw[0], &t) != nil || json.Unmarshal(raw[1], &ev.Code) != nil || json.Unmarshal(raw[2], &ev.Data) != nil || t < 0 {
			return nil, fmt.Errorf("line %d: not an asciicast event [time, code, data]", line)
		}
		if c.Header.Version == CastV3 {
			at += t
		} else {
			at = t
		}
		ev.At = time.Duration(at * float64(time.Second))
		c.Events = append(c.Events, ev)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("line %d: longer than %d MiB", line+1, MaxCastLine>>20)
		}
		return nil, err
	}
	if line == 0 {
		return nil, errors.New("empty file: no asciicast header")
	}
	return c, nil
}

// ParseSize reads a resize event's "COLSxROWS", each capped at
// MaxCastSize; ok is false when it is not two positive numbers.
func ParseSize(s string) (cols, rows int, ok bool) {
	a, b, found := strings.Cut(s, "x")
	if !found {
		return 0, 0, false
	}
	cols, err1 := strconv.Atoi(a)
	rows, err2 := strconv.Atoi(b)
	return min(cols, MaxCastSize), min(rows, MaxCastSize), err1 == nil && err2 == nil && cols > 0 && rows > 0
}

// LoadSession reads the file at path, opened once (a pipe or a FIFO
// works): a --record transcript (rec) or an asciicast (cast), told apart
// by the first line — an asciicast header has a version and a width and
// no type. Errors name the file.
func LoadSession(path string) (rec *Recording, cast *Cast, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	first, err := readLine(br, maxHeaderLine)
	switch {
	case errors.Is(err, errLineTooLong):
		return nil, nil, fmt.Errorf("%s: the first line is longer than %d MiB: not a recording or a cast", path, maxHeaderLine>>20)
	case err != nil && !errors.Is(err, io.EOF):
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	r := io.MultiReader(bytes.NewReader(first), br)
	var h map[string]json.RawMessage
	if json.Unmarshal(first, &h) == nil && h["type"] == nil && h["version"] != nil && (h["width"] != nil || h["term"] != nil) {
		if cast, err = ReadCast(r); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		return nil, cast, nil
	}
	if rec, err = ReadRecording(r); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil, nil
}

// Timed is one value of a recording's timeline (Timeline): At is when it
// came, since the recording began, with the wait for codex to start
// capped at a second and every other gap at the timeline's idle limit.
type Timed struct {
	At    time.Duration
	Value any
}

// Timeline returns what a Player would deliver for rec, in order, with
// the times it would deliver them at speed 1 with pauses capped at idle
// (0: no cap): a ThreadReady first, then backend.Event and
// backend.ServerRequest values (see Player). It never blocks.
func Timeline(rec *Recording, idle time.Duration) []Timed {
	steps := buildSteps(rec, idle)
	out := make([]Timed, len(steps))
	for i, s := range steps {
		out[i] = Timed{At: s.at, Value: s.msg}
	}
	return out
}

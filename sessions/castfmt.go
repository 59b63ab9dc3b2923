package sessions

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Asciicast versions: CastV2 is asciinema 2's format (event times since
// the start), CastV3 asciinema 3's (a "term" object in the header, each
// event's time since the one before it).
const (
	CastV2 = 2
	CastV3 = 3
)

// castTermV3 is the "term" object of an asciicast v3 header.
type castTermV3 struct {
	Cols int    `json:"cols"`
	Rows int    `json:"rows"`
	Type string `json:"type,omitempty"`
}

// castHeaderV3 is the first line of an asciicast v3 file.
type castHeaderV3 struct {
	Version       int               `json:"version"`
	Term          castTermV3        `json:"term"`
	Timestamp     int64             `json:"timestamp,omitempty"`
	IdleTimeLimit float64           `json:"idle_time_limit,omitempty"`
	Title         string            `json:"title,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
}

// castHeaderAny reads the header line of either version.
type castHeaderAny struct {
	CastHeader
	Term *castTermV3 `json:"term"`
}

// marshalCastHeader is h's header line (no newline) in h.Version's
// format: 3 puts the size and TERM into "term", any other version
// writes v2.
func marshalCastHeader(h CastHeader) ([]byte, error) {
	if h.Version != CastV3 {
		h.Version = CastV2
		return json.Marshal(h)
	}
	v3 := castHeaderV3{Version: CastV3, Term: castTermV3{Cols: h.Width, Rows: h.Height}, Timestamp: h.Timestamp,
		IdleTimeLimit: h.IdleTimeLimit, Title: h.Title}
	for k, v := range h.Env {
		if k == "TERM" {
			v3.Term.Type = v
			continue
		}
		if v3.Env == nil {
			v3.Env = map[string]string{}
		}
		v3.Env[k] = v
	}
	return json.Marshal(v3)
}

// parseCastHeader reads a header line of version 2 or 3 into the v2
// shape (a v3 term's size as Width and Height, its type as Env["TERM"]).
func parseCastHeader(b []byte) (CastHeader, error) {
	var a castHeaderAny
	if err := json.Unmarshal(b, &a); err != nil {
		return CastHeader{}, fmt.Errorf("not an asciicast header: %w", err)
	}
	h := a.CastHeader
	switch h.Version {
	case CastV2:
	case CastV3:
		if a.Term == nil {
			return h, fmt.Errorf("an asciicast v3 header without \"term\"")
		}
		h.Width, h.Height = a.Term.Cols, a.Term.Rows
		if a.Term.Type != "" {
			env := map[string]string{"TERM": a.Term.Type}
			for k, v := range h.Env {
				env[k] = v
			}
			h.Env = env
		}
	default:
		return h, fmt.Errorf("asciicast version %d; versions 2 and 3 are read", h.Version)
	}
	return h, nil
}

// castEncoder writes a cast's header and events in its version's
// format. Times never decrease (an earlier one is written as the last).
// The first write error sticks.
type castEncoder struct {
	w       io.Writer
	version int
	last    float64 // seconds since the start of the last event written
	err     error
}

// newCastEncoder writes h's header line to w (h.Version 3 for v3, any
// other for v2; Timestamp defaulting to now).
func newCastEncoder(w io.Writer, h CastHeader) (*castEncoder, error) {
	if h.Timestamp == 0 {
		h.Timestamp = time.Now().Unix()
	}
	b, err := marshalCastHeader(h)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	v := CastV2
	if h.Version == CastV3 {
		v = CastV3
	}
	return &castEncoder{w: w, version: v}, nil
}

// event writes [time, code, data]: in v2 the time is t (seconds since
// the start), in v3 the interval since the event before.
func (e *castEncoder) event(t float64, code, data string) {
	if e.err != nil {
		return
	}
	t = max(t, e.last)
	at := t
	if e.version == CastV3 {
		at = t - e.last
	}
	e.last = t
	b, err := json.Marshal([]any{json.Number(strconv.FormatFloat(at, 'f', 6, 64)), code, data})
	if err != nil {
		e.err = err
		return
	}
	_, e.err = e.w.Write(append(b, '\n'))
}

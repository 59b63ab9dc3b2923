package backend

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"

	"tandem/internal/lib/redact"
)

// deltaMethods are the notifications whose "delta" is the next piece of a
// longer text: a secret can be cut between two of them, so redacting each
// line alone is not enough.
var deltaMethods = map[string]bool{
	"item/agentMessage/delta":           true,
	"item/commandExecution/outputDelta": true,
	"item/reasoning/summaryTextDelta":   true,
	"item/reasoning/textDelta":          true,
	"item/plan/delta":                   true,
	"item/fileChange/outputDelta":       true,
}

// maxHeldLine is how much of a line without whitespace or newline is held
// back before it is let through anyway.
const maxHeldLine = 4 << 10

// A long line is not re-redacted from its start on every delta: once more
// than rollAt bytes of it are committed, the text before the last
// keepContext committed bytes is dropped. Only a secret longer than
// keepContext could need that dropped text to be recognised, so the cost
// per delta stays bounded (BenchmarkStreamRedactorLongLine) while secrets
// of any realistic size (tokens, JWTs, an Authorization header) are still
// seen whole.
const (
	rollAt      = 16 << 10
	keepContext = 8 << 10
)

// StreamRedactor redacts JSON-RPC lines like redact.Bytes, and in addition
// redacts streamed text across deltas: for each item it re-redacts the
// text of the current line and lets a delta carry only the part of it that
// is complete (up to the last whitespace) and already redacted. A secret
// split over several deltas therefore never leaves in pieces; the held
// back tail reaches the client with the item's final text
// (`item/completed`), which replaces the streamed text. It is safe for
// concurrent use.
type StreamRedactor struct {
	mu     sync.Mutex
	stream map[string]map[string]*streamState // itemId → method|index → state
}

type streamState struct {
	tail      string // raw text of the current line (from its start, or from the last roll)
	committed int    // bytes of tail already committed (redacted and sent)
	emitted   string // redacted text of tail[:committed]
	// inKey is set after a line that opens a PEM private key block
	// (redact.OpensPrivateKey): the lines up to the END line are key
	// material, which redact cannot recognise line by line, so they are
	// not sent at all (the header line already ended in redact.Marker).
	inKey bool
}

// NewStreamRedactor returns an empty redactor.
func NewStreamRedactor() *StreamRedactor {
	return &StreamRedactor{stream: map[string]map[string]*streamState{}}
}

// Line returns line (one JSON-RPC message) with secrets replaced. A delta
// notification's "delta" is rewritten to the safe new text (possibly "").
func (s *StreamRedactor) Line(line []byte) []byte {
	if bytes.Contains(line, []byte(`"dataBase64"`)) {
		line = dropFileData(line)
	}
	if !bytes.Contains(line, []byte(`"method"`)) {
		return RedactJSON(line)
	}
	var full map[string]json.RawMessage
	var method string
	if json.Unmarshal(line, &full) != nil || json.Unmarshal(full["method"], &method) != nil || !deltaMethods[method] && method != "item/completed" {
		return RedactJSON(line)
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(full["params"], &params) != nil {
		return RedactJSON(line)
	}
	if method == "item/completed" {
		var item struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(params["item"], &item) == nil && item.ID != "" {
			s.mu.Lock()
			delete(s.stream, item.ID) // its final text replaces what streamed
			s.mu.Unlock()
		}
		return RedactJSON(line)
	}
	var itemID, delta string
	_ = json.Unmarshal(params["itemId"], &itemID)
	if json.Unmarshal(params["delta"], &delta) != nil {
		return RedactJSON(line)
	}
	key := method + "|" + string(params["summaryIndex"]) + string(params["contentIndex"])
	s.mu.Lock()
	st := s.stream[itemID][key]
	if st == nil {
		if s.stream[itemID] == nil {
			s.stream[itemID] = map[string]*streamState{}
		}
		st = &streamState{}
		s.stream[itemID][key] = st
	}
	out := st.push(delta)
	s.mu.Unlock()
	params["delta"], _ = json.Marshal(out)
	full["params"], _ = json.Marshal(params)
	b, err := json.Marshal(full)
	if err != nil {
		return RedactJSON(line)
	}
	// The delta is redacted already; the rest are ids.
	return b
}

// fileDataNote replaces file contents in recorded lines.
const fileDataNote = "[file content not recorded]"

// dropFileData replaces every "dataBase64" string of line (the file
// contents of fs/readFile results and fs/writeFile params: a rewind reads
// and writes whole files) with fileDataNote: base64 would hide any secret
// in them from the redactor, and no reader of a recording needs them.
func dropFileData(line []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return line
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if _, ok := e.(string); ok && k == "dataBase64" {
					x[k] = fileDataNote
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	b, err := json.Marshal(v)
	if err != nil {
		return line
	}
	return b
}

// RedactJSON is redact.Bytes for one JSON value that stays valid JSON:
// when redacting the text as a whole would break the JSON (a key with an
// empty value right before a closing quote), every string inside is
// redacted on its own instead.
func RedactJSON(line []byte) []byte {
	r := redact.Bytes(line)
	if len(r) == 0 || &r[0] == &line[0] {
		return r // nothing redacted (redact.Bytes returns line itself)
	}
	if json.Valid(r) || !json.Valid(line) {
		return r
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return r
	}
	b, err := json.Marshal(redactValue(v))
	if err != nil {
		return r
	}
	return b
}

func redactValue(v any) any {
	switch x := v.(type) {
	case string:
		return redact.String(x)
	case []any:
		for i := range x {
			x[i] = redactValue(x[i])
		}
	case map[string]any:
		for k, e := range x {
			x[k] = redactValue(e)
		}
	}
	return v
}

// push adds a delta and returns the redacted text that may be sent now.
func (st *streamState) push(delta string) string {
	st.tail += delta
	var out strings.Builder
	for {
		i := strings.IndexByte(st.tail, '\n')
		if i < 0 {
			break
		}
		out.WriteString(st.line(st.tail[:i+1]))
		st.tail = st.tail[i+1:]
		st.emitted, st.committed = "", 0
	}
	if st.inKey {
		// Inside a private key nothing of a partial line is sent; a
		// very long one keeps only enough to find an END line in.
		if len(st.tail) > maxHeldLine {
			st.tail = st.tail[len(st.tail)-64:]
		}
		return out.String()
	}
	cut := strings.LastIndexAny(st.tail, " \t\r")
	if cut < 0 && len(st.tail) > maxHeldLine {
		cut = len(st.tail) - 1
	}
	if cut >= 0 {
		out.WriteString(st.commit(st.tail[:cut+1]))
		st.committed = cut + 1
	}
	if st.committed > rollAt {
		drop := st.committed - keepContext
		st.tail = st.tail[drop:]
		st.committed -= drop
		st.emitted = redact.String(st.tail[:st.committed])
	}
	return out.String()
}

// line commits one complete line (raw ends in a newline). Inside a
// private key block only the text from the END line on is sent; a line
// that opens a block starts one. Streamed this way a key block comes out
// as redact.String gives it for the whole text:
// "-----BEGIN … PRIVATE KEY-----[REDACTED]-----END … PRIVATE KEY-----".
func (st *streamState) line(raw string) string {
	if st.inKey {
		k := redact.PrivateKeyEnd(raw)
		if k < 0 {
			return ""
		}
		st.inKey = false
		raw = raw[k:]
	}
	out := st.commit(raw)
	st.inKey = redact.OpensPrivateKey(raw)
	return out
}

// commit redacts raw (the current line's text from its start) and returns
// what was not sent before.
func (st *streamState) commit(raw string) string {
	r := redact.String(raw)
	if !strings.HasPrefix(r, st.emitted) {
		// Redaction reached back into text already sent (it was shown
		// before the secret became recognisable); send nothing more of
		// this line rather than a second, garbled copy.
		st.emitted = r
		return ""
	}
	out := r[len(st.emitted):]
	st.emitted = r
	return out
}

// RedactDisplayEnv names the environment variable `tandem record` sets so
// that the recorded tandem reads the app-server through RedactTransport.
const RedactDisplayEnv = "TANDEM_REDACT_DISPLAY"

// RedactTransport wraps t so that every line the app-server prints is
// redacted (StreamRedactor) before tandem reads it. `tandem record` runs
// tandem this way, so no secret is ever drawn on the recorded screen.
func RedactTransport(t Transport) Transport { return redactTransport{t} }

type redactTransport struct{ Transport }

// Start implements Transport.
func (t redactTransport) Start() (Stream, error) {
	st, err := t.Transport.Start()
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	// The copy ends when the peer's stdout ends (Close ends the peer).
	go func() {
		red := NewStreamRedactor()
		br := bufio.NewReaderSize(st.Stdout(), 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				body := bytes.TrimRight(line, "\r\n")
				if _, werr := pw.Write(append(red.Line(body), '\n')); werr != nil {
					pw.CloseWithError(werr)
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return redactStream{Stream: st, r: pr}, nil
}

type redactStream struct {
	Stream
	r io.Reader
}

// Stdout implements Stream.
func (s redactStream) Stdout() io.Reader { return s.r }

// Unwrap returns the transport whose output is redacted (IsDurable looks
// through it).
func (t redactTransport) Unwrap() Transport { return t.Transport }

// Durable reports whether the redacted stream's app-server outlives it.
func (s redactStream) Durable() bool { return durable(s.Stream) }

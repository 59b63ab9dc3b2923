package sessions

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// Searching codex's rollouts (CODEX_HOME/sessions/**/rollout-*.jsonl) for
// a word, without an app-server: what `tandem search` does on the machine
// the rollouts are on. It finds what `thread/search` does not (a
// command, its output, a tool call; the turn of the match): see
// docs/SEARCH.md ("Across threads").

// RolloutHit is the first match of a search in one rollout (one thread).
type RolloutHit struct {
	ThreadID string
	Path     string
	// Cwd is the thread's workspace (its session_meta); Preview its first
	// prompt ("" when the match comes before any).
	Cwd, Preview string
	// Created is the thread's start (its file name; zero when the name has
	// none), Updated the file's last change.
	Created, Updated time.Time
	// Turn is the 1-based number of the turn the match is in (0: before
	// the first turn), TurnID its id ("" when not recorded).
	Turn   int
	TurnID string
	// Kind says what matched: "prompt", "answer", "command", "output",
	// "reasoning", "diff", "tool", or an item's type in lower case.
	Kind string
	// Snippet is one line of text around the match (control characters
	// made spaces, "…" where cut); Match its byte range in Snippet.
	Snippet string
	Match   [2]int
}

// SearchOptions are what SearchRollouts looks for and where: Query (a
// literal, case-insensitive for ASCII letters), Cwd ("" every workspace:
// else only threads whose session cwd is exactly it), Workers (0: one
// per CPU, at most MaxSearchWorkers).
type SearchOptions struct {
	Query   string
	Cwd     string
	Workers int
}

// MaxSearchWorkers bounds the files read at once, and so the memory:
// each reader holds two buffers of searchBuf bytes and decodes at most
// one line of that size.
const MaxSearchWorkers = 16

// searchBuf is a reader's buffer: a line up to this size is decoded
// when it matches; a longer one is searched in pieces of this size and
// never held whole.
const searchBuf = 256 << 10

// ErrEmptyQuery is SearchRollouts' error for a query of only spaces.
var ErrEmptyQuery = errors.New("the search is empty")

// SearchRollouts searches every rollout file under root (CODEX_HOME's
// sessions directory) in parallel, streaming each: one hit per matching
// thread, the newest (last updated) first. Unreadable files and lines
// that are not JSON are skipped; a missing root finds nothing. It stops
// early with ctx's error.
func SearchRollouts(ctx context.Context, root string, opts SearchOptions) ([]RolloutHit, error) {
	if strings.TrimSpace(opts.Query) == "" {
		return nil, ErrEmptyQuery
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = min(runtime.GOMAXPROCS(0), MaxSearchWorkers)
	}
	m := newMatcher(opts.Query)
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r // a sessions folder that is a link (to another disk) is walked too
	}
	paths := make(chan string, 64)
	var walkErr error
	go func() {
		defer close(paths)
		walkErr = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) || p != root {
					return nil // gone meanwhile, or unreadable: skipped
				}
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if strings.HasPrefix(d.Name(), "rollout-") && strings.HasSuffix(d.Name(), ".jsonl") && regularFile(p, d) {
				paths <- p
			}
			return nil
		})
	}()
	var (
		mu   sync.Mutex
		hits []RolloutHit
		wg   sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newFileScanner(m, opts.Cwd)
			for p := range paths {
				if ctx.Err() != nil {
					continue // drain
				}
				if h, ok := s.scanFile(p); ok && h.ThreadID != "" {
					mu.Lock()
					hits = append(hits, h)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if walkErr != nil && !errors.Is(walkErr, fs.ErrNotExist) {
		return nil, walkErr
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if !hits[i].Updated.Equal(hits[j].Updated) {
			return hits[i].Updated.After(hits[j].Updated)
		}
		return hits[i].ThreadID < hits[j].ThreadID
	})
	return hits, nil
}

// regularFile reports whether the walk's entry d at p is a file to
// read: a regular file, or a link to one. A FIFO would block the open
// for ever, a device (a link to /dev/zero) never end.
func regularFile(p string, d fs.DirEntry) bool {
	if d.Type().IsRegular() {
		return true
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// fileScanner reads one file at a time with buffers it keeps.
type fileScanner struct {
	m     *matcher
	cwd   string
	r     *bufio.Reader
	lower []byte
	// win and carry hold a long line's piece and the end of the one
	// before it.
	win, carry []byte
}

func newFileScanner(m *matcher, cwd string) *fileScanner {
	return &fileScanner{m: m, cwd: cwd, r: bufio.NewReaderSize(nil, searchBuf), lower: make([]byte, 0, searchBuf)}
}

var (
	taskStarted = []byte(`"task_started"`)
	userMsgKeys = [][]byte{[]byte(`"UserMessage"`), []byte(`"user_message"`)}
)

// turnLineMax bounds the lines looked at for a turn's start or the first
// prompt: those lines are short, and the long ones are not read twice.
const turnLineMax = 16 << 10

// scanFile searches the rollout at path up to its first match.
func (s *fileScanner) scanFile(path string) (RolloutHit, bool) {
	f, err := os.Open(path)
	if err != nil {
		return RolloutHit{}, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return RolloutHit{}, false
	}
	h := RolloutHit{Path: path, Updated: st.ModTime()}
	h.ThreadID, h.Created = nameFacts(filepath.Base(path))
	s.r.Reset(f)
	first := true
	for {
		line, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: searched in pieces.
			if first {
				s.meta(&h, line)
				first = false
				if s.cwd != "" && h.Cwd != s.cwd {
					return h, false
				}
			}
			if s.longLine(&h, line) {
				return h, true
			}
			continue
		}
		if len(line) > 0 {
			if first {
				s.meta(&h, line)
				first = false
				if s.cwd != "" && h.Cwd != s.cwd {
					return h, false
				}
			} else if s.line(&h, line) {
				return h, true
			}
		}
		if err != nil {
			return h, false // io.EOF, or unreadable: what was read is searched
		}
	}
}

// meta takes the thread's id and cwd from its first line (session_meta),
// read from its head only: it may be long.
func (s *fileScanner) meta(h *RolloutHit, line []byte) {
	head := line[:min(len(line), 64<<10)]
	if !bytes.Contains(head, []byte(`"session_meta"`)) {
		return
	}
	if cwd, ok := jsonField(head, "cwd"); ok {
		h.Cwd = cwd
	}
	if h.ThreadID == "" {
		if id, ok := jsonField(head, "id"); ok && isThreadID(id) {
			h.ThreadID = id
		}
	}
}

// line handles one whole line: a turn's start, the first prompt, or a
// match; it reports a match.
func (s *fileScanner) line(h *RolloutHit, line []byte) bool {
	if len(line) < turnLineMax {
		if bytes.Contains(line, taskStarted) {
			if id, ok := turnStart(line); ok {
				h.Turn++
				h.TurnID = id
				return false
			}
		}
		if h.Preview == "" && (bytes.Contains(line, userMsgKeys[0]) || bytes.Contains(line, userMsgKeys[1])) {
			if f, ok := decodeFind(line, nil); ok && f.kind == "prompt" {
				h.Preview = previewLine(f.text, 80)
			}
		}
	}
	if !eventLine(line) {
		return false // the model's copy, the context, the settings: not searched
	}
	s.lower = asciiLower(s.lower[:0], line)
	if !s.m.rawIn(s.lower) {
		return false
	}
	f, ok := decodeFind(line, s.m)
	if !ok {
		return false
	}
	h.Kind = f.kind
	h.Snippet, h.Match = snippet(f.text, f.at, len(s.m.q))
	return true
}

// longLine searches a line longer than the buffer piece by piece (head
// is its first piece, already read): only one piece and a carry of the
// query's length and a snippet's are held. It reports a match in an
// event the search covers, and reads the line to its end either way.
func (s *fileScanner) longLine(h *RolloutHit, piece []byte) bool {
	kind, ok := headKind(piece)
	keep := len(s.m.raw) + 2*snippetSide
	more := true
	for {
		if ok {
			s.win = append(append(s.win[:0], s.carry...), piece...)
			s.lower = asciiLower(s.lower[:0], s.win)
			if i := bytes.Index(s.lower, s.m.raw); i >= 0 {
				lo, hi := max(0, i-2*snippetSide), min(len(s.win), i+len(s.m.raw)+2*snippetSide)
				text := unescapeLoose(s.win[lo:hi])
				at := max(0, strings.Index(asciiLowerString(text), s.m.q))
				h.Kind = kind
				h.Snippet, h.Match = snippet(text, at, len(s.m.q))
				if more {
					s.skipLine()
				}
				return true
			}
			s.carry = append(s.carry[:0], s.win[len(s.win)-min(len(s.win), keep):]...)
		}
		if !more {
			return false
		}
		next, err := s.r.ReadSlice('\n')
		more = errors.Is(err, bufio.ErrBufferFull)
		piece = next
	}
}

// skipLine reads up to the end of the current line.
func (s *fileScanner) skipLine() {
	for {
		_, err := s.r.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

// nameFacts reads the thread id and start time from a rollout's name,
// rollout-2026-12-02T12-55-40-<uuid>.jsonl.
func nameFacts(name string) (string, time.Time) {
	name = strings.TrimSuffix(strings.TrimPrefix(name, "rollout-"), ".jsonl")
	if len(name) < 20+36 {
		return "", time.Time{}
	}
	t, _ := time.ParseInLocation("2006-01-02T15-04-05", name[:19], time.Local)
	id := name[len(name)-36:]
	if !isThreadID(id) {
		id = "" // a name that only looks like codex's: the id is read from the file
	}
	return id, t
}

// isThreadID reports whether s has a thread id's shape, a UUID
// (8-4-4-4-12 hex digits): nothing else is taken as one, so a file name
// or a line cannot put a terminal's escapes where an id is shown.
func isThreadID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range []byte(s) {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// turnStart decodes a task_started event's turn id.
func turnStart(line []byte) (string, bool) {
	var l struct {
		Type    string `json:"type"`
		Payload struct {
			Type   string `json:"type"`
			TurnID string `json:"turn_id"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "event_msg" || l.Payload.Type != "task_started" {
		return "", false
	}
	return l.Payload.TurnID, true
}

// jsonField finds the first "key":"value" in a piece of JSON and decodes
// the value.
func jsonField(b []byte, key string) (string, bool) {
	k := []byte(`"` + key + `":"`)
	i := bytes.Index(b, k)
	if i < 0 {
		return "", false
	}
	rest := b[i+len(k)-1:]
	dec := json.NewDecoder(bytes.NewReader(rest))
	var v string
	if dec.Decode(&v) != nil {
		return "", false
	}
	return v, true
}

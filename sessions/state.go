package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"tandem/backend"
)

// MaxHistory is how many prompts are kept per workspace (oldest dropped).
const MaxHistory = 500

// Workspace is what is remembered for one absolute cwd.
type Workspace struct {
	// LastThread is the id of the thread last used in this workspace.
	LastThread string `json:"lastThread,omitempty"`
	// History holds the prompts sent, oldest first.
	History []string `json:"history,omitempty"`
	// Sent is when each prompt of History was sent (Unix seconds),
	// aligned with History's end: a file written before tandem kept the
	// times has fewer, and its oldest prompts have none (prompts.go).
	Sent []int64 `json:"sent,omitempty"`
}

// Store is the state file: a JSON object keyed by absolute cwd. It is safe
// for concurrent use; every change is written at once (write to a
// temporary file, then rename), so a crash never leaves half a file.
type Store struct {
	path string
	mu   sync.Mutex
	// now stamps a prompt added (time.Now; tests pin it).
	now func() time.Time
	// onErr, when set, is told of a change that could not be saved.
	onErr func(error)
}

// OnError has f told of every change that could not be saved (an
// unwritable state directory, a full disk), with the saving caller's
// goroutine: f must not block. The change itself still reports its error.
func (s *Store) OnError(f func(error)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onErr = f
}

// Open returns the store kept in dir/workspaces.json; the file is created on
// the first change. An empty dir means tandem's state directory
// (backend.StateDir: $XDG_STATE_HOME/tandem or ~/.local/state/tandem).
func Open(dir string) *Store {
	if dir == "" {
		dir = backend.StateDir()
	}
	return &Store{path: filepath.Join(dir, "workspaces.json"), now: time.Now}
}

// Path is the state file's path.
func (s *Store) Path() string { return s.path }

func (s *Store) load() (map[string]Workspace, error) {
	all := map[string]Workspace{}
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return all, nil
	}
	if err != nil {
		return all, err
	}
	if err := json.Unmarshal(b, &all); err != nil {
		return map[string]Workspace{}, fmt.Errorf("%s: %w", s.path, err)
	}
	return all, nil
}

func (s *Store) save(all map[string]Workspace) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(s.path, b)
}

// Get returns what is remembered for cwd (zero when nothing is, or the file
// is unreadable).
func (s *Store) Get(cwd string) Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, _ := s.load()
	return all[cwd]
}

func (s *Store) update(cwd string, f func(*Workspace)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// load gives an empty map for an unreadable or corrupt file: it is
	// replaced rather than blocking the user.
	all, _ := s.load()
	w := all[cwd]
	f(&w)
	all[cwd] = w
	if err := s.save(all); err != nil {
		if s.onErr != nil {
			s.onErr(err)
		}
		return fmt.Errorf("saving %s: %w", s.path, err)
	}
	return nil
}

// LastThread returns the thread last used in cwd, or "".
func (s *Store) LastThread(cwd string) string { return s.Get(cwd).LastThread }

// SetLastThread remembers id as cwd's last thread.
func (s *Store) SetLastThread(cwd, id string) error {
	return s.update(cwd, func(w *Workspace) { w.LastThread = id })
}

// History returns cwd's prompt history, oldest first; an entry longer than
// MaxHistoryEntry (from an older file) comes back cut.
func (s *Store) History(cwd string) []string { return capAll(s.Get(cwd).History) }

// AddHistory appends a prompt to cwd's history, redacted and cut to
// MaxHistoryEntry bytes (histcap.go), with the time it was sent; a
// prompt equal to the previous one is not repeated (its time moves on),
// and only the last MaxHistory are kept. Over-long entries already in
// the file are cut on the way.
func (s *Store) AddHistory(cwd, prompt string) error {
	prompt = historyEntry(prompt)
	return s.update(cwd, func(w *Workspace) {
		w.History = capAll(w.History)
		w.Sent = alignSent(w.Sent, len(w.History))
		now := s.now().Unix()
		if n := len(w.History); n > 0 && w.History[n-1] == prompt {
			if len(w.Sent) > 0 {
				w.Sent[len(w.Sent)-1] = now
			} else {
				w.Sent = []int64{now}
			}
			return
		}
		w.History = append(w.History, prompt)
		w.Sent = append(w.Sent, now)
		if len(w.History) > MaxHistory {
			w.History = append([]string(nil), w.History[len(w.History)-MaxHistory:]...)
		}
		w.Sent = alignSent(w.Sent, len(w.History))
	})
}

package sessions

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// onceFile holds the keys Once has seen, beside the state file.
const onceFile = "shown.json"

// Once reports whether key is new on this machine (in this state
// directory) and remembers it: the first call for a key is true, every
// later one, in any run, false. A file that can't be read counts as
// empty; one that can't be written is told to OnError's f, and the key
// counts as new (shown again rather than lost).
func (s *Store) Once(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := filepath.Join(filepath.Dir(s.path), onceFile)
	seen := map[string]bool{}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &seen)
	}
	if seen[key] {
		return false
	}
	seen[key] = true
	b, _ := json.MarshalIndent(seen, "", "  ")
	err := os.MkdirAll(filepath.Dir(path), 0o700)
	if err == nil {
		err = writeAtomic(path, b)
	}
	if err != nil && s.onErr != nil {
		s.onErr(err)
	}
	return true
}

// writeAtomic writes b to path through a temporary file beside it and a
// rename, so a reader sees the old file or the new one, never a part.
func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

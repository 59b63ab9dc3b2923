package config

import (
	"fmt"
	"io"
	"os"
)

// MaxFileBytes caps a config file (tandem's, or a codex profile).
const MaxFileBytes = 1 << 20

// ReadSmallFile reads the regular file at path, of at most max bytes: a
// FIFO, a device such as /dev/zero or a huge file is an error at once,
// never a read that blocks or fills memory. A missing file's error
// matches fs.ErrNotExist.
func ReadSmallFile(path string, max int64) ([]byte, error) {
	// Stat before opening: opening a FIFO for reading blocks.
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file", path)
	case st.Size() > max:
		return nil, fmt.Errorf("%s: %d bytes, more than %d", path, st.Size(), max)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than %d bytes", path, max)
	}
	return data, err
}

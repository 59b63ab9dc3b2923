package config

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// MaxFileBytes caps a config file (tandem's, or a codex profile).
const MaxFileBytes = 1 << 20

// ReadSmallFile reads the regular file at path, of at most max bytes: a
// FIFO, a device such as /dev/zero or a huge file is an error at once,
// never a read that blocks or fills memory. A missing file's error
// matches fs.ErrNotExist.
func ReadSmallFile(path string, max int64) ([]byte, error) {
	// Opened without blocking (a FIFO's open would wait for a writer),
	// then checked: what is checked is the file that is read, even if
	// path is swapped between the two.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file", path)
	case st.Size() > max:
		return nil, fmt.Errorf("%s: %d bytes, more than %d", path, st.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		return nil, fmt.Errorf("%s: more than %d bytes", path, max)
	}
	return data, err
}

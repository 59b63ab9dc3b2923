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
	f, err := OpenSmallFile(path, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// OpenSmallFile opens the regular file at path (a link followed) for
// reading at most max bytes; errors as ReadSmallFile's. Reading past max
// (the file grew since it was opened) is an error naming path.
func OpenSmallFile(path string, max int64) (io.ReadCloser, error) {
	// Opened without blocking (a FIFO's open would wait for a writer),
	// then checked: what is checked is the file that is read, even if
	// path is swapped between the two.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	switch {
	case err != nil:
	case !st.Mode().IsRegular():
		err = fmt.Errorf("%s: not a regular file", path)
	case st.Size() > max:
		err = fmt.Errorf("%s: %d bytes, more than %d", path, st.Size(), max)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &smallFile{f: f, path: path, max: max, left: max}, nil
}

// smallFile reads a file of at most max bytes, left of them still.
type smallFile struct {
	f         *os.File
	path      string
	max, left int64
}

func (s *smallFile) Read(p []byte) (int, error) {
	if s.left < 0 {
		return 0, s.tooLarge()
	}
	if int64(len(p)) > s.left+1 {
		p = p[:s.left+1]
	}
	n, err := s.f.Read(p)
	if s.left -= int64(n); s.left < 0 {
		return n, s.tooLarge()
	}
	return n, err
}

func (s *smallFile) tooLarge() error { return fmt.Errorf("%s: more than %d bytes", s.path, s.max) }

func (s *smallFile) Close() error { return s.f.Close() }

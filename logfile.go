package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkLogFile checks an explicit --log-file before anything starts: it
// must not be a directory, and its folder must exist (tandem creates the
// folder only for the default path under $XDG_STATE_HOME). Errors are
// usage errors naming the flag.
func checkLogFile(path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return &usageError{fmt.Sprintf("invalid value %q for --log-file: is a directory", path)}
		}
	} else {
		dir := filepath.Dir(path)
		st, err := os.Stat(dir)
		switch {
		case err != nil:
			return &usageError{fmt.Sprintf("invalid value %q for --log-file: folder %s does not exist", path, dir)}
		case !st.IsDir():
			return &usageError{fmt.Sprintf("invalid value %q for --log-file: %s is not a folder", path, dir)}
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return &usageError{fmt.Sprintf("invalid value %q for --log-file: %v", path, err)}
	}
	return f.Close()
}

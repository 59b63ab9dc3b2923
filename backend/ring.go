package backend

import (
	"strings"
	"sync"
)

// Ring keeps the last lines written to it, bounded by count and bytes. It
// collects the app-server's stderr so it can be shown when the server dies.
// It is safe for concurrent use and implements io.Writer.
type Ring struct {
	mu       sync.Mutex
	maxLines int
	maxBytes int
	lines    []string
	size     int
	partial  []byte
}

// NewRing returns a ring keeping at most maxLines lines and maxBytes bytes.
func NewRing(maxLines, maxBytes int) *Ring {
	return &Ring{maxLines: maxLines, maxBytes: maxBytes}
}

// Write appends p, splitting it into lines at LF; a CR before the LF is
// dropped. It never fails.
func (r *Ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := strings.IndexByte(string(p), '\n')
		if i < 0 {
			r.partial = append(r.partial, p...)
			if len(r.partial) > r.maxBytes {
				r.partial = r.partial[len(r.partial)-r.maxBytes:]
			}
			break
		}
		r.push(string(append(r.partial, p[:i]...)))
		r.partial = r.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

func (r *Ring) push(line string) {
	// CRLF line ends (ssh prints its errors so) end at the LF.
	line = strings.TrimSuffix(line, "\r")
	if len(line) > r.maxBytes {
		line = line[len(line)-r.maxBytes:]
	}
	r.lines = append(r.lines, line)
	r.size += len(line)
	for len(r.lines) > r.maxLines || r.size > r.maxBytes {
		r.size -= len(r.lines[0])
		r.lines = r.lines[1:]
	}
}

// Tail returns up to n of the most recent lines, oldest first, including
// an unterminated last line.
func (r *Ring) Tail(n int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	all := r.lines
	if len(r.partial) > 0 {
		all = append(append([]string(nil), all...), string(r.partial))
	}
	if len(all) > n {
		all = all[len(all)-n:]
	}
	return append([]string(nil), all...)
}

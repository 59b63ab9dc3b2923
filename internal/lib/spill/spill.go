package spill

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"tandem/internal/lib/procfs"
	"tandem/internal/lib/redact"
	"tandem/internal/lib/termsafe"
)

// Spill file names are prefix + pid + "-" + random + suffix.
const (
	prefix = "tandem-output-"
	suffix = ".log"
)

// The editor's draft files (PromptPattern) are named the same way.
const (
	promptPrefix = "tandem-prompt-"
	promptSuffix = ".md"
)

// kinds are the temp files RemoveStale knows, as prefix and suffix.
var kinds = [][2]string{{prefix, suffix}, {promptPrefix, promptSuffix}}

// PromptPattern is the os.CreateTemp pattern of the file a draft is
// edited in (Ctrl+G): tandem-prompt-<pid>-*.md. The draft is the user's
// own text and is written as is; the file is named after this process so
// that RemoveStale deletes it when a killed tandem could not.
func PromptPattern() string {
	return promptPrefix + strconv.Itoa(os.Getpid()) + "-*" + promptSuffix
}

// File is an open spill file. What is written to it is made safe to show
// on a terminal first (termsafe.Writer: an escape sequence is its visible
// marker, colours dropped; a control, a bidi control or an invisible
// character is visible), as the transcript shows a command's output, and
// then redacted line by line (redact.Writer), so a key a colour cut in
// two is seen whole. A pager, `cat` or `less -R` given the file draws
// text only. An unfinished last line reaches the disk at Flush or Close.
// A File is not safe for concurrent use.
type File struct {
	f *os.File
	s *termsafe.Writer // → r
	r *redact.Writer   // → f
}

// Create creates a new, empty spill file in os.TempDir(),
// tandem-output-<pid>-<random>.log with mode 0600.
func Create() (*File, error) {
	f, err := os.CreateTemp("", prefix+strconv.Itoa(os.Getpid())+"-*"+suffix)
	if err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	r := redact.NewWriter(f)
	return &File{f: f, s: termsafe.NewWriter(r), r: r}, nil
}

// Name returns the file's path.
func (f *File) Name() string { return f.f.Name() }

// Write writes p, made safe and redacted. It returns len(p) or the
// file's first write error.
func (f *File) Write(p []byte) (int, error) { return f.s.Write(p) }

// WriteString is Write for a string.
func (f *File) WriteString(s string) (int, error) { return f.s.Write([]byte(s)) }

// Flush writes what is held back so far (an unfinished line, escape
// sequence or rune), made safe and redacted, so a reader of the file sees
// all the text written (see termsafe.Writer.Flush, redact.Writer.Flush).
func (f *File) Flush() error {
	err := f.s.Flush()
	if rerr := f.r.Flush(); err == nil {
		err = rerr
	}
	return err
}

// Close writes what is held back and closes the file; the file stays on
// disk. It returns the first write or close error.
func (f *File) Close() error {
	err := f.s.Flush()
	if rerr := f.r.Close(); err == nil {
		err = rerr
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Remove closes the file and deletes it.
func (f *File) Remove() error {
	f.Close()
	return os.Remove(f.f.Name())
}

// Save writes b, made safe and redacted, to a new spill file and closes it. It returns
// the file's path; the caller removes the file. On an error no file is
// left.
func Save(b []byte) (path string, err error) {
	f, err := Create()
	if err != nil {
		return "", err
	}
	if _, err = f.Write(b); err == nil {
		err = f.Close()
	}
	if err != nil {
		f.Remove()
		return "", fmt.Errorf("spill: %w", err)
	}
	return f.Name(), nil
}

// RemoveStale deletes the spill and draft files in dir whose tandem process is gone
// (on Unix: kill(pid, 0) fails with ESRCH) and returns how many it
// deleted. Files of live processes, of this one, of other names and
// those it cannot delete are left; where a process cannot be probed
// (outside Unix) nothing is deleted.
func RemoveStale(dir string) (removed int) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	self := os.Getpid()
	for _, e := range ents {
		pid, ok := ownerPID(e.Name())
		if !ok || pid == self || !e.Type().IsRegular() || !procfs.Gone(pid) {
			continue
		}
		if os.Remove(filepath.Join(dir, e.Name())) == nil {
			removed++
		}
	}
	return removed
}

// ownerPID returns the pid in a spill or draft file's name
// (tandem-output-<pid>-<random>.log, tandem-prompt-<pid>-<random>.md).
func ownerPID(name string) (int, bool) {
	for _, k := range kinds {
		rest, ok := strings.CutPrefix(name, k[0])
		if !ok {
			continue
		}
		if rest, ok = strings.CutSuffix(rest, k[1]); ok {
			return parsePID(rest)
		}
	}
	return 0, false
}

// parsePID reads "<pid>-<random>".
func parsePID(rest string) (int, bool) {
	digits, random, ok := strings.Cut(rest, "-")
	if !ok || random == "" || digits == "" || digits[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	pid, err := strconv.ParseInt(digits, 10, 32) // a pid_t
	return int(pid), err == nil && pid > 0
}

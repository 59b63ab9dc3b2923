package composer

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
)

// imageExts are the file extensions an attached image may have: the
// formats the Responses API takes as input_image (PNG, JPEG, WebP, GIF).
var imageExts = []string{".png", ".jpg", ".jpeg", ".webp", ".gif"}

// IsImageName reports whether name has an image extension (imageExts,
// any case).
func IsImageName(name string) bool {
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(name, `\`, "/")))
	for _, e := range imageExts {
		if ext == e {
			return true
		}
	}
	return false
}

// ImageFileError says why a local file can't be attached: it is missing,
// not a regular file, or not an image by its extension.
type ImageFileError struct {
	Path   string
	Reason string
}

// Error implements error: the path and why.
func (e *ImageFileError) Error() string { return e.Path + ": " + e.Reason }

// CheckImageFile checks a local image to attach (`-i FILE`, a pasted
// path): p is made absolute against dir (when relative) and must name an
// existing regular file with an image extension. It returns the absolute
// path and the file's size in bytes; the error is an *ImageFileError.
func CheckImageFile(p, dir string) (abs string, size int64, err error) {
	abs = p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, abs)
	}
	abs = filepath.Clean(abs)
	if !IsImageName(abs) {
		return abs, 0, &ImageFileError{p, "not an image (" + strings.Join(imageExts, ", ") + ")"}
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return abs, 0, &ImageFileError{p, "no such file"}
	case err != nil:
		return abs, 0, &ImageFileError{p, err.Error()}
	case !st.Mode().IsRegular():
		return abs, 0, &ImageFileError{p, "not a regular file"}
	}
	if st.Size() > MaxImageBytes {
		return abs, 0, &ImageFileError{p, fmt.Sprintf("too large (%d MB; the most an image may be is %d MB)", st.Size()>>20, MaxImageBytes>>20)}
	}
	if kind, err := sniffImage(abs); err != nil {
		return abs, 0, &ImageFileError{p, err.Error()}
	} else if kind == "" {
		return abs, 0, &ImageFileError{p, "its content is not an image (png, jpeg, gif, webp)"}
	}
	return abs, st.Size(), nil
}

// MaxImageBytes is the largest image file tandem attaches (the
// Responses API takes images of up to 20 MB).
const MaxImageBytes = 20 << 20

// sniffImage reads the first 512 bytes of the regular file at p and
// returns its image type as net/http's content sniffing tells it
// ("image/png", …), or "" when it is no image.
func sniffImage(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	switch kind := http.DetectContentType(head[:n]); kind {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return kind, nil
	}
	return "", nil
}

// pastedPaths reads a paste as terminals deliver dropped files: one or
// more paths separated by white space, each plain, with backslash-escaped
// spaces (`/a/my\ shot.png`), in single or double quotes, or a file://
// URL (percent-escaped; host empty or localhost). A leading ~/ is kept for
// the caller to expand. ok is false unless every word looks like a path
// (absolute, ~/, ./ or ../, or a file URL) and has an image extension:
// anything else is text. A single line that is one unquoted path with
// spaces in it (`/a/my shot.png`) is read as that path.
func pastedPaths(s string) (paths []string, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64<<10 {
		return nil, false
	}
	words, err := splitWords(s)
	if err == nil && len(words) > 0 {
		paths = make([]string, 0, len(words))
		for _, w := range words {
			p, ok := pathOf(w)
			if !ok {
				paths = nil
				break
			}
			paths = append(paths, p)
		}
		if paths != nil {
			return paths, true
		}
	}
	if !strings.ContainsAny(s, "\n'\"\\") {
		if p, ok := pathOf(s); ok {
			return []string{p}, true
		}
	}
	return nil, false
}

// pathOf returns the path a word names, if it looks like an image path.
func pathOf(w string) (string, bool) {
	if strings.HasPrefix(w, "file://") {
		u, err := url.Parse(w)
		if err != nil || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
			return "", false
		}
		w = u.Path
	}
	looksLikePath := strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/") ||
		strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") || isWindowsAbs(w)
	if !looksLikePath || !IsImageName(w) {
		return "", false
	}
	return w, true
}

// isWindowsAbs reports a drive path ("C:\shots\a.png", "C:/a.png").
func isWindowsAbs(p string) bool {
	return len(p) >= 3 && unicode.IsLetter(rune(p[0])) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// splitWords splits s into words as a POSIX shell would, without any
// expansion: white space separates words; '…' keeps everything; "…"
// keeps everything but \" \\ \$ and \` escapes; outside quotes a
// backslash escapes the next character. An unclosed quote is an error.
func splitWords(s string) ([]string, error) {
	var words []string
	var b strings.Builder
	inWord := false
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j == len(rs) {
				return nil, fmt.Errorf("unclosed '")
			}
			b.WriteString(string(rs[i+1 : j]))
			i, inWord = j, true
		case r == '"':
			j := i + 1
			for ; j < len(rs) && rs[j] != '"'; j++ {
				if rs[j] == '\\' && j+1 < len(rs) && strings.ContainsRune("\"\\$`", rs[j+1]) {
					j++
				}
				b.WriteRune(rs[j])
			}
			if j == len(rs) {
				return nil, fmt.Errorf("unclosed \"")
			}
			i, inWord = j, true
		case r == '\\' && i+1 < len(rs):
			i++
			if rs[i] != '\n' { // a backslash-newline joins lines
				b.WriteRune(rs[i])
			}
			inWord = true
		case unicode.IsSpace(r):
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	return words, nil
}

// localPath makes a pasted path absolute on this machine: ~/ is the home
// directory, a relative path is taken from dir.
func localPath(p, dir string) string {
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// serverPath makes a pasted path absolute on a remote app-server's
// machine: a relative one is taken from the thread's workspace cwd; ok is
// false for ~/ (the remote home is not known here) or when there is no
// workspace to start from.
func serverPath(p, cwd string) (string, bool) {
	switch {
	case strings.HasPrefix(p, "~/"):
		return "", false
	case strings.HasPrefix(p, "/") || isWindowsAbs(p):
		return p, true
	case cwd == "":
		return "", false
	}
	return path.Join(cwd, p), true
}

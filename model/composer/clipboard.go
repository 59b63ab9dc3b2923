package composer

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
)

// clipboardTimeout bounds one Ctrl+V: every clipboard tool it runs.
const clipboardTimeout = 5 * time.Second

// clipboardMaxBytes caps a clipboard image.
const clipboardMaxBytes = 50 << 20

// clipboardMsg is what Ctrl+V found: an image, written to the local file
// path (size bytes), else the clipboard's text, else err saying why
// neither could be read.
type clipboardMsg struct {
	path string
	size int64
	text string
	err  error
}

// clipReader reads the system clipboard through the platform's tools:
// wl-paste (Wayland) or xclip (X11) on Linux, pngpaste or osascript (and
// pbpaste for text) on macOS. Its fields are the outside world, so tests
// can stand in for it.
type clipReader struct {
	goos   string
	getenv func(string) string
	look   func(string) (string, error)
	run    func(ctx context.Context, name string, args ...string) ([]byte, error)
}

// systemClipboard is the real one.
var systemClipboard = clipReader{goos: runtime.GOOS, getenv: os.Getenv, look: exec.LookPath, run: runTool}

// runTool runs a clipboard tool and returns its stdout; ctx's deadline
// kills it, and a child that keeps the pipe open does not hold it.
func runTool(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var errb bytes.Buffer
	out := &cappedBuffer{max: clipboardMaxBytes, over: cancel}
	cmd.Stdout, cmd.Stderr = out, &errb
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); out.full {
		return nil, fmt.Errorf("%s: the clipboard holds more than %d MB", name, clipboardMaxBytes>>20)
	} else if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s did not answer within %v", name, clipboardTimeout)
		}
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			return nil, fmt.Errorf("%s: %s", name, firstLine(msg))
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out.Bytes(), nil
}

// cappedBuffer keeps up to max bytes; past that it keeps nothing more,
// says full and calls over (which stops the tool): a huge clipboard is
// never read whole.
type cappedBuffer struct {
	bytes.Buffer
	max  int
	full bool
	over func()
}

// Write implements io.Writer.
func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.full || b.Len()+len(p) > b.max {
		if !b.full {
			b.full = true
			b.over()
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// imageMIMEs are the clipboard types taken as an image, in order of
// preference, with the extension of the file written.
var imageMIMEs = []struct{ mime, ext string }{
	{"image/png", ".png"}, {"image/jpeg", ".jpg"}, {"image/webp", ".webp"}, {"image/gif", ".gif"},
}

// tool is one way to read the clipboard: list its types, read one type,
// read its text.
type tool struct {
	types func(ctx context.Context) ([]byte, error) // nil: the tool can't list them
	image func(ctx context.Context, mime string) ([]byte, error)
	text  func(ctx context.Context) ([]byte, error)
}

// tool picks the clipboard tool of this platform, or says why there is
// none.
func (c clipReader) tool() (tool, error) {
	has := func(name string) bool { _, err := c.look(name); return err == nil }
	switch c.goos {
	case "darwin":
		t := tool{text: func(ctx context.Context) ([]byte, error) { return c.run(ctx, "pbpaste") }}
		if has("pngpaste") {
			t.image = func(ctx context.Context, _ string) ([]byte, error) { return c.run(ctx, "pngpaste", "-") }
		} else {
			t.image = func(ctx context.Context, _ string) ([]byte, error) {
				out, err := c.run(ctx, "osascript", "-e", "the clipboard as «class PNGf»")
				if err != nil {
					return nil, err
				}
				return decodeAppleData(out)
			}
		}
		return t, nil
	case "linux", "freebsd", "openbsd", "netbsd":
		wayland, x11 := c.getenv("WAYLAND_DISPLAY") != "", c.getenv("DISPLAY") != ""
		switch {
		case wayland && has("wl-paste"):
			return tool{
				types: func(ctx context.Context) ([]byte, error) { return c.run(ctx, "wl-paste", "--list-types") },
				image: func(ctx context.Context, mime string) ([]byte, error) {
					return c.run(ctx, "wl-paste", "--no-newline", "--type", mime)
				},
				text: func(ctx context.Context) ([]byte, error) { return c.run(ctx, "wl-paste", "--no-newline") },
			}, nil
		case x11 && has("xclip"):
			return tool{
				types: func(ctx context.Context) ([]byte, error) {
					return c.run(ctx, "xclip", "-selection", "clipboard", "-t", "TARGETS", "-o")
				},
				image: func(ctx context.Context, mime string) ([]byte, error) {
					return c.run(ctx, "xclip", "-selection", "clipboard", "-t", mime, "-o")
				},
				text: func(ctx context.Context) ([]byte, error) { return c.run(ctx, "xclip", "-selection", "clipboard", "-o") },
			}, nil
		case !wayland && !x11:
			return tool{}, errors.New("no display to read a clipboard from (DISPLAY and WAYLAND_DISPLAY are unset) — paste the image's path instead")
		case wayland:
			return tool{}, errors.New("reading a clipboard image needs wl-paste (install wl-clipboard) — or paste the image's path")
		}
		return tool{}, errors.New("reading a clipboard image needs xclip — or paste the image's path")
	}
	return tool{}, fmt.Errorf("clipboard images are read on Linux and macOS only, not on %s — paste the image's path instead", c.goos)
}

// read returns the clipboard's image, written into dir, or else its text.
func (c clipReader) read(ctx context.Context, dir string) clipboardMsg {
	t, err := c.tool()
	if err != nil {
		return clipboardMsg{err: err}
	}
	var data []byte
	ext := ".png"
	if t.types != nil {
		types, err := t.types(ctx)
		if err == nil {
			for _, im := range imageMIMEs {
				if hasLine(types, im.mime) {
					if data, err = t.image(ctx, im.mime); err != nil {
						return clipboardMsg{err: err}
					}
					ext = im.ext
					break
				}
			}
		}
	} else if d, err := t.image(ctx, "image/png"); err == nil {
		data = d
	}
	if len(data) > 0 {
		p, err := saveClipboardImage(dir, data, ext)
		if err != nil {
			return clipboardMsg{err: fmt.Errorf("saving the clipboard image: %w", err)}
		}
		return clipboardMsg{path: p, size: int64(len(data))}
	}
	if ctx.Err() != nil {
		return clipboardMsg{err: errors.New("the clipboard did not answer in time")}
	}
	text, err := t.text(ctx)
	if err != nil || len(bytes.TrimSpace(text)) == 0 {
		return clipboardMsg{err: errors.New("no image or text on the clipboard")}
	}
	return clipboardMsg{text: string(text)}
}

// hasLine reports whether one of list's lines is s.
func hasLine(list []byte, s string) bool {
	for _, l := range strings.Split(string(list), "\n") {
		if strings.TrimSpace(l) == s {
			return true
		}
	}
	return false
}

var appleData = regexp.MustCompile(`«data [A-Za-z0-9 ]{4}([0-9A-Fa-f]+)»`)

// decodeAppleData reads osascript's «data PNGf89504E47…» form of the
// clipboard.
func decodeAppleData(out []byte) ([]byte, error) {
	m := appleData.FindSubmatch(out)
	if m == nil {
		return nil, errors.New("no image on the clipboard")
	}
	return hex.DecodeString(string(m[1]))
}

// saveClipboardImage writes data to a new file of dir (made 0700, the
// file 0600) and removes clipboard images there older than a week.
func saveClipboardImage(dir string, data []byte, ext string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if old, _ := filepath.Glob(filepath.Join(dir, "clip-*")); len(old) > 0 {
		for _, p := range old {
			if st, err := os.Stat(p); err == nil && time.Since(st.ModTime()) > 7*24*time.Hour {
				_ = os.Remove(p)
			}
		}
	}
	f, err := os.CreateTemp(dir, "clip-"+time.Now().Format("20060102-150405")+"-*"+ext)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), f.Close()
}

// clipboardDir is where clipboard images are kept: tandem's state
// directory (backend.StateDir), images/.
func clipboardDir() string { return filepath.Join(backend.StateDir(), "images") }

// clipboardMsg's composerMsg marks it the composer's.
func (clipboardMsg) composerMsg() {}

// ReadClipboard is Ctrl+V: it reads the clipboard in a command (the
// tools run with a timeout), never on a guest's behalf (the clipboard
// would be the host's).
func (c *Composer) ReadClipboard() {
	if c.env.Role.Guest() {
		c.out().Notice(act.NoticeInfo, "Ctrl+V would read the host's clipboard — over tandem serve paste with your terminal, or paste an image's path on the host")
		return
	}
	c.out().Notice(act.NoticeInfo, "reading the clipboard…")
	clip, dir := systemClipboard, clipboardDir()
	c.out().Cmd(func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), clipboardTimeout)
		defer cancel()
		return clip.read(ctx, dir)
	})
}

// onClipboard attaches the clipboard's image, or has its text pasted as
// a bracketed paste is (act.PasteText: a copied image path becomes a
// chip too), or says what failed.
func (c *Composer) onClipboard(msg clipboardMsg) {
	c.out().Clear(act.NoticeInfo)
	switch {
	case msg.err != nil:
		c.out().Notice(act.NoticeInfo, "Ctrl+V: "+msg.err.Error())
		return
	case msg.path != "":
		c.attachImages([]Image{{Local: msg.path, Name: "clipboard image"}}, []int64{msg.size})
		note := "clipboard image attached"
		if c.facts().Remote {
			note += " — it is copied to the app-server's machine (" + backend.RemoteImageDir + " in the workspace) when sent"
		}
		c.out().Notice(act.NoticeInfo, note)
		c.out().Want(act.CheckImages{})
		return
	}
	c.out().Want(act.PasteText{Text: msg.text})
}

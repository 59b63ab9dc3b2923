package backend

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// UserImages returns the images of a userMessage item, in order: the
// path of each "localImage" element, and the URL of each "image" element
// (a data: URL for an image pasted into another client).
func (it Item) UserImages() []string {
	var out []string
	for _, c := range it.Content {
		switch c.Type {
		case "localImage":
			out = append(out, c.Path)
		case "image":
			out = append(out, c.URL)
		}
	}
	return out
}

// TakesImages reports whether the model accepts image inputs
// (`Model.inputModalities` has "image"). A model whose entry has no
// inputModalities takes them: the protocol's default is text and image.
func (mi ModelInfo) TakesImages() bool {
	return mi.InputModalities == nil || slices.Contains(mi.InputModalities, "image")
}

// RemoteImageDir is where a local image sent to a remote app-server is
// copied, under the thread's workspace (cwd) on that machine.
const RemoteImageDir = ".tandem/images"

// RemoteImagePath is the path on a remote app-server's machine that
// local, an image on this machine, is copied to before a turn sends it:
// a fresh folder of RemoteImageDir under cwd (the thread's workspace),
// keeping the file's name.
func RemoteImagePath(cwd, local string) string {
	name := path.Base(filepath.ToSlash(local))
	return path.Join(cwd, RemoteImageDir, strconv.FormatInt(time.Now().UnixNano(), 36), name)
}

// FileWriter writes a file on the app-server's machine (`fs/writeFile`;
// Session.WriteFile).
type FileWriter interface {
	WriteFile(ctx context.Context, p string, data []byte) error
}

// UploadImage copies local, a file on this machine, to server, a path on
// the app-server's machine, with `fs/writeFile` (creating its folder).
func UploadImage(ctx context.Context, w FileWriter, local, server string) error {
	data, err := os.ReadFile(local)
	if err != nil {
		return err
	}
	return w.WriteFile(ctx, server, data)
}

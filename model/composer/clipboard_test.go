package composer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"tandem/model/act"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// fakeClip is a clipboard with tools: env is the environment, tools the
// programs on PATH, answer what running one gives ("" with an error
// means the tool failed).
func fakeClip(goos string, env map[string]string, tools []string, answer func(name string, args []string) ([]byte, error)) clipReader {
	return clipReader{
		goos:   goos,
		getenv: func(k string) string { return env[k] },
		look: func(name string) (string, error) {
			for _, t := range tools {
				if t == name {
					return "/usr/bin/" + name, nil
				}
			}
			return "", errors.New("not found")
		},
		run: func(ctx context.Context, name string, args ...string) ([]byte, error) { return answer(name, args) },
	}
}

var pngBytes = []byte("\x89PNG\r\n\x1a\nfake image data")

// What Ctrl+V reads on each platform and with each tool.
func TestClipboardRead(t *testing.T) {
	wayland := map[string]string{"WAYLAND_DISPLAY": "wayland-0"}
	x11 := map[string]string{"DISPLAY": ":0"}
	wl := func(types, text string) func(string, []string) ([]byte, error) {
		return func(name string, args []string) ([]byte, error) {
			switch strings.Join(append([]string{name}, args...), " ") {
			case "wl-paste --list-types":
				return []byte(types), nil
			case "wl-paste --no-newline --type image/png":
				return pngBytes, nil
			case "wl-paste --no-newline --type image/jpeg":
				return []byte("jpeg"), nil
			case "wl-paste --no-newline":
				return []byte(text), nil
			}
			return nil, errors.New("unexpected " + name + " " + strings.Join(args, " "))
		}
	}
	xclip := func(name string, args []string) ([]byte, error) {
		switch strings.Join(append([]string{name}, args...), " ") {
		case "xclip -selection clipboard -t TARGETS -o":
			return []byte("TARGETS\nimage/png\nSTRING\n"), nil
		case "xclip -selection clipboard -t image/png -o":
			return pngBytes, nil
		}
		return nil, errors.New("unexpected")
	}
	osa := func(name string, args []string) ([]byte, error) {
		if name == "osascript" {
			return []byte("«data PNGf89504E470D0A1A0A»\n"), nil
		}
		return nil, errors.New("unexpected " + name)
	}
	tests := []struct {
		name      string
		clip      clipReader
		wantImage []byte
		wantExt   string
		wantText  string
		wantErr   string
	}{
		{"wayland image", fakeClip("linux", wayland, []string{"wl-paste"}, wl("text/plain\nimage/png\n", "")), pngBytes, ".png", "", ""},
		{"wayland jpeg", fakeClip("linux", wayland, []string{"wl-paste"}, wl("image/jpeg\n", "")), []byte("jpeg"), ".jpg", "", ""},
		{"wayland text", fakeClip("linux", wayland, []string{"wl-paste"}, wl("text/plain\n", "/tmp/shot.png")), nil, "", "/tmp/shot.png", ""},
		{"wayland empty", fakeClip("linux", wayland, []string{"wl-paste"}, wl("", "")), nil, "", "", "no image or text on the clipboard"},
		{"wayland without wl-paste", fakeClip("linux", wayland, nil, nil), nil, "", "", "needs wl-paste (install wl-clipboard)"},
		{"x11 image", fakeClip("linux", x11, []string{"xclip"}, xclip), pngBytes, ".png", "", ""},
		{"x11 without xclip", fakeClip("linux", x11, nil, nil), nil, "", "", "needs xclip"},
		{"no display (ssh)", fakeClip("linux", nil, []string{"xclip", "wl-paste"}, nil), nil, "", "", "no display to read a clipboard from"},
		{"macOS osascript", fakeClip("darwin", nil, nil, osa), []byte("\x89PNG\r\n\x1a\n"), ".png", "", ""},
		{"windows", fakeClip("windows", nil, nil, nil), nil, "", "", "Linux and macOS only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			got := tt.clip.read(context.Background(), dir)
			if tt.wantErr != "" {
				if got.err == nil || !strings.Contains(got.err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", got.err, tt.wantErr)
				}
				return
			}
			if got.err != nil || got.text != tt.wantText {
				t.Fatalf("got %+v", got)
			}
			if tt.wantImage == nil {
				if got.path != "" {
					t.Fatalf("an image from a text clipboard: %s", got.path)
				}
				return
			}
			b, err := os.ReadFile(got.path)
			if err != nil || !reflect.DeepEqual(b, tt.wantImage) || filepath.Dir(got.path) != dir || filepath.Ext(got.path) != tt.wantExt || got.size != int64(len(b)) {
				t.Fatalf("image %s (%d bytes): %q %v", got.path, got.size, b, err)
			}
			if st, _ := os.Stat(got.path); st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v", st.Mode())
			}
		})
	}
}

// A tool that does not answer is given up on at the deadline (one that
// were not would hang the test).
func TestClipboardToolTimesOut(t *testing.T) {
	c := clipReader{goos: "linux", getenv: func(string) string { return "x" }, look: func(string) (string, error) { return "", nil },
		run: func(ctx context.Context, name string, args ...string) ([]byte, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got := c.read(ctx, t.TempDir())
	if got.err == nil || !strings.Contains(got.err.Error(), "did not answer in time") {
		t.Fatalf("got %+v", got)
	}
}

// runTool kills a tool past its deadline and says so (a sleep 10 that
// were not killed would end with no error).
func TestRunToolDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := runTool(ctx, "sleep", "10")
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("err %v", err)
	}
}

// writePNG writes a small PNG file named name in dir (what CheckImageFile
// sniffs) and returns its path.
func writePNG(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 92)...), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// ctrlV presses Ctrl+V, reads the clipboard and routes a text it had as
// the root routes a paste with no form up: to the composer.
func (r *rig) ctrlV() []act.Intent {
	r.take()
	r.press(tea.KeyPressMsg{Code: 'v', Mod: tea.ModCtrl})
	r.run()
	intents := r.take()
	for _, i := range intents {
		if p, ok := i.(act.PasteText); ok {
			r.c.Paste(p.Text)
			r.run()
			intents = append(intents, r.take()...)
		}
	}
	return intents
}

// Ctrl+V in the composer: an image becomes a chip (kept in the state
// dir), sent as that file; a copied path becomes a chip too; no tool is
// a notice and the draft stays.
func TestCtrlVAttachesClipboardImage(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	saved := systemClipboard
	t.Cleanup(func() { systemClipboard = saved })
	dir := t.TempDir()
	shot := writePNG(t, dir, "shot.png")
	text := ""
	systemClipboard = fakeClip("linux", map[string]string{"WAYLAND_DISPLAY": "w"}, []string{"wl-paste"}, func(name string, args []string) ([]byte, error) {
		switch {
		case args[0] == "--list-types" && text == "":
			return []byte("image/png\n"), nil
		case args[0] == "--list-types":
			return []byte("text/plain\n"), nil
		case len(args) == 3:
			return pngBytes, nil
		}
		return []byte(text), nil
	})
	r := newRig(t, Options{Workspace: dir})
	r.typeText("this ")
	got := r.ctrlV()
	if v := r.c.Value(); v != "this [image 1 · clipboard image · 23 B] " {
		t.Fatalf("composer %q (notice %q)", v, notice(got))
	}
	if !slices.Contains(got, act.Intent(act.CheckImages{})) {
		t.Errorf("asked %v: no check that the model takes images", got)
	}
	text = shot
	r.ctrlV()
	_, ims := r.c.Resolve(r.c.Text()) // what Enter sends
	if len(ims) != 2 || ims[1].Local != shot ||
		!strings.HasPrefix(ims[0].Local, filepath.Join(os.Getenv("XDG_STATE_HOME"), "tandem", "images", "clip-")) {
		t.Fatalf("images %+v", ims)
	}

	systemClipboard = fakeClip("linux", nil, nil, nil)
	r.c.SetDraft("")
	r.typeText("draft")
	got = r.ctrlV()
	if r.c.Value() != "draft" || !strings.Contains(notice(got), "Ctrl+V: no display") {
		t.Fatalf("draft %q, notice %q", r.c.Value(), notice(got))
	}
}

// A guest of tandem serve never reads the host's clipboard.
func TestCtrlVGuestReadsNoHostClipboard(t *testing.T) {
	saved := systemClipboard
	t.Cleanup(func() { systemClipboard = saved })
	systemClipboard = fakeClip("linux", nil, nil, func(string, []string) ([]byte, error) {
		t.Error("a guest's Ctrl+V ran a clipboard tool")
		return nil, nil
	})
	r := newRig(t, Options{})
	r.c.env.Role = act.NewRole(false, true, true)
	got := r.ctrlV()
	if !strings.Contains(notice(got), "host's clipboard") || r.c.Value() != "" {
		t.Fatalf("notice %q, draft %q", notice(got), r.c.Value())
	}
}

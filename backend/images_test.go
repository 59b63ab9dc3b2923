package backend

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The images of a userMessage item, as thread/read and item/completed
// give them.
func TestUserImages(t *testing.T) {
	it := Item{Type: "userMessage", Content: []UserContent{
		{Type: "text", Text: "compare"},
		{Type: "localImage", Path: "/a/before.png"},
		{Type: "image", URL: "data:image/png;base64,AAAA"},
		{Type: "skill", Name: "deploy", Path: "/s/SKILL.md"},
	}}
	if got, want := it.UserImages(), []string{"/a/before.png", "data:image/png;base64,AAAA"}; !reflect.DeepEqual(got, want) {
		t.Errorf("UserImages = %q, want %q", got, want)
	}
	if it.UserText() != "compare" {
		t.Errorf("UserText = %q", it.UserText())
	}
}

// inputModalities: absent means the protocol's default (text, image).
func TestTakesImages(t *testing.T) {
	tests := []struct {
		mods []string
		want bool
	}{{nil, true}, {[]string{"text", "image"}, true}, {[]string{"text"}, false}, {[]string{}, false}}
	for _, tt := range tests {
		if got := (ModelInfo{InputModalities: tt.mods}).TakesImages(); got != tt.want {
			t.Errorf("%q: %v", tt.mods, got)
		}
	}
}

type memFS map[string][]byte

func (m memFS) WriteFile(_ context.Context, p string, data []byte) error { m[p] = data; return nil }

// A local image for a remote app-server goes to a fresh folder of the
// workspace's .tandem/images, keeping its name.
func TestUploadImage(t *testing.T) {
	local := filepath.Join(t.TempDir(), "shot.png")
	os.WriteFile(local, []byte("png"), 0o600)
	a, b := RemoteImagePath("/srv/app", local), RemoteImagePath("/srv/app", local)
	if !strings.HasPrefix(a, "/srv/app/.tandem/images/") || !strings.HasSuffix(a, "/shot.png") || a == b {
		t.Fatalf("remote paths %q %q", a, b)
	}
	fs := memFS{}
	if err := UploadImage(context.Background(), fs, local, a); err != nil || string(fs[a]) != "png" {
		t.Fatalf("upload: %v %q", err, fs)
	}
	if err := UploadImage(context.Background(), fs, local+".missing", a); err == nil {
		t.Fatal("a missing file uploaded")
	}
}

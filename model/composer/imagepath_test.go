package composer

import (
	"reflect"
	"testing"
)

// How a paste is read: dropped files as terminals paste them become
// paths; anything else is text.
func TestPastedPaths(t *testing.T) {
	tests := []struct {
		name  string
		paste string
		want  []string // nil: text
	}{
		{"plain", "/home/u/shot.png", []string{"/home/u/shot.png"}},
		{"trailing space and newline", "/home/u/shot.png \n", []string{"/home/u/shot.png"}},
		{"single quotes", "'/home/u/my shot.png'", []string{"/home/u/my shot.png"}},
		{"double quotes", `"/home/u/my \"best\" shot.PNG"`, []string{`/home/u/my "best" shot.PNG`}},
		{"escaped spaces", `/home/u/my\ shot\ 2.jpg`, []string{"/home/u/my shot 2.jpg"}},
		{"file URL", "file:///home/u/my%20shot.webp", []string{"/home/u/my shot.webp"}},
		{"file URL localhost", "file://localhost/tmp/a.gif", []string{"/tmp/a.gif"}},
		{"several", "'/a/one.png' /b/two.jpeg\nfile:///c/three.png", []string{"/a/one.png", "/b/two.jpeg", "/c/three.png"}},
		{"home and relative", "~/a.png ./b.png ../c.jpg", []string{"~/a.png", "./b.png", "../c.jpg"}},
		{"unquoted with a space", "/home/u/Screen Shot 1.png", []string{"/home/u/Screen Shot 1.png"}},
		{"not an image", "/etc/passwd", nil},
		{"one not an image", "/a/one.png /a/notes.txt", nil},
		{"a bare name", "shot.png", nil},
		{"text mentioning a path", "look at /a/shot.png please", nil},
		{"file URL of another host", "file://server/share/a.png", nil},
		{"unclosed quote", "'/a/shot.png", nil},
		{"empty", "  \n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := pastedPaths(tt.paste)
			if ok != (tt.want != nil) || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("pastedPaths(%q) = %q, %v; want %q", tt.paste, got, ok, tt.want)
			}
		})
	}
}

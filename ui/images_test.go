package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestImageLabel(t *testing.T) {
	tests := []struct {
		ref  string
		size int64
		want string
	}{
		{"/home/u/shot.png", 240_000, "shot.png · 240 KB"},
		{"/home/u/shot.png", -1, "shot.png"},
		{"/a/tiny.gif", 812, "tiny.gif · 812 B"},
		{"/a/big.jpg", 3_400_000, "big.jpg · 3.4 MB"},
		{"/a/edge.jpg", 999_999, "edge.jpg · 1.0 MB"},
		{`C:\shots\win.png`, -1, "win.png"},
		{"data:image/png;base64,AAAA", -1, "pasted image"},
		{"https://example.com/a.png", -1, "https://example.com/a.png"},
	}
	for _, tt := range tests {
		if got := ImageLabel(tt.ref, tt.size); got != tt.want {
			t.Errorf("ImageLabel(%q, %d) = %q, want %q", tt.ref, tt.size, got, tt.want)
		}
	}
}

// A message's attachments are one line each under its text, cut to the
// width; a message of images alone has no empty text line.
func TestUserCellImages(t *testing.T) {
	st := NewStyles(true)
	ctx := &RenderContext{Styles: &st}
	tests := []struct {
		cell  UserCell
		width int
		want  string
	}{
		{UserCell{Text: "what is this", Images: []string{"shot.png · 240 KB"}}, 40, "\n▌ what is this\n▌ ⎘ shot.png · 240 KB"},
		{UserCell{Images: []string{"a.png", "b.png"}}, 40, "\n▌ ⎘ a.png\n▌ ⎘ b.png"},
		{UserCell{Text: "x", Images: []string{"a-very-long-screenshot-name-2026-12-01.png · 1.2 MB"}}, 24, "\n▌ x\n▌ ⎘ a-very-long-screens…"},
		{UserCell{Text: "x", Images: []string{"スクリーン.png · 3 KB"}}, 40, "\n▌ x\n▌ ⎘ スクリーン.png · 3 KB"},
	}
	for _, tt := range tests {
		got := ansi.Strip(strings.Join(tt.cell.Render(ctx, tt.width), "\n"))
		if got != tt.want {
			t.Errorf("width %d: got\n%s\nwant\n%s", tt.width, got, tt.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if ansi.StringWidth(l) > tt.width {
				t.Errorf("line %q wider than %d", l, tt.width)
			}
		}
	}
}

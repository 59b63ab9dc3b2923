package teatest

import (
	"os"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/testkit/e2e"
)

// imageFile makes a PNG-looking file of size bytes named name.
func imageFile(t *testing.T, name string, size int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	data := make([]byte, size)
	copy(data, "\x89PNG\r\n\x1a\n") // what tandem sniffs an image by
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A dropped image is a chip in the composer, text typed after it.
func TestGoldenImageChip(t *testing.T) {
	u := newScreen(t)
	u.TM.Send(tea.PasteMsg{Content: "'" + imageFile(t, "shot.png", 240_000) + "'"})
	u.TM.Type("what is this")
	golden(t, u, "› [image 1 · shot.png · 240 KB] what is this")
}

// The sent message lists its images under the text, wide names too.
func TestGoldenImageMessage(t *testing.T) {
	u := newScreen(t)
	u.TM.Send(tea.PasteMsg{Content: imageFile(t, "shot.png", 240_000) + " " + imageFile(t, "スクリーン📸.png", 3_400_000)})
	u.TM.Type("compare them")
	u.WaitScreen(t, e2e.Patience, "the chips", e2e.Contains("] compare them"))
	startTurn(t, u, "")
	endTurn(t, u)
	golden(t, u, "▌ ⎘ スクリーン📸.png · 3.4 MB")
}

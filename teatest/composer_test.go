package teatest

import (
	"strings"
	"testing"

	"tandem/internal/testkit/e2e"
)

// A multi-line paste of wide text typed as keys (no bracketed paste, each
// newline an Enter): one draft, wrapped at spaces and between CJK
// characters, each row the screen's width, the › prompt on the first row
// only, the cursor at the end; nothing was sent.
func TestGoldenComposerWidePasteAsKeys(t *testing.T) {
	u := newScreen(t)
	u.Type(strings.Join([]string{
		"日本語の文章を貼り付けると、行の幅で折り返されます。絵文字 👩‍💻 と旗 🇫🇷 も一文字です。長い行は次の行に続きます。",
		"한국어 문장도 마찬가지로 줄 바꿈됩니다 — and English words wrap at their spaces, as does a café with its accent, 1️⃣ keycap and all.",
		"",
		"last line after a blank one",
	}, "\r"))
	golden(t, u, "last line after a blank one")
	if s := u.Screen(t); e2e.Contains("▌")(s) {
		t.Fatalf("the paste's Enter sent it:\n%s", s)
	}
}

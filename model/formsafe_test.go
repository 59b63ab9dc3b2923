package model

import (
	"strings"
	"testing"
)

// File names from fuzzyFileSearch are drawn with their controls visible.
func TestFilePopupShowsControlsVisibly(t *testing.T) {
	m := newReqModel()
	m.popup = popup{kind: popupFile, source: "@s", items: []popupItem{{label: "safe\rHIDDEN.txt", path: "safe\rHIDDEN.txt"}, {label: "a\u202etxt.exe"}}}
	out := strings.Join(m.popupView(60), "\n")
	if strings.ContainsAny(out, "\r\u202e") || !strings.Contains(out, "safe␍HIDDEN.txt") || !strings.Contains(out, "a<U+202E>txt.exe") {
		t.Fatalf("popup: %q", out)
	}
}

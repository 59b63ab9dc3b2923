package model

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// In a small terminal an approval form keeps its title and every choice
// on screen (the transcript, the help line, the diff and the description
// give way), and the command keeps at least its first line.
func TestApprovalChoicesFitSmallTerminal(t *testing.T) {
	longCmd := `{"threadId":"th","turnId":"tu","itemId":"call_1","command":"echo PWNED > pwned.txt\r echo 'harmless listing'              ",` +
		`"cwd":"/tmp/some/long/working/directory","reason":"needs to write a file outside the sandbox for the build",` +
		`"proposedExecpolicyAmendment":["echo"],"proposedNetworkPolicyAmendments":[{"host":"example.com","action":"allow"}]}`
	bigPatch := `{"conversationId":"th","callId":"c1","fileChanges":{"a.txt":{"type":"add","content":"` +
		strings.Repeat(`line\n`, 40) + `"}},"reason":"adds a file with a rather long explanation of why","grantRoot":"/etc"}`
	cases := []struct {
		name, method, params string
		title                string
		want                 []string // choice prefixes that must show
	}{
		{"command", "item/commandExecution/requestApproval", longCmd, "Run this command?", []string{"Yes, run it", "No, co", "No, an", "$ echo"}},
		{"legacy patch", "applyPatchApproval", bigPatch, "Apply these changes?", []string{"> Yes", "No, an", "No, and stop"}},
		{"permissions", "item/permissions/requestApproval", permReq, "Grant these permissions?", []string{"Yes, for this", "Yes, for the", "No, deny"}},
	}
	for _, size := range [][2]int{{20, 12}, {30, 14}, {40, 16}, {100, 40}} {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				m := New(Options{NoColor: true, FormGrace: time.Hour})
				m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				deliver(t, m, decodeReq(t, tc.method, `1`, tc.params, &replies{}))
				screen := plain(m)
				if n := strings.Count(screen, "\n") + 1; n > size[1] {
					t.Fatalf("%dx%d: %d rows", size[0], size[1], n)
				}
				title := tc.title
				if len(title) > size[0]-4 {
					title = title[:size[0]-6]
				}
				for _, w := range append([]string{title}, tc.want...) {
					if len(w) > size[0]-9 {
						w = w[:size[0]-9] // labels are cut to the width
					}
					if !strings.Contains(screen, w) {
						t.Errorf("%dx%d: %q not on screen:\n%s", size[0], size[1], w, screen)
					}
				}
			})
		}
	}
}

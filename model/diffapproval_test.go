package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
)

// hostileAdd is an added file whose content has lines that look like a
// diff's headers and hunks; hostileDiff an update removing a "--" line.
const (
	hostileAdd  = "print(1)\n++__import__('os').system('touch PWNED')\n@@ -1 +1 @@\n+x\ndone\n"
	hostileDiff = "@@ -1,3 +1,2 @@\n create table t;\n--- SECURITY: keep the audit trigger\n create trigger a;\n"
)

// approvalDiff is the open approval's whole diff, plain.
func approvalDiff(t *testing.T, m *Model) []string {
	t.Helper()
	_, diff := m.overlay.PagerTail() // the approval's whole diff
	if diff == nil {
		t.Fatalf("no approval form with a diff:\n%s", plain(m))
	}
	var out []string
	for _, l := range diff {
		out = append(out, ansi.Strip(l))
	}
	return out
}

// Both approval kinds that carry a diff show every line once signed and
// the true counts: the v2 fileChange (the item's content and diff) and
// the legacy applyPatchApproval (its content and unified_diff).
func TestApprovalDiffShowsHostileLines(t *testing.T) {
	legacy, _ := json.Marshal(map[string]any{"conversationId": "th", "callId": "c1", "reason": nil, "grantRoot": nil,
		"fileChanges": map[string]any{
			"tool.py":    map[string]any{"type": "add", "content": hostileAdd},
			"schema.sql": map[string]any{"type": "update", "unified_diff": hostileDiff, "move_path": nil},
		}})
	want := []string{
		"add tool.py (+5 −0)",
		"1 +print(1)", "2 +++__import__('os').system('touch PWNED')", "3 +@@ -1 +1 @@", "4 ++x", "5 +done",
		"update schema.sql (+0 −1)",
		"1  create table t;", "2 --- SECURITY: keep the audit trigger", "2  create trigger a;",
	}
	for _, kind := range []string{"fileChange", "applyPatchApproval"} {
		t.Run(kind, func(t *testing.T) {
			m := newReqModel()
			if kind == "fileChange" {
				m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "fileChange", ID: "f1", Status: "inProgress", Changes: []backend.FileChange{
					{Path: "tool.py", Kind: backend.PatchChangeKind{Type: "add"}, Diff: hostileAdd},
					{Path: "schema.sql", Kind: backend.PatchChangeKind{Type: "update"}, Diff: hostileDiff},
				}}})
				deliver(t, m, decodeReq(t, "item/fileChange/requestApproval", `9`, `{"threadId":"th","turnId":"tu","itemId":"f1"}`, &replies{}))
			} else {
				deliver(t, m, decodeReq(t, "applyPatchApproval", `9`, string(legacy), &replies{}))
			}
			rows := approvalDiff(t, m)
			all := strings.Join(rows, "\n")
			for _, w := range want {
				if !strings.Contains(all, w) {
					t.Errorf("the diff lacks %q:\n%s", w, all)
				}
			}
			if n := len(rows); n != 10 {
				t.Errorf("%d diff rows; want 10 (2 headers, 8 lines):\n%s", n, all)
			}
		})
	}
}

// With a file-change approval up, Ctrl+T's pager ends with the
// approval's detail and then its whole diff, every line.
func TestPagerShowsApprovalsWholeDiff(t *testing.T) {
	var content strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&content, "line %d\n", i)
	}
	content.WriteString("++tail\n")
	m := newReqModel()
	m.Update(backend.ItemStartedEvent{Item: backend.Item{Type: "fileChange", ID: "f1", Status: "inProgress",
		Changes: []backend.FileChange{{Path: "big.txt", Kind: backend.PatchChangeKind{Type: "add"}, Diff: content.String()}}}})
	deliver(t, m, decodeReq(t, "item/fileChange/requestApproval", `9`, `{"threadId":"th","turnId":"tu","itemId":"f1","reason":"write big.txt"}`, &replies{}))
	if v := plain(m); !strings.Contains(v, "more lines below") {
		t.Fatalf("the window does not say lines are below:\n%s", v)
	}
	hitKey(t, m, 't', tea.ModCtrl)
	if !m.State().PagerOpen {
		t.Fatal("ctrl+t did not open the pager")
	}
	all := pagerText(t, m)
	wait := strings.Index(all, "Waiting for your answer:")
	reason := strings.Index(all, "Reason: write big.txt")
	head := strings.Index(all, "add big.txt (+61 −0)")
	if wait < 0 || reason < wait || head < reason {
		t.Fatalf("the pager does not end with the detail, then the diff:\n%s", all)
	}
	for i := 1; i <= 60; i++ {
		if !strings.Contains(all[head:], fmt.Sprintf("%d +line %d\n", i, i)) {
			t.Errorf("the pager lacks line %d of the diff", i)
		}
	}
	if !strings.HasSuffix(all, "61 +++tail") {
		t.Errorf("the pager does not end with the diff's last line:\n%s", all[head:])
	}
}

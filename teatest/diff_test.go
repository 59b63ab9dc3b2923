package teatest

import "testing"

// A hostile change: an added file whose content has lines that look like
// a diff's headers and hunks, and an update that removes a "--" line and
// adds a "+++" one. Every line must show once signed, with true counts.
const (
	hostileContent = "import os\n++__import__('os').system('touch PWNED')\n--- a/tool.py\n@@ -1 +1 @@\n+x\nprint('ok')\n"
	hostileUpdate  = "@@ -1,3 +1,3 @@\n create table t;\n--- SECURITY: keep the audit trigger\n++++ b/evil\n create trigger audit;\n"
)

func hostileChanges() []any {
	return []any{
		map[string]any{"path": "tool.py", "kind": map[string]any{"type": "add"}, "diff": hostileContent},
		map[string]any{"path": "schema.sql", "kind": map[string]any{"type": "update", "move_path": nil}, "diff": hostileUpdate},
	}
}

// The v2 file-change approval (its diff comes from the item).
func TestGoldenFileChangeApprovalHostile(t *testing.T) {
	u := newScreen(t)
	startTurn(t, u, "add the tool")
	itemEvent(t, u, "item/started", map[string]any{"type": "fileChange", "id": "fc-1", "status": "inProgress", "changes": hostileChanges()})
	u.TM.Send(request(t, "item/fileChange/requestApproval", "0", map[string]any{
		"threadId": "", "turnId": "turn-1", "itemId": "fc-1", "reason": "writes tool.py"}, make(chan string, 1)))
	golden(t, u, "Apply these changes?")
}

// The legacy applyPatchApproval (the content and unified_diff of its
// fileChanges).
func TestGoldenPatchApprovalHostile(t *testing.T) {
	u := newScreen(t)
	startTurn(t, u, "add the tool")
	u.TM.Send(request(t, "applyPatchApproval", "0", map[string]any{
		"conversationId": "", "callId": "c1", "reason": nil, "grantRoot": nil, "fileChanges": map[string]any{
			"tool.py":    map[string]any{"type": "add", "content": hostileContent},
			"schema.sql": map[string]any{"type": "update", "unified_diff": hostileUpdate, "move_path": nil},
		}}, make(chan string, 1)))
	golden(t, u, "Apply these changes?")
}

// The transcript's cell of the change, once applied.
func TestGoldenFileChangeHostile(t *testing.T) {
	u := newScreen(t)
	startTurn(t, u, "add the tool")
	itemEvent(t, u, "item/completed", map[string]any{"type": "fileChange", "id": "fc-1", "status": "completed", "changes": hostileChanges()})
	endTurn(t, u)
	golden(t, u, "Added tool.py")
}

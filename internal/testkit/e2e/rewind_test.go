package e2e

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/internal/frames"
	"tandem/internal/lib/screen"
	"tandem/internal/testkit/mockapi"
	"tandem/model"
	"tandem/sessions"
)

const (
	addNotes    = "*** Begin Patch\n*** Add File: notes.txt\n+v1\n*** End Patch\n"
	editNotes   = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-v1\n+v2\n*** End Patch\n"
	addNew      = "*** Begin Patch\n*** Add File: new.txt\n+brand new\n*** End Patch\n"
	deleteKeep  = "*** Begin Patch\n*** Delete File: keep.txt\n*** End Patch\n"
	keepContent = "keep me\nas I am\n"
)

// threeTurnScript: turn 1 creates notes.txt; turn 2 edits it, creates
// new.txt and deletes keep.txt; turn 3 only answers; then the answer to
// the edited second message.
func threeTurnScript() []mockapi.Response {
	return []mockapi.Response{
		{Items: []mockapi.Item{mockapi.ApplyPatch(addNotes)}},
		{Items: []mockapi.Item{mockapi.Text("Turn one done.")}},
		{Items: []mockapi.Item{mockapi.ApplyPatch(editNotes)}},
		{Items: []mockapi.Item{mockapi.ApplyPatch(addNew)}},
		{Items: []mockapi.Item{mockapi.ApplyPatch(deleteKeep)}},
		{Items: []mockapi.Item{mockapi.Text("Turn two done.")}},
		{Items: []mockapi.Item{mockapi.Text("Turn three done.")}},
		{Items: []mockapi.Item{mockapi.Text("The edited answer.")}},
	}
}

// threeTurns runs the three prompts and waits for each answer.
func threeTurns(t *testing.T, u *TUI, e *Env) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(e.Dir, "keep.txt"), []byte(keepContent), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{"first prompt", "second prompt", "third prompt"} {
		u.Submit(p)
		want := []string{"Turn one done.", "Turn two done.", "Turn three done."}[i]
		u.WaitScreen(t, Patience, want, func(s string) bool {
			return strings.Contains(s, want) && !strings.Contains(s, "esc to interrupt")
		})
	}
	if b, _ := os.ReadFile(filepath.Join(e.Dir, "notes.txt")); string(b) != "v2\n" {
		t.Fatalf("notes.txt after the turns: %q", b)
	}
	if _, err := os.Stat(filepath.Join(e.Dir, "keep.txt")); !os.IsNotExist(err) {
		t.Fatalf("keep.txt not deleted by turn 2: %v", err)
	}
}

func key(code rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code} }

// pickSecond opens the rewind picker (Esc Esc), picks the second prompt
// and, when the choice comes, takes choice (0 conversation only, 1 with
// the code).
func pickSecond(t *testing.T, u *TUI, choice int) {
	t.Helper()
	u.Key(key(tea.KeyEscape))
	u.WaitScreen(t, Patience, "the Esc hint", Contains("esc again to edit an earlier message"))
	u.Key(key(tea.KeyEscape))
	u.WaitScreen(t, Patience, "the picker", Contains("Edit an earlier message", "third prompt", "second prompt", "first prompt"))
	u.Key(key(tea.KeyDown))
	u.Key(key(tea.KeyEnter))
	u.WaitScreen(t, Patience, "the code choice", func(s string) bool {
		return Contains("Rewind conversation and code", "notes.txt", "created → removed", "deleted → restored")(s) &&
			strings.Contains(Squash(s), "new.txtcreated→removed") && strings.Contains(Squash(s), "keep.txtdeleted→restored")
	})
	for range choice {
		u.Key(key(tea.KeyDown))
	}
	u.Key(key(tea.KeyEnter))
	u.WaitScreen(t, Patience, "the prompt to edit", Contains("› second prompt"))
}

// Edit the second of three prompts and take the code back: the provider's
// next request has turn 1 and the edited prompt, not turns 2 and 3; the
// files are back byte for byte (an edit undone, a created file removed, a
// deleted one restored); the old thread is untouched.
func TestRewindEditsPromptAndCode(t *testing.T) {
	e := NewEnv(t, threeTurnScript()...)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	var recorded bytes.Buffer
	rec := sessions.NewRecorder(&recorded, nil, sessions.Header{Cwd: e.Dir, Width: 120, Height: 40})
	u.ConnectTraced(t, e, "never", "workspace-write", rec.Trace)
	threeTurns(t, u, e)
	orig := u.Session.ThreadID()
	pickSecond(t, u, 1)
	u.Type(" edited")
	u.Key(key(tea.KeyEnter))
	u.WaitScreen(t, Patience, "the edited answer", Contains("Rewound to “second prompt”", "The edited answer."))
	checkFiles(t, e.Dir, map[string]string{"notes.txt": "v1\n", "keep.txt": keepContent, "new.txt": ""})
	reqs := e.Mock.Requests()
	last := reqs[len(reqs)-1]
	texts := strings.Join(last.UserTexts(), "|")
	if !strings.Contains(texts, "first prompt") || !strings.Contains(texts, "second prompt edited") ||
		strings.Contains(texts, "third prompt") || strings.Contains(strings.Join(last.AssistantTexts(), "|"), "Turn two done.") {
		t.Errorf("the provider's request after the rewind has %q / %q", texts, last.AssistantTexts())
	}
	if u.Session.ThreadID() == orig {
		t.Error("still on the old thread")
	}
	th, err := u.Session.ReadThreadTurns(ctxT(t), orig)
	if err != nil || len(th.Turns) != 3 {
		t.Errorf("the old thread has %d turns (%v); want all 3", len(th.Turns), err)
	}
	checkRecordedRewind(t, rec, &recorded)
}

// checkRecordedRewind: the recording of a rewind has no file contents;
// its Markdown export keeps both branches in order with the fork point
// between them, and its replay ends on the fork, marked as a rewind.
func checkRecordedRewind(t *testing.T, rec *sessions.Recorder, recorded *bytes.Buffer) {
	t.Helper()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(recorded.Bytes(), []byte(base64.StdEncoding.EncodeToString([]byte("v2\n")))) || !bytes.Contains(recorded.Bytes(), []byte("file content not recorded")) {
		t.Error("the recording holds file contents of the rewind")
	}
	r, err := sessions.ReadRecording(bytes.NewReader(recorded.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := sessions.ExportMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	order := []string{"## Turn 1", "first prompt", "## Turn 2", "> second prompt\n", "## Turn 3", "Turn three done.",
		"**Rewound** to before turn 2", "turns 2–3 above stay on the original thread", "## Turn 2", "second prompt edited", "The edited answer."}
	at := 0
	for _, want := range order {
		i := strings.Index(md.String()[at:], want)
		if i < 0 {
			t.Fatalf("export lacks %q after byte %d:\n%s", want, at, md.String())
		}
		at += i + len(want)
	}
	last := ""
	sink := frameSink(func(s string) { last = s })
	if err := frames.Recording(r, frames.Options{Cols: 120, Rows: 40, Dark: true}, sink); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Rewound to “second prompt”", "2 turns left behind", "first prompt", "second prompt edited", "The edited answer."} {
		if !strings.Contains(last, want) {
			t.Errorf("the replay's last frame lacks %q:\n%s", want, last)
		}
	}
	if strings.Contains(last, "Turn three done.") {
		t.Errorf("the replay still shows the dropped branch at the end:\n%s", last)
	}
}

// frameSink keeps each frame's text.
type frameSink func(string)

func (f frameSink) Frame(_ time.Duration, fr *screen.Frame) {
	var rows []string
	for y := 0; y < fr.Rows; y++ {
		rows = append(rows, fr.Text(y))
	}
	f(strings.Join(rows, "\n"))
}

func (frameSink) Marker(time.Duration, string) {}

// A file edited by hand after the turn: the rewind refuses, touches
// nothing, forks nothing, and the edited prompt stays.
func TestRewindRefusesHandEditedFile(t *testing.T) {
	e := NewEnv(t, threeTurnScript()...)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.Connect(t, e, "never", "workspace-write")
	threeTurns(t, u, e)
	notes := filepath.Join(e.Dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("v2\nmine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	orig, n := u.Session.ThreadID(), len(e.Mock.Requests())
	pickSecond(t, u, 1)
	u.Type("!")
	u.Key(key(tea.KeyEnter))
	u.WaitScreen(t, Patience, "the refusal", Contains("nothing was rewound", "notes.txt: edited since", "› second prompt!"))
	checkFiles(t, e.Dir, map[string]string{"notes.txt": "v2\nmine\n", "new.txt": "brand new\n", "keep.txt": ""})
	if u.Session.ThreadID() != orig || len(e.Mock.Requests()) != n {
		t.Error("a refused rewind forked the thread or sent a turn")
	}
}

// The same rewind with the code, over the test sshd: the files go back
// through the remote app-server's file methods.
func TestRewindOverSSH(t *testing.T) {
	e := NewEnv(t, threeTurnScript()...)
	srv := e.StartSSHD(t)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.ConnectWith(t, e.SSHTransport(srv), e.Dir, "never", "workspace-write")
	threeTurns(t, u, e)
	pickSecond(t, u, 1)
	u.Key(key(tea.KeyEnter))
	u.WaitScreen(t, Patience, "the answer on the fork", Contains("Rewound to “second prompt”", "The edited answer."))
	checkFiles(t, e.Dir, map[string]string{"notes.txt": "v1\n", "keep.txt": keepContent, "new.txt": ""})
}

// /undo after a turn with no file changes has nothing to take back; after
// one with changes it takes them back and returns the prompt.
func TestUndoOnRealServer(t *testing.T) {
	e := NewEnv(t, threeTurnScript()...)
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.Connect(t, e, "never", "workspace-write")
	threeTurns(t, u, e)
	u.Submit("/undo")
	u.WaitScreen(t, Patience, "nothing to take back", Contains("the last turn changed no files: nothing to take back"))
	checkFiles(t, e.Dir, map[string]string{"notes.txt": "v2\n", "new.txt": "brand new\n", "keep.txt": ""})
}

// checkFiles compares files in dir; "" means the file must not exist.
func checkFiles(t *testing.T, dir string, want map[string]string) {
	t.Helper()
	for name, content := range want {
		b, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case content == "" && !os.IsNotExist(err):
			t.Errorf("%s exists (%q); want it gone", name, b)
		case content != "" && string(b) != content:
			t.Errorf("%s = %q, %v; want %q", name, b, err, content)
		}
	}
}

// An edit outside the lines the agent changed is seen too: tandem read
// the file as the agent left it, so the rewind refuses.
func TestRewindSeesEditOutsideTheHunk(t *testing.T) {
	e := NewEnv(t,
		mockapi.Response{Items: []mockapi.Item{mockapi.ApplyPatch("*** Begin Patch\n*** Update File: big.txt\n@@\n-line 5\n+LINE FIVE\n*** End Patch\n")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Edited.")}},
		mockapi.Response{Items: []mockapi.Item{mockapi.Text("Undone.")}},
	)
	var lines []string
	for i := 1; i <= 12; i++ {
		lines = append(lines, "line "+strconv.Itoa(i))
	}
	big := filepath.Join(e.Dir, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u := NewTUI(t, model.Options{Workspace: e.Dir}, 120, 40)
	u.Connect(t, e, "never", "workspace-write")
	u.Submit("edit line 5")
	u.WaitScreen(t, Patience, "the edit", func(s string) bool { return strings.Contains(s, "Edited.") && !strings.Contains(s, "esc to interrupt") })
	after, _ := os.ReadFile(big)
	if !strings.Contains(string(after), "LINE FIVE") {
		t.Fatalf("big.txt after the turn: %q", after)
	}
	time.Sleep(300 * time.Millisecond) // tandem reads the file as the agent left it
	mine := strings.Replace(string(after), "line 12", "line twelve (mine)", 1)
	if err := os.WriteFile(big, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	u.Submit("/undo")
	u.WaitScreen(t, Patience, "the undo choice", Contains("Undo the last turn and its file changes", "big.txt  +1 −1"))
	u.Key(key(tea.KeyEnter))
	u.WaitScreen(t, Patience, "the refusal", Contains("nothing was rewound", "big.txt: edited since"))
	if b, _ := os.ReadFile(big); string(b) != mine {
		t.Errorf("big.txt changed: %q", b)
	}
	// Put the line back as the agent left it: now the undo goes through.
	if err := os.WriteFile(big, after, 0o644); err != nil {
		t.Fatal(err)
	}
	u.Submit("/undo")
	u.WaitScreen(t, Patience, "the undo choice", Contains("Undo the last turn and its file changes"))
	u.Key(key(tea.KeyEnter))
	u.WaitScreen(t, Patience, "the undo", Contains("Rewound to “edit line 5”", "1 file put back", "› edit line 5"))
	if b, _ := os.ReadFile(big); string(b) != strings.Join(lines, "\n")+"\n" {
		t.Errorf("big.txt after /undo: %q", b)
	}
}

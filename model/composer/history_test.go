package composer

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"tandem/model/act"
)

func TestEditorReplacesDraft(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ed.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf 'edited text\\n' > \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", script)
	r := newRig(t, Options{})
	r.typeText("draft")
	r.take()
	r.press(tea.KeyPressMsg{Code: 'g', Mod: tea.ModCtrl})
	if len(r.out.Cmds) != 1 {
		t.Fatalf("ctrl+g gave %d commands, want tea.ExecProcess's", len(r.out.Cmds))
	}
	// Run what tea.ExecProcess would, then deliver its result.
	var path string
	for _, f := range []string{"tandem-prompt-"} {
		matches, _ := filepath.Glob(filepath.Join(os.TempDir(), f+"*.md"))
		for _, p := range matches {
			if b, _ := os.ReadFile(p); string(b) == "draft" {
				path = p
			}
		}
	}
	if path == "" {
		t.Fatal("draft file not written")
	}
	if out, err := execScript(script, path); err != nil {
		t.Fatal(err, out)
	}
	r.c.Update(editorDoneMsg{path: path})
	if r.c.Text() != "edited text" {
		t.Fatalf("draft after editor = %q", r.c.Text())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("temp file left behind")
	}
}

func execScript(script, arg string) (string, error) {
	out, err := exec.Command(script, arg).CombinedOutput()
	return string(out), err
}

// TestEditorNeverLosesTheDraft: an editor that saves an empty file, or
// that fails, leaves the draft as it was, with a notice or a banner
// saying so (issue 27).
func TestEditorNeverLosesTheDraft(t *testing.T) {
	for _, tc := range []struct {
		name, saved string
		err         error
		says        string
	}{
		{name: "emptied", saved: "", says: "your draft is kept"},
		{name: "blank lines", saved: "\n\n", says: "your draft is kept"},
		{name: "exit 1", saved: "half\n", err: errors.New("exit status 1"), says: "your draft is kept as it was"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Options{})
			r.typeText("my long draft")
			r.take()
			path := filepath.Join(t.TempDir(), "prompt.md")
			if err := os.WriteFile(path, []byte(tc.saved), 0o600); err != nil {
				t.Fatal(err)
			}
			r.c.Update(editorDoneMsg{path: path, err: tc.err})
			if r.c.Text() != "my long draft" {
				t.Fatalf("draft after the editor = %q, want it kept", r.c.Text())
			}
			said := ""
			for _, i := range r.out.Intents {
				switch i := i.(type) {
				case act.SetNotice:
					said += i.Text
				case act.Banner:
					said += i.Text
				}
			}
			if !strings.Contains(said, tc.says) {
				t.Fatalf("said %q, want %q", said, tc.says)
			}
		})
	}
	// An editor that saves an empty file over an empty draft is no loss.
	r := newRig(t, Options{})
	path := filepath.Join(t.TempDir(), "prompt.md")
	_ = os.WriteFile(path, nil, 0o600)
	r.c.Update(editorDoneMsg{path: path})
	if r.c.Text() != "" {
		t.Fatalf("draft = %q", r.c.Text())
	}
}

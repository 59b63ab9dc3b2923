package composer

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	tea "charm.land/bubbletea/v2"
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

package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// codex's history.jsonl: newest first, a repeated text once (its newest),
// secrets redacted, lines that are no entry skipped; no file, no prompts.
func TestCodexPrompts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	if got, err := CodexPrompts(path); err != nil || got != nil {
		t.Fatalf("no file: %v %v", got, err)
	}
	const key = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"
	lines := `{"session_id":"s1","ts":100,"text":"explain the build"}
not json
{"session_id":"s1","ts":200,"text":"use ` + key + `"}
{"session_id":"s2","ts":300,"text":"explain the build"}
{"session_id":"s2","ts":400,"text":""}
{"session_id":"s2","ts":500,"text":"two\nlines"}`
	if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := CodexPrompts(path)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range got {
		texts = append(texts, fmt.Sprint(p.Sent.Unix(), " ", p.Text))
		if !p.FromCodex || p.Workspace != "" {
			t.Errorf("%+v: not marked codex's", p)
		}
	}
	if len(texts) != 3 || texts[0] != "500 two\nlines" || texts[1] != "300 explain the build" || !strings.HasPrefix(texts[2], "200 use ") {
		t.Fatalf("prompts %q", texts)
	}
	if strings.Contains(texts[2], key) {
		t.Fatalf("the key is not redacted: %q", texts[2])
	}
}

// Only the file's last CodexHistoryTail bytes are read: the newest
// prompts of a big file, none cut in two.
func TestCodexPromptsReadsTheTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	var b strings.Builder
	pad := strings.Repeat("x", 1000)
	n := 2 * CodexHistoryTail / 1000
	for i := range n {
		fmt.Fprintf(&b, `{"session_id":"s","ts":%d,"text":"p%d %s"}`+"\n", i, i, pad)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := CodexPrompts(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) >= n/2+2 || !strings.HasPrefix(got[0].Text, fmt.Sprintf("p%d ", n-1)) {
		t.Fatalf("%d prompts of %d, newest %.10q", len(got), n, got[0].Text)
	}
	for _, p := range got {
		if !strings.HasSuffix(p.Text, pad) {
			t.Fatalf("a prompt cut in two: %.20q…", p.Text)
		}
	}
}

// MergePrompts interleaves lists by time, newest first, a text once.
func TestMergePrompts(t *testing.T) {
	at := func(s int64) time.Time { return time.Unix(s, 0) }
	a := []Prompt{{Text: "a3", Sent: at(3)}, {Text: "same", Sent: at(2)}}
	b := []Prompt{{Text: "b4", Sent: at(4), FromCodex: true}, {Text: "same", Sent: at(1), FromCodex: true}}
	var got []string
	for _, p := range MergePrompts(a, b) {
		got = append(got, fmt.Sprint(p.Text, p.FromCodex))
	}
	if want := []string{"b4true", "a3false", "samefalse"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("merged %q, want %q", got, want)
	}
}

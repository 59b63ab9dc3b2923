package sessions

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"
)

// CodexHistoryTail is how much of the end of codex's history.jsonl
// CodexPrompts reads: the newest prompts, whatever the file's size.
const CodexHistoryTail = 512 << 10

// codexHistoryLine is one line of codex's history.jsonl
// ($CODEX_HOME/history.jsonl), which codex's own TUI appends a prompt to
// (the app-server does not): the session, the time in Unix seconds, the
// text.
type codexHistoryLine struct {
	Session string `json:"session_id"`
	Ts      int64  `json:"ts"`
	Text    string `json:"text"`
}

// CodexPrompts returns the prompts of codex's own history file at path
// (history.jsonl in a local CODEX_HOME), newest first, from its last
// CodexHistoryTail bytes: redacted and cut as the state file keeps
// tandem's (MaxHistoryEntry), a text sent several times once, FromCodex
// set and no workspace (the file names none). A missing file gives none
// and no error; lines that are not such an entry are skipped.
func CodexPrompts(path string) ([]Prompt, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(f)
	if off := st.Size() - CodexHistoryTail; off > 0 {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return nil, err
		}
		r.Reset(f)
		if _, err := r.ReadString('\n'); err != nil { // the line cut in two
			return nil, nil
		}
	}
	var out []Prompt
	for {
		line, err := r.ReadString('\n')
		if l := strings.TrimSpace(line); l != "" {
			var e codexHistoryLine
			if json.Unmarshal([]byte(l), &e) == nil && strings.TrimSpace(e.Text) != "" {
				out = append(out, Prompt{Text: historyEntry(e.Text), Sent: time.Unix(e.Ts, 0), FromCodex: true})
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	slices.Reverse(out)
	return MergePrompts(out), nil
}

// MergePrompts returns the prompts of lists (each newest first), newest
// first, a text once (its newest); of prompts sent at the same second,
// the earlier list's first.
func MergePrompts(lists ...[]Prompt) []Prompt {
	var all []Prompt
	for _, l := range lists {
		all = append(all, l...)
	}
	slices.SortStableFunc(all, func(a, b Prompt) int { return b.Sent.Compare(a.Sent) })
	return dedupe(all)
}

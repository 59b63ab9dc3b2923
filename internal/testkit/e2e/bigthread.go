package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Markers a thread grown by GrowRollout is recognised by: its last turn's
// prompt and answer contain them, and copy k (1…n) carries
// "PromptMark-k" and "AnswerMark-k" in their place.
const (
	PromptMark = "bigthread-prompt"
	AnswerMark = "bigthread-answer"
)

var (
	uuidRE    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	ordinalRE = regexp.MustCompile(`"ordinal":\d+`)
	seqRE     = regexp.MustCompile(`"(history_sequence|sampled_through_sequence)":(\d+)`)
)

// GrowRollout rewrites the rollout at path (a finished thread of codex's
// own, written by the real app-server) so that its last turn follows
// itself n more times: each copy gets fresh turn and item ids, the next
// ordinals and history sequence numbers, and PromptMark / AnswerMark
// numbered by the copy. A 20,000-turn thread of realistic size (about
// 7 KB a turn) is made in a second or two, where running the turns
// would take hours. The file is written as it is built, so its size
// costs no memory. The app-server indexes the grown thread again on its
// first resume (which takes long for a big thread): resume it once
// before timing anything.
func GrowRollout(path string, n int) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.Contains(l, `"type":"task_started"`) {
			start = i
		}
	}
	if start < 0 {
		return fmt.Errorf("%s: no turn to copy", path)
	}
	var meta struct {
		Payload struct {
			ID string `json:"id"`
		} `json:"payload"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &meta); err != nil || meta.Payload.ID == "" {
		return fmt.Errorf("%s: no session_meta first: %v", path, err)
	}
	block := lines[start:]
	if !strings.Contains(strings.Join(block, "\n"), PromptMark) {
		return fmt.Errorf("%s: the last turn lacks %q", path, PromptMark)
	}
	var ids []string
	seen := map[string]bool{meta.Payload.ID: true}
	seqs := 0
	for _, l := range block {
		for _, u := range uuidRE.FindAllString(l, -1) {
			if !seen[u] {
				seen[u] = true
				ids = append(ids, u)
			}
		}
		if strings.Contains(l, `"history_sequence"`) {
			seqs++
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	ordinal := len(lines)
	for k := 1; k <= n; k++ {
		pairs := make([]string, 0, 2*len(ids)+4)
		for j, u := range ids {
			pairs = append(pairs, u, fmt.Sprintf("%s-%04x-7%03x-8%03x-%012x", u[:8], j, k>>12&0xfff, k&0xfff, k))
		}
		mark := "-" + strconv.Itoa(k)
		pairs = append(pairs, PromptMark, PromptMark+mark, AnswerMark, AnswerMark+mark)
		rep := strings.NewReplacer(pairs...)
		for _, l := range block {
			l = rep.Replace(l)
			l = ordinalRE.ReplaceAllLiteralString(l, `"ordinal":`+strconv.Itoa(ordinal))
			ordinal++
			b := seqRE.ReplaceAllFunc([]byte(l), func(m []byte) []byte {
				sub := seqRE.FindSubmatch(m)
				v, _ := strconv.Atoi(string(sub[2]))
				return []byte(fmt.Sprintf(`"%s":%d`, sub[1], v+seqs*k))
			})
			w.Write(bytes.TrimRight(b, "\n"))
			w.WriteByte('\n')
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Command genrollouts writes codex rollouts for the search benchmark
// (scripts/bench.sh, docs/PERFORMANCE.md "Search"): about -bytes of
// rollout-*.jsonl files under -dir/sessions/YYYY/MM/DD, shaped like codex
// 0.169.0's (a session_meta with long instructions, then per turn its
// start, context, prompt, a command and its output, an answer, each as
// the event and the model's copy), one file in 1000 with a 4 MB command
// output on one line. The word -needle is put in the command output of
// -hits files (in their fifth turn's output); nothing else holds it. The content is the same for the
// same flags.
//
// Usage: go run ./scripts/genrollouts -dir /tmp/home -bytes 1G -needle zebra42fish -hits 3
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

var words = strings.Fields(`func return error nil context string test build package import the a of to in
is for on with that this it as be by are from or an was not but have all can if will one which do go run
main config server client thread turn item delta approval sandbox command output answer prompt file line
read write open close path dir json value key list map slice index range count size byte buffer stream
check fail pass ok warn info debug trace log time second minute retry timeout cancel done start stop
user model agent tool call result status exit code diff patch commit branch merge rebase worktree repo
TestLogin TestParse TestRender --- FAIL: PASS: panic: goroutine ./... go test -run -v -count=1 make npm`)

type gen struct {
	r *rand.Rand
}

// text is about n bytes of words.
func (g gen) text(n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words[g.r.IntN(len(words))])
		if g.r.IntN(12) == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// line is one rollout line; payload is written with its keys in codex's
// order (type first) by marshalling an ordered list.
func line(ts, typ string, payload []any) []byte {
	b := []byte(`{"timestamp":"` + ts + `","type":"` + typ + `","payload":`)
	b = append(b, obj(payload)...)
	return append(b, "}\n"...)
}

func obj(kv []any) []byte {
	b := []byte{'{'}
	for i := 0; i < len(kv); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(kv[i])
		b = append(b, k...)
		b = append(b, ':')
		if o, ok := kv[i+1].([]any); ok && len(o) > 0 {
			if _, isKey := o[0].(string); isKey && len(o)%2 == 0 && o[0] != "/bin/bash" {
				b = append(b, obj(o)...)
				continue
			}
		}
		v, _ := json.Marshal(kv[i+1])
		b = append(b, v...)
	}
	return append(b, '}')
}

func main() {
	dir := flag.String("dir", "", "CODEX_HOME to write sessions/ into")
	size := flag.String("bytes", "1G", "about how many bytes of rollouts (K, M, G suffixes)")
	needle := flag.String("needle", "zebra42fish", "the word put in -hits files")
	hits := flag.Int("hits", 3, "how many files hold the needle")
	flag.Parse()
	total, err := parseSize(*size)
	if *dir == "" || err != nil {
		fmt.Fprintln(os.Stderr, "usage: genrollouts -dir CODEX_HOME [-bytes 1G] [-needle WORD] [-hits N]", err)
		os.Exit(2)
	}
	g := gen{r: rand.New(rand.NewPCG(1, 2))}
	const perFile = 2 << 20
	files := max(1, int(total/perFile))
	every := max(1, files/max(1, *hits))
	var written int64
	for f := 0; f < files; f++ {
		id := fmt.Sprintf("01a236d3-327a-7f63-b912-%012d", f)
		day := filepath.Join(*dir, "sessions", "2026", "11", fmt.Sprintf("%02d", 1+f%28))
		if err := os.MkdirAll(day, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		ts := fmt.Sprintf("2026-11-%02dT%02d-%02d-%02d", 1+f%28, f%24, f%60, (f/60)%60)
		p := filepath.Join(day, "rollout-"+ts+"-"+id+".jsonl")
		stamp := "2026-11-01T12:00:00.000Z"
		var buf []byte
		buf = append(buf, line(stamp, "session_meta", []any{"id", id, "timestamp", stamp, "cwd", fmt.Sprintf("/home/dev/src/project%d", f%7),
			"originator", "tandem", "cli_version", "0.169.0", "base_instructions", []any{"text", g.text(15000)}})...)
		turn := 0
		needleAt := -1
		if *hits > 0 && f%every == every/2 && f/every < *hits {
			needleAt = 1 // written in the output of the file's fifth turn
		}
		for len(buf) < perFile {
			turn++
			tid := fmt.Sprintf("turn-%d-%d", f, turn)
			buf = append(buf, line(stamp, "event_msg", []any{"type", "task_started", "turn_id", tid, "model_context_window", 190000})...)
			buf = append(buf, line(stamp, "turn_context", []any{"turn_id", tid, "cwd", "/home/dev", "approval_policy", "never", "developer_instructions", g.text(2000)})...)
			prompt := g.text(40 + g.r.IntN(300))
			buf = append(buf, line(stamp, "response_item", []any{"type", "message", "role", "user", "content", []map[string]string{{"type": "input_text", "text": prompt}}})...)
			buf = append(buf, line(stamp, "event_msg", []any{"type", "item_completed", "thread_id", id, "turn_id", tid, "item", []any{"type", "UserMessage", "id", "u" + strconv.Itoa(turn), "content", []map[string]string{{"type": "text", "text": prompt}}}})...)
			cmd := "go test ./... -run " + words[g.r.IntN(len(words))]
			n := 1000 + g.r.IntN(30000)
			if g.r.IntN(1000) == 0 {
				n = 4 << 20
			}
			out := g.text(n)
			if needleAt > 0 && turn == 5 {
				out += " " + *needle + " " + g.text(200)
				needleAt = 0
			}
			buf = append(buf, line(stamp, "response_item", []any{"type", "function_call", "name", "exec_command", "arguments", `{"cmd":"` + cmd + `"}`, "call_id", "c" + strconv.Itoa(turn)})...)
			buf = append(buf, line(stamp, "event_msg", []any{"type", "item_completed", "thread_id", id, "turn_id", tid, "item", []any{"type", "CommandExecution", "id", "c" + strconv.Itoa(turn), "command", []string{"/bin/bash", "-lc", cmd}, "cwd", "/home/dev", "status", "completed", "aggregated_output", out, "exit_code", 0}})...)
			buf = append(buf, line(stamp, "response_item", []any{"type", "function_call_output", "call_id", "c" + strconv.Itoa(turn), "output", out})...)
			answer := g.text(200 + g.r.IntN(2000))
			buf = append(buf, line(stamp, "event_msg", []any{"type", "item_completed", "thread_id", id, "turn_id", tid, "item", []any{"type", "AgentMessage", "id", "a" + strconv.Itoa(turn), "content", []map[string]string{{"type": "Text", "text": answer}}}})...)
			buf = append(buf, line(stamp, "response_item", []any{"type", "message", "role", "assistant", "content", []map[string]string{{"type": "output_text", "text": answer}}})...)
			buf = append(buf, line(stamp, "event_msg", []any{"type", "task_complete", "turn_id", tid})...)
		}
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		written += int64(len(buf))
	}
	fmt.Printf("%d files, %d bytes under %s\n", files, written, filepath.Join(*dir, "sessions"))
}

// parseSize reads 1G, 512M, 64K or plain bytes.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err
}

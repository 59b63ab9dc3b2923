package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// rl builds rollout lines as codex 0.169.0 writes them.
type rl struct{ lines []string }

// obj is a JSON object whose keys keep codex's order ("type" first).
type obj []any

func (o obj) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < len(o); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(o[i])
		v, err := json.Marshal(o[i+1])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func line(typ string, payload any) string {
	b, err := json.Marshal(obj{"timestamp", "2026-12-02T12:55:40.447Z", "ordinal", 1, "type", typ, "payload", payload})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func (r *rl) meta(id, cwd string) *rl {
	r.lines = append(r.lines, line("session_meta", obj{"id", id, "cwd", cwd,
		"base_instructions", obj{"text", "You are codex. Never say zebra42fish."}}))
	return r
}

func (r *rl) turn(id string) *rl {
	r.lines = append(r.lines, line("event_msg", obj{"type", "task_started", "turn_id", id}),
		line("turn_context", map[string]any{"turn_id": id, "cwd": "/w", "instructions": "zebra42fish in the context"}))
	return r
}

func (r *rl) item(item obj) *rl {
	r.lines = append(r.lines, line("event_msg", obj{"type", "item_completed", "thread_id", "t", "turn_id", "x", "item", item}))
	return r
}

func (r *rl) prompt(text string) *rl {
	r.lines = append(r.lines, line("response_item", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": text}}}))
	return r.item(obj{"type", "UserMessage", "id", "u", "content", []any{obj{"type", "text", "text", text}}})
}

func (r *rl) answer(text string) *rl {
	return r.item(obj{"type", "AgentMessage", "id", "a", "content", []any{obj{"type", "Text", "text", text}}})
}

func (r *rl) command(cmd, output string) *rl {
	return r.item(obj{"type", "CommandExecution", "id", "c", "command", []any{"/bin/bash", "-lc", cmd},
		"cwd", "/w", "status", "completed", "aggregated_output", output, "exit_code", 0})
}

func (r *rl) raw(s string) *rl { r.lines = append(r.lines, s); return r }

// write puts the rollout under root/sessions/2026/12/02 with a name
// holding id, last changed at mod.
func (r *rl) write(t testing.TB, root, id string, mod time.Time) string {
	t.Helper()
	dir := filepath.Join(root, "2026", "12", "02")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "rollout-2026-12-02T12-55-40-"+id+".jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(r.lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mod, mod); err != nil {
		t.Fatal(err)
	}
	return p
}

func uuid(n int) string { return fmt.Sprintf("01a236d3-327a-7f63-b912-%012d", n) }

func search(t testing.TB, root string, o SearchOptions) []RolloutHit {
	t.Helper()
	hits, err := SearchRollouts(context.Background(), root, o)
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func TestSearchRolloutsFinds(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	(&rl{}).meta(uuid(1), "/w").turn("t1").prompt("run the tests").command("go test ./...", "--- FAIL: TestLogin\nzebra42fish expected\n").
		answer("It failed.").write(t, root, uuid(1), now.Add(-time.Hour))
	(&rl{}).meta(uuid(2), "/w").turn("t1").prompt("hello").answer("hi").turn("t2").prompt("what about ZEBRA42FISH?").
		answer("no idea").write(t, root, uuid(2), now)
	(&rl{}).meta(uuid(3), "/other").turn("t1").prompt("zebra42fish elsewhere").write(t, root, uuid(3), now.Add(-time.Minute))
	(&rl{}).meta(uuid(4), "/w").turn("t1").prompt("nothing here").answer("zebra42 fish, not it").write(t, root, uuid(4), now)

	tests := []struct {
		name  string
		o     SearchOptions
		want  []string // thread ids, in order
		kinds []string
		turns []int
	}{
		{"this workspace", SearchOptions{Query: "zebra42fish", Cwd: "/w"}, []string{uuid(2), uuid(1)}, []string{"prompt", "output"}, []int{2, 1}},
		{"every workspace", SearchOptions{Query: "Zebra42Fish"}, []string{uuid(2), uuid(3), uuid(1)}, []string{"prompt", "prompt", "output"}, []int{2, 1, 1}},
		{"a command", SearchOptions{Query: "go test ./", Workers: 1}, []string{uuid(1)}, []string{"command"}, []int{1}},
		{"an answer", SearchOptions{Query: "it failed"}, []string{uuid(1)}, []string{"answer"}, []int{1}},
		{"none", SearchOptions{Query: "instructions"}, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits := search(t, root, tt.o)
			var ids, kinds []string
			var turns []int
			for _, h := range hits {
				ids, kinds, turns = append(ids, h.ThreadID), append(kinds, h.Kind), append(turns, h.Turn)
				if got := strings.ToLower(h.Snippet[h.Match[0]:h.Match[1]]); got != strings.ToLower(tt.o.Query) {
					t.Errorf("%s: the marked part of %q is %q", h.ThreadID, h.Snippet, got)
				}
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.want) || fmt.Sprint(kinds) != fmt.Sprint(tt.kinds) || fmt.Sprint(turns) != fmt.Sprint(tt.turns) {
				t.Fatalf("got %v %v %v, want %v %v %v", ids, kinds, turns, tt.want, tt.kinds, tt.turns)
			}
		})
	}
	h := search(t, root, SearchOptions{Query: "zebra42fish", Cwd: "/w"})[1]
	if h.Snippet != "--- FAIL: TestLogin zebra42fish expected" || h.Preview != "run the tests" || h.TurnID != "t1" || h.Cwd != "/w" {
		t.Fatalf("hit %+v", h)
	}
}

func TestSearchRolloutsEmptyQuery(t *testing.T) {
	if _, err := SearchRollouts(context.Background(), t.TempDir(), SearchOptions{Query: "  "}); err != ErrEmptyQuery {
		t.Fatalf("err %v", err)
	}
}

// A line not JSON, or cut, is skipped; the search goes on after it.
func TestSearchRolloutsBrokenLines(t *testing.T) {
	root := t.TempDir()
	(&rl{}).meta(uuid(1), "/w").turn("t1").raw(`{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"text":"needle in a cut line`).
		raw("not json at all needle").turn("t2").answer("the needle, whole").write(t, root, uuid(1), time.Now())
	hits := search(t, root, SearchOptions{Query: "needle"})
	if len(hits) != 1 || hits[0].Turn != 2 || hits[0].Snippet != "the needle, whole" {
		t.Fatalf("hits %+v", hits)
	}
}

// A query holding what JSON escapes is found as the text reads.
func TestSearchRolloutsEscapes(t *testing.T) {
	root := t.TempDir()
	(&rl{}).meta(uuid(1), "/w").turn("t1").command(`grep -r "a\b" .`, "x\ty").write(t, root, uuid(1), time.Now())
	for _, q := range []string{`"a\b"`, "x\ty"} {
		if hits := search(t, root, SearchOptions{Query: q}); len(hits) != 1 {
			t.Errorf("%q: hits %+v", q, hits)
		}
	}
}

// A line far longer than the buffer is searched in pieces: a match at
// its end, or across two pieces, is found without holding the line.
func TestSearchRolloutsHugeLine(t *testing.T) {
	root := t.TempDir()
	const size = 16 << 20
	for i, at := range []int{size - 100, searchBuf - 5, 3 * searchBuf} {
		out := []byte(strings.Repeat("x", size))
		copy(out[at:], "zebra42fish")
		(&rl{}).meta(uuid(i), "/w").turn("t1").prompt("big output").turn("t2").command("cat big", string(out)).
			write(t, root, uuid(i), time.Now().Add(time.Duration(-i)*time.Minute))
	}
	// A huge line without the word, then the word: the turn still counts.
	(&rl{}).meta(uuid(9), "/w").turn("t1").command("cat big", strings.Repeat("y", 5<<20)).turn("t2").
		answer("zebra42fish at last").write(t, root, uuid(9), time.Now().Add(-time.Hour))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	hits := search(t, root, SearchOptions{Query: "zebra42fish", Workers: 2})
	runtime.ReadMemStats(&after)
	if len(hits) != 4 {
		t.Fatalf("%d hits: %+v", len(hits), hits)
	}
	for _, h := range hits[:3] {
		if h.Kind != "output" || h.Turn != 2 || !strings.Contains(h.Snippet, "zebra42fish") || h.Snippet[h.Match[0]:h.Match[1]] != "zebra42fish" {
			t.Errorf("hit %+v", h)
		}
		if len(h.Snippet) > 4*snippetSide+40 {
			t.Errorf("snippet of %d bytes", len(h.Snippet))
		}
	}
	if h := hits[3]; h.Kind != "answer" || h.Turn != 2 {
		t.Errorf("after the huge line: %+v", h)
	}
	// Three files of 16 MiB and one of 5 MiB were read; what was allocated is the buffers
	// and the small lines, not the lines.
	t.Logf("allocated %d KiB", (after.TotalAlloc-before.TotalAlloc)>>10)
	if got := after.TotalAlloc - before.TotalAlloc; got > 12<<20 {
		t.Fatalf("allocated %d MiB searching 53 MiB", got>>20)
	}
}

// Many files on many workers: each matching thread once, newest first.
func TestSearchRolloutsManyFiles(t *testing.T) {
	root := t.TempDir()
	base := time.Now()
	var want []string
	for i := range 300 {
		r := (&rl{}).meta(uuid(i), "/w").turn("t1").prompt(fmt.Sprintf("prompt %d", i))
		if i%3 == 0 {
			r.answer(fmt.Sprintf("found marker-%d here", i))
			want = append([]string{uuid(i)}, want...)
		}
		r.write(t, root, uuid(i), base.Add(time.Duration(i)*time.Second))
	}
	hits := search(t, root, SearchOptions{Query: "marker-", Workers: 8})
	var got []string
	for _, h := range hits {
		got = append(got, h.ThreadID)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %d threads %v\nwant %d %v", len(got), got, len(want), want)
	}
}

func TestSearchRolloutsCancelled(t *testing.T) {
	root := t.TempDir()
	(&rl{}).meta(uuid(1), "/w").turn("t1").prompt("x").write(t, root, uuid(1), time.Now())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SearchRollouts(ctx, root, SearchOptions{Query: "x"}); err == nil {
		t.Fatal("no error after cancel")
	}
}

// lower8 lowers exactly the ASCII capitals, byte by byte as a loop does.
func TestAsciiLowerEveryByte(t *testing.T) {
	src := make([]byte, 0, 256+7)
	for c := range 256 {
		src = append(src, byte(c))
	}
	src = append(src, "ZAz@[`{"...) // a tail shorter than a word
	got := asciiLower(nil, src)
	for i, c := range src {
		want := c
		if 'A' <= c && c <= 'Z' {
			want = c + 32
		}
		if got[i] != want {
			t.Fatalf("byte %#x lowered to %#x, want %#x", c, got[i], want)
		}
	}
}

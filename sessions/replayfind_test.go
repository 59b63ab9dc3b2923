package sessions

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tandem/backend"
)

// TestPlayerFindAndSeek: Find gives the steps whose completed item holds
// the text (any case); Seek delivers up to a match at once, and a Seek
// back (at the end, with StayAtEnd) restarts with PlayerRestart and
// delivers from the first step up to the match again.
func TestPlayerFindAndSeek(t *testing.T) {
	rec, err := ReadRecording(bytes.NewReader(fakeTranscript(t)))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(rec, PlayerOptions{Speed: 16, IdleLimit: 10 * time.Millisecond, StayAtEnd: true})
	if got := p.Find("   "); got != nil {
		t.Errorf("Find(blank) = %v; want nothing", got)
	}
	if got := p.Find("no such text anywhere"); got != nil {
		t.Errorf("Find(unknown) = %v", got)
	}
	// Every completed item is found by a piece of its text, in any case.
	var items []int
	for i, s := range p.steps {
		if c, ok := s.msg.(backend.ItemCompletedEvent); ok && stepText(c) != "" {
			items = append(items, i)
		}
	}
	if len(items) < 2 {
		t.Fatalf("the transcript has %d completed items", len(items))
	}
	target := items[len(items)-1]
	word := strings.Fields(stepText(p.steps[target].msg))[0]
	found := p.Find(strings.ToUpper(word))
	if len(found) == 0 || found[len(found)-1] != target {
		t.Fatalf("Find(%q) = %v; want it to end with step %d", word, found, target)
	}

	ctx, cancel := context.WithTimeout(context.Background(), patience) // a deadline only for a hang
	defer cancel()
	var got []string
	done := make(chan struct{})
	statuses := make(chan PlayerStatus, 64)
	name := func(v any) string { return fmt.Sprintf("%T", v) }
	p.Seek(target) // before Run: the first thing it does
	go func() {
		defer close(done)
		p.Run(ctx, func(v any) {
			if s, ok := v.(PlayerStatus); ok {
				statuses <- s
				return
			}
			got = append(got, name(v))
		})
	}()
	wait := func(what string, ok func(PlayerStatus) bool) {
		t.Helper()
		for {
			select {
			case s := <-statuses:
				if ok(s) {
					return
				}
			case <-ctx.Done():
				t.Fatalf("never %s", what)
			}
		}
	}
	wait("at the end", func(s PlayerStatus) bool { return s.Done })
	first := len(got)
	// Paused at the end, a seek back plays up to the match and stays.
	p.Toggle()
	wait("paused", func(s PlayerStatus) bool { return s.Paused })
	p.Seek(items[0])
	wait("sought back", func(s PlayerStatus) bool { return !s.Done && s.Step == items[0]+1 })
	cancel()
	<-done
	var want []string
	for _, s := range p.steps {
		want = append(want, name(s.msg))
	}
	if strings.Join(got[:first], " ") != strings.Join(want, " ") {
		t.Errorf("the first play delivered %v; want every step %v", got[:first], want)
	}
	again := got[first:]
	wantAgain := append([]string{name(PlayerRestart{})}, want[:items[0]+1]...)
	if strings.Join(again, " ") != strings.Join(wantAgain, " ") {
		t.Errorf("after the seek back: %v; want %v", again, wantAgain)
	}
}

// TestChapterLabels: the chapters of the wire — a prompt sent, then its
// turn started, an approval, a question — are labelled, one line,
// redacted and cut to ChapterWidth.
func TestChapterLabels(t *testing.T) {
	long := strings.Repeat("word ", 30)
	lines := []struct {
		dir  backend.Direction
		line string
		want string // "" for no chapter
	}{
		{backend.Sent, `{"id":1,"method":"turn/start","params":{"threadId":"t","input":[{"type":"text","text":"fix\n the   test"}]}}`, ""},
		{backend.Received, `{"method":"turn/started","params":{"threadId":"t","turn":{"id":"u1","items":[],"status":"inProgress"}}}`, "turn 1: fix the test"},
		{backend.Received, `{"method":"item/agentMessage/delta","params":{"threadId":"t","turnId":"u1","itemId":"i","delta":"hi"}}`, ""},
		{backend.Received, `{"id":7,"method":"item/commandExecution/requestApproval","params":{"threadId":"t","turnId":"u1","itemId":"c","command":"rm -rf build"}}`, "approval: rm -rf build"},
		// codex's shell wrapper is taken off, as the screen shows the command
		{backend.Received, `{"id":10,"method":"item/commandExecution/requestApproval","params":{"threadId":"t","turnId":"u1","itemId":"d","command":"/bin/bash -lc 'sh greet.sh tandem | tee greeting.txt'"}}`, "approval: sh greet.sh tandem | tee greeting.txt"},
		{backend.Received, `{"method":"turn/started","params":{"threadId":"t","turn":{"id":"u2","items":[],"status":"inProgress"}}}`, "turn 2"},
		{backend.Received, `{"id":8,"method":"item/tool/requestUserInput","params":{"threadId":"t","turnId":"u2","itemId":"q","questions":[{"id":"a","header":"h","question":"which database?"}]}}`, "question: which database?"},
		{backend.Sent, `{"id":2,"method":"turn/start","params":{"threadId":"t","input":[{"type":"text","text":"export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz0123 ` + long + `"}]}}`, ""},
		{backend.Received, `{"method":"turn/started","params":{"threadId":"t","turn":{"id":"u3","items":[],"status":"inProgress"}}}`, "?"},
		// hostile text: an escape sequence, a bell, a C1 CSI and a bidi override cannot reach the player's terminal
		{backend.Sent, `{"id":3,"method":"turn/start","params":{"threadId":"t","input":[{"type":"text","text":"a\u001b]0;pwn\u0007b\u001b[2Jc\u009b1md\u202ee"}]}}`, ""},
		{backend.Received, `{"method":"turn/started","params":{"threadId":"t","turn":{"id":"u4","items":[],"status":"inProgress"}}}`, "turn 4: a␛]0;pwn␇b␛[2Jc<U+009B>1md<U+202E>e"},
		{backend.Received, `{"id":9,"method":"item/commandExecution/requestApproval","params":{"threadId":"t","turnId":"u4","itemId":"c","command":"ls\u001b[8m\u0000x"}}`, "approval: ls␛[8m␀x"},
	}
	var ch Chapters
	for i, l := range lines {
		got, ok := ch.Wire(l.dir, []byte(l.line))
		switch {
		case l.want == "?": // the long one with a key
			if !ok || !strings.HasPrefix(got, "turn 3: export") || strings.Contains(got, "abcdefghijklmnop") ||
				len([]rune(got)) > ChapterWidth || !strings.HasSuffix(got, "…") {
				t.Errorf("line %d: %q; want turn 3, redacted, cut to %d with …", i, got, ChapterWidth)
			}
		case got != l.want || ok != (l.want != ""):
			t.Errorf("line %d: %q %v; want %q", i, got, ok, l.want)
		}
	}
}

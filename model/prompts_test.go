package model

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/sessions"
)

// promptsState is a state file with /w's prompts and another
// workspace's, each with the time it was sent (Unix seconds): /other's
// "deploy to staging" was sent after /w's newest.
func promptsState(t *testing.T) *sessions.Store {
	t.Helper()
	s := sessions.Open(t.TempDir())
	file := `{
  "/w": {"history": ["fix the flaky test", "add a test\nfor the parser\n  with tabs"], "sent": [100, 300]},
  "/other": {"history": ["deploy to staging", "fix the flaky test"], "sent": [400, 50]}
}`
	if err := os.WriteFile(s.Path(), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

// rowsOf returns the picker's rows holding any of texts, in screen
// order, each as the first of texts it holds (the preview under the
// list's ╌ rule left out).
func rowsOf(screen string, texts ...string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "╌") {
			break
		}
		for _, x := range texts {
			if strings.Contains(l, x) {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// Ctrl+R lists this workspace's prompts first, newest first, then the
// other workspaces' (named), a prompt sent in both once; typing filters
// fuzzily and keeps that order; Enter puts the prompt in the draft.
func TestCtrlRSearchesEveryWorkspace(t *testing.T) {
	m := ready(t, newFake(), Options{State: promptsState(t), Workspace: "/w"})
	press(t, m, 'r', tea.ModCtrl)
	s := viewText(m)
	rows := rowsOf(s, "add a test", "fix the flaky", "deploy to staging")
	if strings.Join(rows, "|") != "add a test|fix the flaky|deploy to staging" {
		t.Fatalf("rows %q, want this workspace's newest first, then the other's:\n%s", rows, s)
	}
	if !strings.Contains(s, "add a test ⏎ for the parser ⏎ with tabs") || !strings.Contains(s, "/other") {
		t.Fatalf("a multi-line prompt on one row and the other workspace named:\n%s", s)
	}
	// "ly" matches "fix the flaky test" and "deploy to staging": /w's first.
	typeText(t, m, "ly")
	s = viewText(m)
	if rows := rowsOf(s, "fix the flaky", "deploy to staging", "add a test"); strings.Join(rows, "|") != "fix the flaky|deploy to staging" {
		t.Fatalf("after ly: rows %q:\n%s", rows, s)
	}
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0)
	if got := m.State().Composer; got != "deploy to staging" {
		t.Fatalf("Enter put %q in the draft, want the other workspace's prompt", got)
	}
}

// Esc closes Ctrl+R's picker and leaves the draft as it was, though the
// picker opened searching it and was typed into.
func TestCtrlREscKeepsTheDraft(t *testing.T) {
	m := ready(t, newFake(), Options{State: promptsState(t), Workspace: "/w"})
	typeText(t, m, "fix")
	press(t, m, 'r', tea.ModCtrl)
	typeText(t, m, " flaky")
	if s := viewText(m); !strings.Contains(s, "search: fix flaky") {
		t.Fatalf("the picker does not search the draft and what was typed:\n%s", s)
	}
	press(t, m, tea.KeyEscape, 0)
	if got := m.State().Composer; got != "fix" {
		t.Fatalf("Esc left %q in the draft, want fix", got)
	}
	if s := viewText(m); strings.Contains(s, "Your prompts") {
		t.Fatalf("the picker is still open:\n%s", s)
	}
	// Typing goes on in the draft.
	typeText(t, m, " it")
	if got := m.State().Composer; got != "fix it" {
		t.Fatalf("draft %q after typing on", got)
	}
}

// The highlighted multi-line prompt is shown as written under the list.
func TestCtrlRPreviewsAMultiLinePrompt(t *testing.T) {
	m := ready(t, newFake(), Options{State: promptsState(t), Workspace: "/w"})
	press(t, m, 'r', tea.ModCtrl)
	s := viewText(m)
	for _, want := range []string{"\nadd a test", "\nfor the parser", "\n  with tabs"} {
		if !strings.Contains(s, want) {
			t.Errorf("preview line %q missing:\n%s", want, s)
		}
	}
}

// Alt+↑ and Alt+↓ scroll the transcript to your previous and next
// prompt, in the session and in the pager ([ and ] there too).
func TestPromptKeysJump(t *testing.T) {
	f := newFake()
	m := New(Options{Clock: newPacedClock(time.Unix(1_000_000, 0))})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	var hist []backend.Turn
	for i := range 8 {
		hist = append(hist, backend.Turn{ID: fmt.Sprint(i), Status: backend.TurnCompleted, Items: []backend.Item{
			{Type: "userMessage", ID: fmt.Sprint("u", i), Content: []backend.UserContent{{Type: "text", Text: fmt.Sprint("question ", i)}}},
			{Type: "agentMessage", ID: fmt.Sprint("a", i), Text: strings.Repeat(fmt.Sprint("answer ", i, "\n\n"), 5)},
		}})
	}
	_, cmd := m.Update(SessionReadyMsg{Client: f, Model: "mock-model", History: hist})
	settle(t, m, cmd)
	topLine := func() string {
		for _, l := range strings.Split(viewText(m), "\n") {
			if strings.TrimSpace(l) != "" {
				return strings.TrimSpace(l)
			}
		}
		return ""
	}
	press(t, m, tea.KeyUp, tea.ModAlt)
	first := topLine()
	if !strings.HasPrefix(first, "▌ question ") || first == "▌ question 7" {
		t.Fatalf("Alt+↑ from the bottom: top line %q, want a prompt above the screen", first)
	}
	press(t, m, tea.KeyUp, tea.ModAlt)
	second := topLine()
	press(t, m, tea.KeyDown, tea.ModAlt)
	if !strings.HasPrefix(second, "▌ question ") || second >= first || topLine() != first {
		t.Fatalf("Alt+↑ again: %q; Alt+↓: %q, want %q", second, topLine(), first)
	}
	// The pager opens at the bottom; [ goes to a prompt there too.
	press(t, m, 't', tea.ModCtrl)
	typeText(t, m, "[")
	if l := topLine(); !strings.HasPrefix(l, "▌ question ") {
		t.Fatalf("[ in the pager: top line %q", l)
	}
}

// Codex's own history (history.jsonl) is listed with the other
// workspaces' prompts, by time, named "codex".
func TestCtrlRListsCodexHistory(t *testing.T) {
	codex := t.TempDir() + "/history.jsonl"
	lines := `{"session_id":"s","ts":350,"text":"typed in codex itself"}` + "\n" + `{"session_id":"s","ts":20,"text":"an old codex prompt"}` + "\n"
	if err := os.WriteFile(codex, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	m := ready(t, newFake(), Options{State: promptsState(t), Workspace: "/w", CodexHistory: codex})
	press(t, m, 'r', tea.ModCtrl)
	s := viewText(m)
	rows := rowsOf(s, "add a test", "fix the flaky", "deploy to staging", "typed in codex", "an old codex")
	if got := strings.Join(rows, "|"); got != "add a test|fix the flaky|deploy to staging|typed in codex|an old codex" {
		t.Fatalf("rows %s:\n%s", got, s)
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "typed in codex") && !strings.HasSuffix(strings.TrimSpace(l), "codex") {
			t.Fatalf("codex's prompt is not named codex's: %q", l)
		}
	}
}

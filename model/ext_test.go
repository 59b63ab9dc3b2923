package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"tandem/backend"
	"tandem/internal/testkit/teadrive"
	"tandem/model/act"
	"tandem/model/composer"
	"tandem/model/overlay"
	"tandem/model/turn"
	"tandem/sessions"
)

// fakeDriver is a backend.Client that records what the model asks (the
// JSON-RPC method each call stands for, and its params) and answers from
// its fields.
type fakeDriver struct {
	mu        sync.Mutex
	thread    string
	calls     []string // method names, in order
	params    map[string]any
	results   map[string]any   // method → result (marshalled into the typed answer)
	errs      map[string]error // method → error
	turns     []string
	opts      []backend.TurnOptions
	steers    []string
	steerErr  error
	resumeErr error
	threads   map[string]backend.Thread // for resume/fork/read
	list      []backend.Thread
	newCount  int
	files     map[string]string // the fs/* methods' files
	listGate  chan struct{}     // holds thread/turns/list answers while set
	// resumeGate holds thread/resume answers while set.
	resumeGate chan struct{}
	// listCursors are the params of each call, by its index in calls.
	listCursors map[int]any
	// since is what Unanswered says (zero: it answers at once).
	since time.Time
	// noTurnID: TurnID is "" (the turn is starting: turn/start's answer
	// not in yet).
	noTurnID bool
	// asideGate holds Aside's answer while set (until closed, or its ctx
	// ends: then the answer is the ctx's error).
	asideGate chan struct{}
}

var _ backend.Client = (*fakeDriver)(nil)

func newFake() *fakeDriver {
	return &fakeDriver{thread: "t-first", params: map[string]any{}, results: map[string]any{}, errs: map[string]error{}, threads: map[string]backend.Thread{}}
}

func (f *fakeDriver) record(method string, params any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.listCursors == nil {
		f.listCursors = map[int]any{}
	}
	f.listCursors[len(f.calls)] = params
	f.calls = append(f.calls, method)
	f.params[method] = params
}

// turnCount is how many turns were started.
func (f *fakeDriver) turnCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.turns)
}

func (f *fakeDriver) called() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// answer records a call and decodes its configured result into result.
func (f *fakeDriver) answer(method string, params, result any) error {
	f.record(method, params)
	f.mu.Lock()
	err, res := f.errs[method], f.results[method]
	f.mu.Unlock()
	if err != nil {
		return err
	}
	if res != nil && result != nil {
		b, _ := json.Marshal(res)
		return json.Unmarshal(b, result)
	}
	return nil
}

func (f *fakeDriver) StartTurn(_ context.Context, in backend.TurnInput) (backend.Turn, error) {
	f.record("turn/start", in.Text)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.turns = append(f.turns, in.Text)
	f.opts = append(f.opts, in.TurnOptions)
	return backend.Turn{ID: "turn-1"}, f.errs["turn/start"]
}

func (f *fakeDriver) Interrupt(context.Context) error { return nil }

func (f *fakeDriver) ThreadID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.thread
}

func (f *fakeDriver) Steer(_ context.Context, in backend.TurnInput) error {
	f.record("turn/steer", in.Text)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.steers = append(f.steers, in.Text)
	return f.steerErr
}

func (f *fakeDriver) StartThread(context.Context) (backend.ThreadResponse, error) {
	f.record("thread/start", nil)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.newCount++
	f.thread = "t-new"
	return backend.ThreadResponse{Thread: backend.Thread{ID: "t-new"}, Model: "mock-model"}, nil
}

// ResumeThread answers as the server does: the newest
// backend.ResumeTurns turns of the thread, and the cursor of the rest.
func (f *fakeDriver) ResumeThread(_ context.Context, id string) (backend.ThreadResponse, error) {
	f.record("thread/resume", id)
	f.mu.Lock()
	gate := f.resumeGate
	f.mu.Unlock()
	if gate != nil {
		<-gate
	}
	if f.resumeErr != nil {
		return backend.ThreadResponse{}, f.resumeErr
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.thread = id
	t := f.threads[id]
	var older string
	t.Turns, older = turnsBefore(t.Turns, len(t.Turns), backend.ResumeTurns)
	return backend.ThreadResponse{Thread: t, Model: "mock-model", Older: older}, nil
}

// ListQueue answers f.results["thread/queue/list"] (a
// []backend.QueuedSubmission), or errs' error.
func (f *fakeDriver) ListQueue(context.Context) ([]backend.QueuedSubmission, error) {
	var q []backend.QueuedSubmission
	err := f.answer("thread/queue/list", nil, &q)
	return q, err
}

// ListTurns pages through the fake thread's turns: a cursor is the index
// of the first turn already read. A gate in f.listGate holds the answer
// until it is closed or sent to.
func (f *fakeDriver) ListTurns(_ context.Context, id, cursor string, limit int) ([]backend.Turn, string, error) {
	f.record("thread/turns/list", cursor)
	f.mu.Lock()
	gate, err := f.listGate, f.errs["thread/turns/list"]
	all := f.threads[id].Turns
	f.mu.Unlock()
	if gate != nil {
		<-gate
	}
	if err != nil {
		return nil, "", err
	}
	end := len(all)
	if cursor != "" {
		end, _ = strconv.Atoi(cursor)
	}
	turns, older := turnsBefore(all, end, limit)
	return turns, older, nil
}

// SearchOccurrences finds term (ignoring case) in the fake thread's user
// messages and answers, oldest first, in pages of limit (a cursor is
// the index of the next occurrence), as thread/searchOccurrences does;
// errs["thread/searchOccurrences"] fails it.
func (f *fakeDriver) SearchOccurrences(_ context.Context, id, term, cursor string, limit int) ([]backend.Occurrence, string, error) {
	f.record("thread/searchOccurrences", cursor)
	f.mu.Lock()
	err := f.errs["thread/searchOccurrences"]
	all := f.threads[id].Turns
	f.mu.Unlock()
	if err != nil {
		return nil, "", err
	}
	var found []backend.Occurrence
	for _, t := range all {
		for _, it := range t.Items {
			text := it.Text
			if it.Type == "userMessage" {
				text = it.UserText()
			} else if it.Type != "agentMessage" {
				continue
			}
			if strings.Contains(strings.ToLower(text), strings.ToLower(term)) {
				found = append(found, backend.Occurrence{TurnID: t.ID, ItemID: it.ID, Snippet: text})
			}
		}
	}
	from := 0
	if cursor != "" {
		from, _ = strconv.Atoi(cursor)
	}
	end := len(found)
	if limit > 0 {
		end = min(end, from+limit)
	}
	next := ""
	if end < len(found) {
		next = strconv.Itoa(end)
	}
	return found[from:end], next, nil
}

// turnsBefore returns up to limit turns before all[end] and the cursor
// of the ones before them ("" when none are).
func turnsBefore(all []backend.Turn, end, limit int) ([]backend.Turn, string) {
	start := max(0, end-limit)
	if limit <= 0 {
		start = 0
	}
	older := ""
	if start > 0 {
		older = strconv.Itoa(start)
	}
	return append([]backend.Turn(nil), all[start:end]...), older
}

func (f *fakeDriver) ForkThread(_ context.Context, id, before string) (backend.ThreadResponse, error) {
	f.record("thread/fork", [2]string{id, before})
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.threads[id]
	t.ID = "t-fork"
	if before != "" {
		var kept []backend.Turn
		for _, tu := range t.Turns {
			if tu.ID == before {
				break
			}
			kept = append(kept, tu)
		}
		t.Turns = kept
	}
	f.thread = t.ID
	return backend.ThreadResponse{Thread: t, Model: "mock-model"}, nil
}

func (f *fakeDriver) ReadThreadTurns(_ context.Context, id string) (backend.Thread, error) {
	f.record("thread/read+turns", id)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.threads[id], nil
}

func (f *fakeDriver) ListHooks(context.Context) ([]backend.HookInfo, error) {
	var hs []backend.HookInfo
	err := f.answer("hooks/list", nil, &hs)
	return hs, err
}

func (f *fakeDriver) McpLogin(_ context.Context, name string) (string, error) {
	var r struct {
		URL string `json:"authorizationUrl"`
	}
	err := f.answer("mcpServer/oauth/login", name, &r)
	return r.URL, err
}

func (f *fakeDriver) ReadFile(_ context.Context, p string) ([]byte, error) {
	f.record("fs/readFile", p)
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.files[p]
	if !ok {
		return nil, &fs.PathError{Op: "fs/readFile", Path: p, Err: fs.ErrNotExist}
	}
	return []byte(s), nil
}

func (f *fakeDriver) WriteFile(_ context.Context, p string, data []byte) error {
	f.record("fs/writeFile", p)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.files == nil {
		f.files = map[string]string{}
	}
	f.files[p] = string(data)
	return nil
}

func (f *fakeDriver) RemoveFile(_ context.Context, p string) error {
	f.record("fs/remove", p)
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.files[p]; !ok {
		return &fs.PathError{Op: "fs/remove", Path: p, Err: fs.ErrNotExist}
	}
	delete(f.files, p)
	return nil
}

func (f *fakeDriver) ListThreads(_ context.Context, p backend.ThreadListParams) (backend.ThreadListResponse, error) {
	if p.AncestorThreadID != "" { // the sub-agents of a resumed thread (agents.go)
		f.record("thread/list(sub-agents)", p)
		return backend.ThreadListResponse{}, nil
	}
	f.record("thread/list", p)
	return backend.ThreadListResponse{Data: f.list}, nil
}

func (f *fakeDriver) ReadThread(_ context.Context, id string) (backend.Thread, error) {
	f.record("thread/read", id)
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.threads[id]
	if !ok {
		return t, &backend.RPCError{Code: -32600, Message: "no rollout found for thread id " + id}
	}
	return t, nil
}

func (f *fakeDriver) TurnID() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.turns) == 0 || f.noTurnID {
		return ""
	}
	return "turn-1"
}

func (f *fakeDriver) UserAgent() string { return "codex_cli_rs/0.169.0" }

func (f *fakeDriver) Unanswered() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.since
}

func (f *fakeDriver) Review(_ context.Context, target backend.ReviewTarget) error {
	return f.answer("review/start", backend.ReviewStartParams{ThreadID: f.ThreadID(), Target: target}, nil)
}

func (f *fakeDriver) ShellCommand(_ context.Context, command string) error {
	return f.answer("thread/shellCommand", backend.ThreadShellCommandParams{ThreadID: f.ThreadID(), Command: command}, nil)
}

// Aside records the prompt ("aside") and answers results["aside"] (a
// string) or errs["aside"], once asideGate lets it.
func (f *fakeDriver) Aside(ctx context.Context, prompt string) (string, error) {
	f.record("aside", prompt)
	f.mu.Lock()
	gate, err := f.asideGate, f.errs["aside"]
	answer, _ := f.results["aside"].(string)
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return answer, err
}

func (f *fakeDriver) RenameThread(_ context.Context, name string) error {
	return f.answer("thread/name/set", backend.ThreadSetNameParams{ThreadID: f.ThreadID(), Name: name}, nil)
}

func (f *fakeDriver) ArchiveThread(context.Context) error {
	return f.answer("thread/archive", backend.ThreadIDParams{ThreadID: f.ThreadID()}, nil)
}

func (f *fakeDriver) Compact(context.Context) error {
	return f.answer("thread/compact/start", backend.ThreadIDParams{ThreadID: f.ThreadID()}, nil)
}

func (f *fakeDriver) ListModels(context.Context) ([]backend.ModelInfo, error) {
	var r backend.ModelListResponse
	err := f.answer("model/list", backend.ModelListParams{}, &r)
	return r.Data, err
}

func (f *fakeDriver) McpServers(context.Context) ([]backend.McpServerStatus, error) {
	var r backend.McpServerStatusListResponse
	err := f.answer("mcpServerStatus/list", backend.McpServerStatusListParams{ThreadID: f.ThreadID(), Detail: "toolsAndAuthOnly"}, &r)
	return r.Data, err
}

func (f *fakeDriver) FuzzyFileSearch(_ context.Context, query string, roots []string) ([]backend.FuzzyFileMatch, error) {
	var r backend.FuzzyFileSearchResponse
	err := f.answer("fuzzyFileSearch", backend.FuzzyFileSearchParams{Query: query, Roots: roots}, &r)
	return r.Files, err
}

func (f *fakeDriver) ReadAccount(context.Context) (backend.AccountReadResponse, error) {
	var r backend.AccountReadResponse
	err := f.answer("account/read", backend.AccountReadParams{}, &r)
	return r, err
}

func (f *fakeDriver) ReadRateLimits(context.Context) (backend.RateLimitSnapshot, error) {
	var r struct {
		RateLimits backend.RateLimitSnapshot `json:"rateLimits"`
	}
	err := f.answer("account/rateLimits/read", nil, &r)
	return r.RateLimits, err
}

func (f *fakeDriver) Login(_ context.Context, p backend.LoginStartParams) (backend.LoginStartResponse, error) {
	var r backend.LoginStartResponse
	err := f.answer("account/login/start", p, &r)
	return r, err
}

func (f *fakeDriver) CancelLogin(_ context.Context, id string) error {
	return f.answer("account/login/cancel", backend.LoginCancelParams{LoginID: id}, nil)
}

// settle runs cmd and feeds the messages it yields back into m, until
// nothing of interest is left. Commands run concurrently. Every command
// that is not a timer is waited for, however slow the machine (a hang
// fails after patience); timers (frame ticks, spinner, cursor blink:
// teadrive.IsTimer) are abandoned once only they are left and nothing
// arrived for a short while, so settle never waits on them.
func settle(t *testing.T, m *Model, cmds ...tea.Cmd) {
	t.Helper()
	type result struct {
		msg   tea.Msg
		timer bool
	}
	ch := make(chan result, 64)
	work, timers := 0, 0
	run := func(c tea.Cmd) {
		if c == nil {
			return
		}
		timer := teadrive.IsTimer(c)
		if timer {
			timers++
		} else {
			work++
		}
		go func() { ch <- result{c(), timer} }()
	}
	for _, c := range cmds {
		run(c)
	}
	for steps := 0; work+timers > 0; steps++ {
		if steps > 500 {
			t.Fatal("settle: too many steps")
		}
		wait := 150 * time.Millisecond
		if work > 0 {
			wait = patience
		}
		var r result
		select {
		case r = <-ch:
			if r.timer {
				timers--
			} else {
				work--
			}
		case <-time.After(wait):
			if work > 0 {
				t.Fatalf("settle: %d commands hung for %v", work, wait)
			}
			return // only timers are left
		}
		switch msg := r.msg.(type) {
		case tea.BatchMsg:
			for _, c := range msg {
				run(c)
			}
		case overlay.Msg,
			composer.Msg, act.Done, turn.Msg:
			_, next := m.Update(msg)
			run(next)
		}
	}
}

// ready is a model with its session ready, at 100×30; with no Clock in
// opts it runs on a pacedClock, so typeText and press type at a person's
// pace whatever the machine's load.
func ready(t *testing.T, f *fakeDriver, opts Options) *Model {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = newPacedClock(time.Unix(1_000_000, 0))
	}
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Model: "mock-model", Cwd: "~/w"})
	settle(t, m, cmd)
	return m
}

func typeText(t *testing.T, m *Model, s string) {
	t.Helper()
	var cmds []tea.Cmd
	for _, r := range s {
		pace(m)
		_, cmd := m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		cmds = append(cmds, cmd)
	}
	settle(t, m, cmds...)
}

// typeSlow types s one key at a time, settling after each, so requests
// happen in order.
func typeSlow(t *testing.T, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		typeText(t, m, string(r))
	}
}

// press presses a key at a person's pace; a key the composer holds acts
// at once (release), as one pressed alone.
func press(t *testing.T, m *Model, code rune, mod tea.KeyMod) {
	t.Helper()
	pace(m)
	_, cmd := m.Update(tea.KeyPressMsg{Code: code, Mod: mod})
	settle(t, m, cmd, release(m))
}

func viewText(m *Model) string { return ansi.Strip(m.View().Content) }

func TestSlashPopupFilters(t *testing.T) {
	m := ready(t, newFake(), Options{})
	typeText(t, m, "/")
	if got, _, _ := m.composer.Popup(); len(got) != len(m.commands.Entries()) {
		t.Fatalf("'/' lists %d commands, want all %d", len(got), len(m.commands.Entries()))
	}
	typeText(t, m, "mo")
	names, _, _ := m.composer.Popup()
	if len(names) == 0 || names[0] != "/model" {
		t.Fatalf("'/mo' popup = %v, want /model first", names)
	}
	for _, n := range names {
		if n == "/help" || n == "/quit" {
			t.Fatalf("'/mo' popup should not list %s: %v", n, names)
		}
	}
	v := viewText(m)
	if !strings.Contains(v, "/model") || !strings.Contains(v, "choose the model") {
		t.Fatalf("popup with description not drawn:\n%s", v)
	}
	// fuzzy, not prefix: "cmpt" finds /compact
	press(t, m, tea.KeyBackspace, 0)
	press(t, m, tea.KeyBackspace, 0)
	typeText(t, m, "cmpt")
	if got, _, _ := m.composer.Popup(); len(got) == 0 || got[0] != "/compact" {
		t.Fatalf("fuzzy '/cmpt' popup = %v", got)
	}
	// Esc closes it; typing a space (arguments) ends it too.
	press(t, m, tea.KeyEscape, 0)
	if _, _, open := m.composer.Popup(); open {
		t.Fatal("esc did not close the popup")
	}
}

func TestSlashCommandRunsAndRefusesDuringTurn(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 80}) // all of /help on screen
	typeText(t, m, "/help")
	press(t, m, tea.KeyEnter, 0)
	if !strings.Contains(viewText(m), "mention a file") {
		t.Fatalf("/help did not list the keys:\n%s", viewText(m))
	}
	// Commands and keys share one description column.
	col := func(sub string) int {
		for _, l := range strings.Split(viewText(m), "\n") {
			if i := strings.Index(l, sub); i >= 0 {
				return utf8.RuneCountInString(l[:i])
			}
		}
		return -1
	}
	if a, b := col("mention a file"), col("show model, cwd"); a != b || a < 0 {
		t.Errorf("/help columns differ: keys at %d, commands at %d:\n%s", a, b, viewText(m))
	}
	typeText(t, m, "hello")
	press(t, m, tea.KeyEnter, 0)
	if !m.State().Running {
		t.Fatal("prompt did not start a turn")
	}
	typeText(t, m, "/compact")
	press(t, m, tea.KeyEnter, 0)
	if !strings.Contains(noticeText(m), "can't run while a turn is running") {
		t.Fatalf("notice = %q", noticeText(m))
	}
	for _, c := range f.called() {
		if c == "thread/compact/start" {
			t.Fatal("/compact ran during a turn")
		}
	}
}

func TestModelPickerSetsTurnOverrides(t *testing.T) {
	f := newFake()
	f.results["model/list"] = backend.ModelListResponse{Data: []backend.ModelInfo{
		{Model: "mock-model", DisplayName: "mock-model", Description: "the mock", DefaultReasoningEffort: "medium",
			SupportedReasoningEfforts: []backend.ReasoningEffortOption{{ReasoningEffort: "low"}, {ReasoningEffort: "medium"}, {ReasoningEffort: "high"}}},
		{Model: "other", DisplayName: "Other", Description: "another"},
	}}
	m := ready(t, f, Options{})
	typeText(t, m, "/model")
	press(t, m, tea.KeyEnter, 0)
	if v := viewText(m); !m.overlay.Open() || !strings.Contains(v, "› mock-model ✓") || !strings.Contains(v, "  Other (other)") {
		t.Fatalf("model picker not open with 2 models:\n%s", v)
	}
	if !strings.Contains(viewText(m), "the mock") {
		t.Fatalf("model picker not drawn:\n%s", viewText(m))
	}
	press(t, m, tea.KeyEnter, 0) // mock-model (current) → effort picker
	if v := viewText(m); !m.overlay.Open() || !strings.Contains(v, "Reasoning effort for mock-model") {
		t.Fatalf("effort picker not open:\n%s", v)
	}
	press(t, m, tea.KeyDown, 0) // medium (default) → high
	press(t, m, tea.KeyEnter, 0)
	if got := m.State().TurnOptions; got.Model != "mock-model" || got.Effort != "high" {
		t.Fatalf("overrides = %+v", got)
	}
	typeText(t, m, "go")
	press(t, m, tea.KeyEnter, 0)
	if len(f.opts) != 1 || f.opts[0].Effort != "high" || f.opts[0].Model != "mock-model" {
		t.Fatalf("turn/start options = %+v", f.opts)
	}
}

func TestHistoryWalkAndPersist(t *testing.T) {
	dir := t.TempDir()
	store := sessions.Open(dir)
	f := newFake()
	m := ready(t, f, Options{State: store, Workspace: "/w"})
	for _, p := range []string{"first", "second"} {
		typeText(t, m, p)
		press(t, m, tea.KeyEnter, 0)
		m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	}
	typeText(t, m, "draft")
	press(t, m, tea.KeyUp, 0) // a draft is there: Up is the cursor's, not history
	if m.State().Composer != "draft" {
		t.Fatalf("Up over a draft changed it to %q", m.State().Composer)
	}
	m.composer.SetDraft("")
	press(t, m, tea.KeyUp, 0)
	if m.State().Composer != "second" {
		t.Fatalf("Up → %q, want second", m.State().Composer)
	}
	press(t, m, tea.KeyUp, 0)
	press(t, m, tea.KeyUp, 0) // stays at the oldest
	if m.State().Composer != "first" {
		t.Fatalf("Up Up → %q, want first", m.State().Composer)
	}
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyDown, 0)
	if m.State().Composer != "" {
		t.Fatalf("Down past the newest → %q, want the empty draft", m.State().Composer)
	}
	// A new model on the same state file has the history.
	m2 := ready(t, newFake(), Options{State: sessions.Open(dir), Workspace: "/w"})
	press(t, m2, tea.KeyUp, 0)
	if m2.State().Composer != "second" {
		t.Fatalf("persisted history: Up → %q", m2.State().Composer)
	}
	// Ctrl+R searches it.
	m2.composer.SetDraft("")
	press(t, m2, 'r', tea.ModCtrl)
	typeText(t, m2, "frst")
	press(t, m2, tea.KeyEnter, 0)
	if m2.State().Composer != "first" {
		t.Fatalf("ctrl+r 'frst' → %q", m2.State().Composer)
	}
	// Another workspace has its own.
	m3 := ready(t, newFake(), Options{State: sessions.Open(dir), Workspace: "/other"})
	press(t, m3, tea.KeyUp, 0)
	if m3.State().Composer != "" {
		t.Fatalf("history leaked across workspaces: %q", m3.State().Composer)
	}
}

func TestSteerQueueAndFailedSteerKeepsText(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	typeText(t, m, "start")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	typeText(t, m, "also this")
	press(t, m, tea.KeyEnter, 0)
	if !reflect.DeepEqual(f.steers, []string{"also this"}) {
		t.Fatalf("steers = %q", f.steers)
	}
	if f.called()[len(f.called())-1] != "turn/steer" || len(f.turns) != 1 {
		t.Fatalf("steer started a turn: %v", f.called())
	}
	// A steer that loses the race with the turn's end becomes the next turn.
	f.steerErr = &backend.RPCError{Code: -32600, Message: "expected turn mismatch"}
	typeText(t, m, "too late to steer")
	press(t, m, tea.KeyEnter, 0)
	if !reflect.DeepEqual(m.State().Queued, []string{"too late to steer"}) || m.State().Composer != "" {
		t.Fatalf("late steer: queue %q, draft %q", m.State().Queued, m.State().Composer)
	}
	// Any other failure gives the text back.
	f.steerErr = errors.New("connection reset")
	typeText(t, m, "lost?")
	press(t, m, tea.KeyEnter, 0)
	if m.State().Composer != "lost?" {
		t.Fatalf("failed steer did not give the text back: %q", m.State().Composer)
	}
	m.composer.SetDraft("")
	typeText(t, m, "later")
	press(t, m, tea.KeyTab, 0)
	if !reflect.DeepEqual(m.State().Queued, []string{"too late to steer", "later"}) || m.State().Composer != "" {
		t.Fatalf("queue = %q, draft %q", m.State().Queued, m.State().Composer)
	}
	if !strings.Contains(viewText(m), "later") {
		t.Fatalf("queued message not shown:\n%s", viewText(m))
	}
	_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	settle(t, m, cmd)
	if !reflect.DeepEqual(f.turns, []string{"start", "too late to steer"}) || !reflect.DeepEqual(m.State().Queued, []string{"later"}) {
		t.Fatalf("turns = %q, queue %q", f.turns, m.State().Queued)
	}
}

func TestFailedTurnPutsPromptBack(t *testing.T) {
	f := newFake()
	f.errs["turn/start"] = errors.New("boom")
	m := ready(t, f, Options{})
	typeText(t, m, "keep me")
	press(t, m, tea.KeyEnter, 0)
	if m.State().Composer != "keep me" || m.State().Running {
		t.Fatalf("draft %q running %v", m.State().Composer, m.State().Running)
	}
}

func TestResumeFailureStartsNewThreadOnce(t *testing.T) {
	f := newFake()
	f.resumeErr = &backend.RPCError{Code: -32600, Message: "no rollout found for thread id x"}
	f.threads["t-old"] = backend.Thread{ID: "t-old"}
	f.thread = "" // `tandem resume ID` opens no thread first
	dir := t.TempDir()
	m := New(Options{State: sessions.Open(dir), Workspace: "/w"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{ID: "t-old"}})
	settle(t, m, cmd)
	resumes, starts := 0, 0
	for _, c := range f.called() {
		switch c {
		case "thread/resume":
			resumes++
		case "thread/start":
			starts++
		}
	}
	if resumes != 1 || starts != 1 {
		t.Fatalf("resume tried %d times, new thread %d times: %v", resumes, starts, f.called())
	}
	if !strings.Contains(viewText(m), "could not resume thread") || !strings.Contains(viewText(m), "no rollout found") {
		t.Fatalf("no notice:\n%s", viewText(m))
	}
	if got := sessions.Open(dir).LastThread("/w"); got != "t-new" {
		t.Fatalf("last thread = %q, want t-new", got)
	}
}

func TestResumeFoldsHistoryAndRemembers(t *testing.T) {
	f := newFake()
	f.threads["t-old"] = backend.Thread{ID: "t-old", Preview: "earlier question", Turns: []backend.Turn{{ID: "a", Status: "completed", Items: []backend.Item{
		{Type: "userMessage", ID: "u1", Content: []backend.UserContent{{Type: "text", Text: "earlier question"}}},
		{Type: "agentMessage", ID: "a1", Text: "earlier answer"},
	}}}}
	dir := t.TempDir()
	store := sessions.Open(dir)
	_ = store.SetLastThread("/w", "t-old")
	m := New(Options{State: store, Workspace: "/w"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{Last: true}})
	settle(t, m, cmd)
	v := viewText(m)
	if !strings.Contains(v, "earlier question") || !strings.Contains(v, "earlier answer") || !strings.Contains(v, "Resumed thread") {
		t.Fatalf("history not folded:\n%s", v)
	}
	for _, c := range f.called() {
		if c == "thread/list" {
			t.Fatal("--last listed threads although the state file knew the last one")
		}
	}
	// /fork copies the history into a new thread and remembers it.
	typeText(t, m, "/fork")
	press(t, m, tea.KeyEnter, 0)
	if f.ThreadID() != "t-fork" || !strings.Contains(viewText(m), "Forked into thread t-fork") {
		t.Fatalf("fork: thread %q\n%s", f.ThreadID(), viewText(m))
	}
	if !strings.Contains(viewText(m), "earlier answer") {
		t.Fatal("fork lost the history")
	}
	if got := store.LastThread("/w"); got != "t-fork" {
		t.Fatalf("last thread = %q", got)
	}
	// /new starts an empty thread and says so.
	typeText(t, m, "/new")
	press(t, m, tea.KeyEnter, 0)
	v = viewText(m)
	if strings.Contains(v, "earlier answer") || !strings.Contains(v, "New thread") {
		t.Fatalf("/new: history kept or no notice:\n%s", v)
	}
}

func TestResumeWarnsAboutUnfinishedToolCalls(t *testing.T) {
	f := newFake()
	path, _ := filepath.Abs(filepath.Join("..", "sessions", "testdata", "unfinished.jsonl"))
	f.threads["t-bad"] = backend.Thread{ID: "t-bad", Path: &path}
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{ID: "t-bad"}})
	settle(t, m, cmd)
	v := viewText(m)
	if !strings.Contains(v, "2 tool call(s) that never got an output") || !m.overlay.Open() {
		t.Fatalf("no warning or choice:\n%s", v)
	}
	for _, c := range f.called() {
		if c == "thread/resume" {
			t.Fatal("resumed despite unfinished tool calls")
		}
	}
	press(t, m, tea.KeyEnter, 0) // "Fork it"
	if f.ThreadID() != "t-fork" {
		t.Fatalf("choice did not fork: %v", f.called())
	}
}

func TestResumePickerListsSearchesAndToggles(t *testing.T) {
	f := newFake()
	now := time.Now().Unix()
	f.list = []backend.Thread{
		{ID: "t-a", Preview: "fix the parser", Cwd: "/w", UpdatedAt: now - 120, CreatedAt: now - 7200},
		{ID: "t-b", Preview: "write docs", Cwd: "/w", UpdatedAt: now - 3600, CreatedAt: now - 3600},
	}
	f.threads["t-b"] = backend.Thread{ID: "t-b", Preview: "write docs"}
	m := New(Options{Workspace: "/w"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{}})
	settle(t, m, cmd)
	v := viewText(m)
	if !strings.Contains(v, "fix the parser") || !strings.Contains(v, "write docs") || !strings.Contains(v, "this workspace") {
		t.Fatalf("picker not drawn:\n%s", v)
	}
	lp := f.params["thread/list"].(backend.ThreadListParams)
	if lp.Cwd != "/w" || lp.SortKey != backend.SortUpdated {
		t.Fatalf("thread/list params %+v", lp)
	}
	press(t, m, 'a', tea.ModCtrl)
	press(t, m, 's', tea.ModCtrl)
	typeSlow(t, m, "docs")
	lp = f.params["thread/list"].(backend.ThreadListParams)
	if lp.Cwd != "" || lp.SortKey != backend.SortCreated || lp.SearchTerm != "docs" {
		t.Fatalf("after ctrl+a, ctrl+s, search: %+v", lp)
	}
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0)
	if f.ThreadID() != "t-b" {
		t.Fatalf("picked thread not resumed: %v", f.called())
	}
}

func TestFileMentionPopup(t *testing.T) {
	f := newFake()
	f.results["fuzzyFileSearch"] = backend.FuzzyFileSearchResponse{Files: []backend.FuzzyFileMatch{
		{Root: "/w", Path: ".git/hooks/pre-commit.sample", FileName: "pre-commit.sample"},
		{Root: "/w", Path: "src/main.go", FileName: "main.go"},
		{Root: "/w", Path: "vendor/x/.git/main", FileName: "main"},
	}}
	m := ready(t, f, Options{Workspace: "/w"})
	typeText(t, m, "look at ")
	typeSlow(t, m, "@mai")
	p := f.params["fuzzyFileSearch"].(backend.FuzzyFileSearchParams)
	if p.Query != "mai" || !reflect.DeepEqual(p.Roots, []string{"/w"}) {
		t.Fatalf("fuzzyFileSearch params %+v", p)
	}
	if !strings.Contains(viewText(m), "src/main.go") {
		t.Fatalf("file popup not drawn:\n%s", viewText(m))
	}
	if v := viewText(m); strings.Contains(v, ".git/") {
		t.Fatalf("files inside .git offered:\n%s", v)
	}
	press(t, m, tea.KeyTab, 0)
	if m.State().Composer != "look at src/main.go " {
		t.Fatalf("mention inserted as %q", m.State().Composer)
	}
}

// Files are searched in the thread's workspace as the server gave it (a
// remote path under --ssh), not the local directory.
func TestFileMentionSearchesThreadWorkspace(t *testing.T) {
	f := newFake()
	m := New(Options{Workspace: "/local/w"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Model: "mock-model", Cwd: "/srv/app", ThreadCwd: "/srv/app"})
	settle(t, m, cmd)
	typeSlow(t, m, "@mai")
	p, _ := f.params["fuzzyFileSearch"].(backend.FuzzyFileSearchParams)
	if !reflect.DeepEqual(p.Roots, []string{"/srv/app"}) {
		t.Fatalf("fuzzyFileSearch roots %q; want the thread's workspace", p.Roots)
	}
}

func TestShellCommand(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	typeText(t, m, "!ls -la")
	press(t, m, tea.KeyEnter, 0)
	p, ok := f.params["thread/shellCommand"].(backend.ThreadShellCommandParams)
	if !ok || p.Command != "ls -la" || p.ThreadID != "t-first" {
		t.Fatalf("thread/shellCommand params %+v", f.params["thread/shellCommand"])
	}
	if len(f.turns) != 0 {
		t.Fatal("! command started a turn")
	}
}

func TestLoginFormAPIKey(t *testing.T) {
	f := newFake()
	f.results["account/read"] = map[string]any{"account": nil, "requiresOpenaiAuth": true}
	f.results["account/login/start"] = map[string]any{"type": "apiKey"}
	m := ready(t, f, Options{})
	if !m.State().LoginOpen || !strings.Contains(viewText(m), "Use an API key") {
		t.Fatalf("login form not shown:\n%s", viewText(m))
	}
	press(t, m, tea.KeyEnter, 0) // API key
	typeText(t, m, "sk-secret")
	if strings.Contains(viewText(m), "sk-secret") {
		t.Fatal("API key shown in clear")
	}
	press(t, m, tea.KeyEnter, 0)
	p := f.params["account/login/start"].(backend.LoginStartParams)
	if p.Type != "apiKey" || p.APIKey != "sk-secret" {
		t.Fatalf("login params %+v", p)
	}
	if m.State().LoginOpen {
		t.Fatal("form still open after a successful API key login")
	}
}

func TestLoginFormDeviceCode(t *testing.T) {
	f := newFake()
	f.results["account/read"] = map[string]any{"account": nil, "requiresOpenaiAuth": true}
	f.results["account/login/start"] = map[string]any{"type": "chatgptDeviceCode", "loginId": "L1", "verificationUrl": "https://auth.example/device", "userCode": "ABCD-1234"}
	m := ready(t, f, Options{})
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0)
	v := viewText(m)
	if !strings.Contains(v, "https://auth.example/device") || !strings.Contains(v, "ABCD-1234") {
		t.Fatalf("device code not shown:\n%s", v)
	}
	id := "other"
	m.Update(backend.LoginCompletedEvent{LoginID: &id, Success: true})
	if !m.State().LoginOpen {
		t.Fatal("another login's completion closed the form")
	}
	id = "L1"
	m.Update(backend.LoginCompletedEvent{LoginID: &id, Success: true})
	if m.State().LoginOpen {
		t.Fatal("form still open after account/login/completed")
	}
}

func TestNoLoginWhenNotRequired(t *testing.T) {
	f := newFake()
	f.results["account/read"] = map[string]any{"account": nil, "requiresOpenaiAuth": false}
	m := ready(t, f, Options{})
	if m.State().LoginOpen {
		t.Fatal("login form shown although the provider needs no auth")
	}
}

func TestDiffShowsLastTurnDiff(t *testing.T) {
	m := ready(t, newFake(), Options{})
	typeText(t, m, "/diff")
	press(t, m, tea.KeyEnter, 0)
	if !strings.Contains(viewText(m), "No diff yet") {
		t.Fatalf("empty /diff:\n%s", viewText(m))
	}
	diff := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-old line\n+new line\n"
	m.Update(backend.TurnDiffUpdatedEvent{Diff: "stale"})
	m.Update(backend.TurnDiffUpdatedEvent{Diff: diff})
	typeText(t, m, "/diff")
	press(t, m, tea.KeyEnter, 0)
	v := viewText(m)
	if !strings.Contains(v, "+new line") || !strings.Contains(v, "-old line") || strings.Contains(v, "stale") {
		t.Fatalf("/diff did not show the last diff:\n%s", v)
	}
}

func TestUnknownSlashIsAPrompt(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	typeText(t, m, "/usr/bin is where it lives")
	press(t, m, tea.KeyEnter, 0)
	if !reflect.DeepEqual(f.turns, []string{"/usr/bin is where it lives"}) {
		t.Fatalf("turns = %q", f.turns)
	}
	// An @ with no matches doesn't swallow Enter either.
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	typeText(t, m, "mail @")
	press(t, m, tea.KeyEnter, 0)
	if len(f.turns) != 2 || f.turns[1] != "mail @" {
		t.Fatalf("turns = %q", f.turns)
	}
}

func TestResumeLastFallsBackToListWhenRememberedIsUnknown(t *testing.T) {
	f := newFake()
	f.threads["t-listed"] = backend.Thread{ID: "t-listed", Preview: "listed one"}
	f.list = []backend.Thread{{ID: "t-listed", Preview: "listed one"}}
	store := sessions.Open(t.TempDir())
	_ = store.SetLastThread("/w", "t-elsewhere") // from another CODEX_HOME
	m := New(Options{State: store, Workspace: "/w"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Resume: &ResumeRequest{Last: true}})
	settle(t, m, cmd)
	if f.ThreadID() != "t-listed" {
		t.Fatalf("resumed %q, calls %v", f.ThreadID(), f.called())
	}
	lp := f.params["thread/list"].(backend.ThreadListParams)
	if lp.Cwd != "/w" || lp.SortKey != backend.SortUpdated || lp.Limit != 1 {
		t.Fatalf("thread/list params %+v", lp)
	}
}

// An /approvals choice applies to the next turns of whatever thread is
// open: after /fork the status line still shows it, as /status does.
func TestApprovalsChoiceSurvivesFork(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	typeText(t, m, "/approvals")
	press(t, m, tea.KeyEnter, 0)
	press(t, m, tea.KeyDown, 0)
	press(t, m, tea.KeyEnter, 0)
	chosen := m.State().TurnOptions.ApprovalPolicy
	if chosen == "" {
		t.Fatal("no approvals preset chosen")
	}
	typeText(t, m, "/fork")
	press(t, m, tea.KeyEnter, 0)
	if f.ThreadID() != "t-fork" {
		t.Fatalf("fork did not happen: %v", f.called())
	}
	if m.stat.Info().Approval != chosen || m.stat.Info().Sandbox != m.State().TurnOptions.Sandbox {
		t.Errorf("status shows approval %q sandbox %q after /fork; want the chosen %q %q", m.stat.Info().Approval, m.stat.Info().Sandbox, chosen, m.State().TurnOptions.Sandbox)
	}
}

// A steer the session refuses because it already saw the turn end
// (backend.ErrNoActiveTurn) is the same race as the server's -32600: the
// message is queued as the next turn, with no error banner.
func TestSteerAfterLocalTurnEndIsQueued(t *testing.T) {
	f := newFake()
	m := ready(t, f, Options{})
	typeText(t, m, "start")
	press(t, m, tea.KeyEnter, 0)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	f.steerErr = fmt.Errorf("turn/steer: %w", backend.ErrNoActiveTurn)
	typeText(t, m, "second question")
	press(t, m, tea.KeyEnter, 0)
	if !reflect.DeepEqual(m.State().Queued, []string{"second question"}) || m.State().Composer != "" {
		t.Fatalf("queue %q, draft %q", m.State().Queued, m.State().Composer)
	}
	if strings.Contains(viewText(m), "could not steer") {
		t.Fatalf("an error banner for a lost race:\n%s", viewText(m))
	}
}

// pacedClock is a clock the test moves (Add), and typeText, press,
// hitKey and keyNow move on by keyGap before each key, as a person
// types; a timer fires as Bubble Tea's do, after d, and moves the clock
// on to its time: the composer's hold and burst timers settle as they
// would for a person typing. Only a timer set since the test last moved
// the clock may move it: one that a drive abandoned (teadrive) and that
// fires later, while a slow machine is still running the test, leaves
// the test's time alone. Safe for the timers' goroutines.
type pacedClock struct {
	mu    sync.Mutex
	now   time.Time
	moves int // how many times the test moved the clock (Add)
}

func newPacedClock(at time.Time) *pacedClock { return &pacedClock{now: at} }

func (c *pacedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock on by d; the timers set before no longer move it.
func (c *pacedClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.moves++
}

func (c *pacedClock) After(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
	c.mu.Lock()
	at, moves := c.now.Add(d), c.moves
	c.mu.Unlock()
	return tea.Tick(d, func(time.Time) tea.Msg {
		c.mu.Lock()
		if c.moves == moves && c.now.Before(at) {
			c.now = at
		}
		c.mu.Unlock()
		return f(at)
	})
}

// keyGap is how far apart a person's keys are: typeText and press move
// a pacedClock on by it before each key.
const keyGap = 150 * time.Millisecond

// pace moves m's clock on by keyGap when it is a pacedClock.
func pace(m *Model) {
	if c, ok := m.env.Clock.(*pacedClock); ok {
		c.Add(keyGap)
	}
}

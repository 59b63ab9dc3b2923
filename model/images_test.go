package model

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/model/act"
	"tandem/model/composer"
	"tandem/sessions"
)

// imgFake is the fake driver, recording the images of every turn/start
// and turn/steer.
type imgFake struct {
	*fakeDriver
	imu         sync.Mutex
	turnImages  [][]string
	steerImages [][]string
}

func newImgFake() *imgFake { return &imgFake{fakeDriver: newFake()} }

func (f *imgFake) StartTurn(ctx context.Context, in backend.TurnInput) (backend.Turn, error) {
	f.imu.Lock()
	f.turnImages = append(f.turnImages, in.Images)
	f.imu.Unlock()
	return f.fakeDriver.StartTurn(ctx, in)
}

func (f *imgFake) Steer(ctx context.Context, in backend.TurnInput) error {
	f.imu.Lock()
	f.steerImages = append(f.steerImages, in.Images)
	f.imu.Unlock()
	return f.fakeDriver.Steer(ctx, in)
}

// readyImg is ready for an imgFake, with the session described as peer
// ("local", "ssh devbox") and the thread's workspace cwd.
func readyImg(t *testing.T, f *imgFake, opts Options, peer, cwd string) *Model {
	t.Helper()
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(SessionReadyMsg{Client: f, Model: "mock-model", Cwd: "~/w", ThreadCwd: cwd, Peer: peer})
	settle(t, m, cmd)
	return m
}

// writeImage makes a file of size bytes named name in dir that starts
// as its extension's image type does (what CheckImageFile sniffs).
func writeImage(t *testing.T, dir, name string, size int) string {
	t.Helper()
	p := filepath.Join(dir, name)
	data := make([]byte, size)
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png":
		copy(data, "\x89PNG\r\n\x1a\n")
	case ".jpg", ".jpeg":
		copy(data, "\xff\xd8\xff\xe0")
	case ".gif":
		copy(data, "GIF89a")
	case ".webp":
		copy(data, "RIFF\x00\x00\x00\x00WEBPVP8 ")
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func paste(t *testing.T, m *Model, s string) {
	t.Helper()
	_, cmd := m.Update(tea.PasteMsg{Content: s})
	settle(t, m, cmd)
}

func enter(t *testing.T, m *Model) {
	t.Helper()
	_, cmd := enterNow(m)
	settle(t, m, cmd)
}

// CheckImageFile: -i's check, and a pasted path's on a local session.
func TestCheckImageFile(t *testing.T) {
	dir := t.TempDir()
	writeImage(t, dir, "shot.png", 2000)
	writeImage(t, dir, "notes.txt", 10)
	os.Mkdir(filepath.Join(dir, "dir.png"), 0o700)
	os.WriteFile(filepath.Join(dir, "fake.png"), []byte("just text\n"), 0o600)
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.png"))
	huge := writeImage(t, dir, "huge.png", 16)
	os.Truncate(huge, MaxImageBytes+1)
	tests := []struct {
		path   string
		size   int64
		reason string // "" ok
	}{
		{"shot.png", 2000, ""},
		{filepath.Join(dir, "shot.png"), 2000, ""},
		{"missing.png", 0, "no such file"},
		{"notes.txt", 0, "not an image"},
		{"dir.png", 0, "not a regular file"},
		{"fake.png", 0, "its content is not an image"},
		{"zero.png", 0, "not a regular file"},
		{"huge.png", 0, "too large"},
	}
	for _, tt := range tests {
		abs, size, err := CheckImageFile(tt.path, dir)
		switch {
		case tt.reason == "" && (err != nil || size != tt.size || abs != filepath.Join(dir, "shot.png")):
			t.Errorf("%s: %q %d %v", tt.path, abs, size, err)
		case tt.reason != "" && (err == nil || !strings.Contains(err.Error(), tt.reason)):
			t.Errorf("%s: error %v, want %q", tt.path, err, tt.reason)
		}
	}
}

// A dropped image becomes a chip; typed text goes around it; Enter sends
// the text and the image (absolute) and draws both.
func TestPastedImageIsSentAsImage(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 240_000)
	f := newImgFake()
	m := readyImg(t, f, Options{Workspace: dir}, "local", dir)
	paste(t, m, "'"+p+"'")
	if got := m.composer.Value(); got != "[image 1 · shot.png · 240 KB] " {
		t.Fatalf("composer %q", got)
	}
	typeText(t, m, "what is this")
	enter(t, m)
	if !reflect.DeepEqual(f.turns, []string{"what is this"}) || !reflect.DeepEqual(f.turnImages, [][]string{{p}}) {
		t.Fatalf("turns %q images %q", f.turns, f.turnImages)
	}
	if v := viewText(m); !strings.Contains(v, "▌ what is this\n▌ ⎘ shot.png · 240 KB") {
		t.Fatalf("message cell:\n%s", v)
	}
	// Up brings the message back with its image.
	m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	press(t, m, tea.KeyUp, 0)
	enter(t, m)
	if len(f.turnImages) != 2 || !reflect.DeepEqual(f.turnImages[1], []string{p}) {
		t.Fatalf("resent from history: images %q", f.turnImages)
	}
}

// Several dropped files are several chips, in order; a relative path is
// the workspace's.
func TestSeveralPastedImages(t *testing.T) {
	dir := t.TempDir()
	a, b := writeImage(t, dir, "a.png", 10), writeImage(t, dir, "b c.jpg", 1500)
	f := newImgFake()
	m := readyImg(t, f, Options{Workspace: dir}, "local", dir)
	paste(t, m, `./a.png `+strings.ReplaceAll(b, " ", `\ `))
	if got := m.composer.Value(); got != "[image 1 · a.png · 10 B] [image 2 · b c.jpg · 2 KB] " {
		t.Fatalf("composer %q", got)
	}
	enter(t, m)
	if !reflect.DeepEqual(f.turnImages, [][]string{{a, b}}) || f.turns[0] != "" {
		t.Fatalf("turns %q images %q", f.turns, f.turnImages)
	}
}

// What can't be a chip stays as typed: a missing file (with a notice),
// a non-image, a paste of text.
func TestPasteThatIsNoImageStaysText(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ paste, notice string }{
		{filepath.Join(dir, "missing.png"), "not attached, kept as text: " + filepath.Join(dir, "missing.png") + ": no such file"},
		{"/etc/hostname", ""},
		{"fix the bug in main.go", ""},
	}
	for _, tt := range tests {
		m := readyImg(t, newImgFake(), Options{Workspace: dir}, "local", dir)
		paste(t, m, tt.paste)
		if got := m.composer.Value(); got != tt.paste {
			t.Errorf("%q: composer %q", tt.paste, got)
		}
		if !strings.Contains(noticeText(m), tt.notice) || (tt.notice == "" && strings.Contains(noticeText(m), "attached")) {
			t.Errorf("%q: notice %q", tt.paste, noticeText(m))
		}
	}
}

// Backspace just after a chip removes it whole, and the image is not
// sent.
func TestBackspaceRemovesChip(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 100)
	f := newImgFake()
	m := readyImg(t, f, Options{Workspace: dir}, "local", dir)
	typeText(t, m, "see ")
	paste(t, m, p)
	chip := strings.TrimSuffix(strings.TrimPrefix(m.composer.Value(), "see "), " ")
	if !m.composer.HasImage(chip) {
		t.Fatalf("draft %q: no chip", m.composer.Value())
	}
	press(t, m, tea.KeyBackspace, 0) // the space after the chip
	press(t, m, tea.KeyBackspace, 0) // the chip
	if got := m.composer.Value(); got != "see " || m.composer.HasImage(chip) {
		t.Fatalf("draft %q, chip %q kept %v", got, chip, m.composer.HasImage(chip))
	}
	typeText(t, m, "nothing")
	enter(t, m)
	if !reflect.DeepEqual(f.turns, []string{"see nothing"}) || f.turnImages[0] != nil {
		t.Fatalf("turns %q images %q", f.turns, f.turnImages)
	}
}

// A steer and a queued message keep their images; a failed turn/start
// puts the draft back with its chip.
func TestImagesSteerQueueAndFailure(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 100)
	f := newImgFake()
	m := readyImg(t, f, Options{Workspace: dir}, "local", dir)
	typeText(t, m, "first")
	enter(t, m)
	m.Update(backend.TurnStartedEvent{Turn: backend.Turn{ID: "turn-1"}})
	paste(t, m, p)
	typeText(t, m, "steer")
	enter(t, m)
	if !reflect.DeepEqual(f.steers, []string{"steer"}) || !reflect.DeepEqual(f.steerImages, [][]string{{p}}) {
		t.Fatalf("steers %q images %q", f.steers, f.steerImages)
	}
	paste(t, m, p)
	typeText(t, m, "later")
	press(t, m, tea.KeyTab, 0)
	if q := m.State().Queued; len(q) != 1 || !strings.HasPrefix(q[0], "[image 2 · shot.png") {
		t.Fatalf("queued %q", q)
	}
	f.errs["turn/start"] = &backend.RPCError{Code: backend.CodeInvalidRequest, Message: "refused"} // a timeout is checked first (model/turn/truth.go)
	_, cmd := m.Update(backend.TurnCompletedEvent{Turn: backend.Turn{ID: "turn-1", Status: backend.TurnCompleted}})
	settle(t, m, cmd)
	if len(f.turnImages) != 2 || !reflect.DeepEqual(f.turnImages[1], []string{p}) || f.turns[1] != "later" {
		t.Fatalf("queued turn: %q images %q", f.turns, f.turnImages)
	}
	if got := m.composer.Value(); got != "[image 2 · shot.png · 100 B] later" {
		t.Fatalf("after the failed turn the draft is %q", got)
	}
	delete(f.errs, "turn/start")
	enter(t, m)
	if len(f.turnImages) != 3 || !reflect.DeepEqual(f.turnImages[2], []string{p}) {
		t.Fatalf("resent: images %q", f.turnImages)
	}
}

// A model without image input (model/list inputModalities): Enter says so
// and keeps the draft; nothing is sent. With another /model it goes.
func TestModelWithoutImagesKeepsDraft(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 100)
	f := newImgFake()
	f.results["model/list"] = map[string]any{"data": []any{
		map[string]any{"id": "mock-model", "model": "mock-model", "inputModalities": []string{"text"}},
		map[string]any{"id": "seer", "model": "seer"},
	}}
	m := readyImg(t, f, Options{Workspace: dir}, "local", dir)
	paste(t, m, p)
	typeText(t, m, "what is it")
	enter(t, m)
	if len(f.turns) != 0 || !strings.Contains(noticeText(m), "mock-model does not take images") {
		t.Fatalf("turns %q, notice %q", f.turns, noticeText(m))
	}
	if got := m.composer.Value(); got != "[image 1 · shot.png · 100 B] what is it" {
		t.Fatalf("draft %q", got)
	}
	m.turn.Apply(act.SetModel{Model: "seer"}) // /model's choice (model/turn)
	settle(t, m, m.apply())
	enter(t, m)
	if !reflect.DeepEqual(f.turnImages, [][]string{{p}}) {
		t.Fatalf("with seer: images %q", f.turnImages)
	}
}

// Enter before model/list answered waits for it, then sends.
func TestEnterWaitsForModelList(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 100)
	f := newImgFake()
	f.results["model/list"] = map[string]any{"data": []any{map[string]any{"id": "mock-model", "model": "mock-model", "inputModalities": []string{"text", "image"}}}}
	m := readyImg(t, f, Options{Workspace: dir}, "local", dir)
	m.composer.AttachStart([]string{p}, "") // a chip, with no prefetch
	_, cmd := enterNow(m)
	if len(f.turns) != 0 || !strings.Contains(noticeText(m), "checking that mock-model takes images") {
		t.Fatalf("before model/list: turns %q, notice %q", f.turns, noticeText(m))
	}
	settle(t, m, cmd)
	if !reflect.DeepEqual(f.turnImages, [][]string{{p}}) {
		t.Fatalf("images %q", f.turnImages)
	}
}

// -i: the images go with the command line's prompt, after the login
// check; without a prompt they start the draft.
func TestStartImages(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 240_000)
	f := newImgFake()
	readyImg(t, f, Options{Prompt: "what is this", Images: []string{p}}, "local", dir)
	if !reflect.DeepEqual(f.turns, []string{"what is this"}) || !reflect.DeepEqual(f.turnImages, [][]string{{p}}) {
		t.Fatalf("turns %q images %q", f.turns, f.turnImages)
	}
	m := readyImg(t, newImgFake(), Options{Images: []string{p}}, "local", dir)
	if got := m.composer.Value(); got != "[image 1 · shot.png · 240 KB] " {
		t.Fatalf("draft %q", got)
	}
}

// Over --ssh a pasted path is the remote machine's: not looked at here,
// sent as it is; a local file (-i, a clipboard image) is copied to the
// remote workspace first and sent from there.
func TestRemoteImages(t *testing.T) {
	local := writeImage(t, t.TempDir(), "clip.png", 300)
	f := newImgFake()
	m := readyImg(t, f, Options{Images: []string{local}}, "ssh devbox", "/srv/app")
	paste(t, m, "/srv/app/shots/remote.png")
	if got := m.composer.Value(); got != "[image 1 · clip.png · 300 B] [image 2 · remote.png] " {
		t.Fatalf("composer %q", got)
	}
	paste(t, m, "~/x.png")
	if !strings.Contains(noticeText(m), "absolute path") || !strings.HasSuffix(m.composer.Value(), "~/x.png") {
		t.Fatalf("~ path on a remote: notice %q, draft %q", noticeText(m), m.composer.Value())
	}
	m.composer.SetDraft(strings.TrimSuffix(m.composer.Value(), "~/x.png"))
	enter(t, m)
	if len(f.turnImages) != 1 || len(f.turnImages[0]) != 2 {
		t.Fatalf("images %q", f.turnImages)
	}
	up, pasted := f.turnImages[0][0], f.turnImages[0][1]
	if pasted != "/srv/app/shots/remote.png" || !strings.HasPrefix(up, "/srv/app/.tandem/images/") || !strings.HasSuffix(up, "/clip.png") {
		t.Fatalf("sent %q", f.turnImages[0])
	}
	if got, ok := f.files[up]; !ok || len(got) != 300 {
		t.Fatalf("not uploaded to %s (%v)", up, f.called())
	}
}

// The app-server on this machine — tandem's own or the local daemon's —
// reads a local image where it is: nothing is copied into the workspace.
func TestLocalPeersReadImagesInPlace(t *testing.T) {
	for _, peer := range []string{"local", "daemon"} {
		t.Run(peer, func(t *testing.T) {
			dir := t.TempDir()
			local := writeImage(t, t.TempDir(), "clip.png", 300)
			f := newImgFake()
			m := readyImg(t, f, Options{Workspace: dir, Images: []string{local}}, peer, dir)
			enter(t, m)
			if len(f.turnImages) != 1 || len(f.turnImages[0]) != 1 || f.turnImages[0][0] != local {
				t.Fatalf("sent %q, want %s as it is", f.turnImages, local)
			}
			if len(f.files) != 0 {
				t.Fatalf("copied to the app-server: %v", f.called())
			}
		})
	}
}

// The state file keeps a prompt without its chips, with a note.
func TestImageHistoryStored(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 100)
	state := t.TempDir()
	m := readyImg(t, newImgFake(), Options{Workspace: dir, State: sessions.Open(state)}, "local", dir)
	paste(t, m, p)
	typeText(t, m, "look")
	enter(t, m)
	h := sessions.Open(state).History(dir)
	if len(h) != 1 || h[0] != "look\n"+composer.ImagesNotSaved {
		t.Fatalf("stored %q", h)
	}
}

// A resumed thread's messages show their images (the item's content).
func TestResumedMessageShowsImages(t *testing.T) {
	f := newImgFake()
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	hist := []backend.Turn{{ID: "t1", Status: backend.TurnCompleted, Items: []backend.Item{{Type: "userMessage", ID: "u1", Content: []backend.UserContent{
		{Type: "text", Text: "compare these"},
		{Type: "localImage", Path: "/home/u/before.png"},
		{Type: "image", URL: "data:image/png;base64,AAAA"},
	}}}}}
	_, cmd := m.Update(SessionReadyMsg{Client: f, Model: "mock-model", History: hist})
	settle(t, m, cmd)
	if v := viewText(m); !strings.Contains(v, "▌ compare these\n▌ ⎘ before.png\n▌ ⎘ pasted image") {
		t.Fatalf("resumed message:\n%s", v)
	}
}

// Keys typed while a pasted path is being checked stay where they were
// typed: the path turns into a chip in place.
func TestTypingDuringImageCheck(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 100)
	m := readyImg(t, newImgFake(), Options{Workspace: dir}, "local", dir)
	typeText(t, m, "see ")
	_, cmd := m.Update(tea.PasteMsg{Content: p})
	for _, r := range " now" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	settle(t, m, cmd)
	typeText(t, m, "!")
	if got := m.composer.Value(); got != "see [image 1 · shot.png · 100 B]  no!w" {
		t.Fatalf("draft %q", got)
	}
}

// A dropped file that the terminal types as keys (no bracketed paste)
// becomes a chip too, once the burst ends.
func TestImagePathTypedAsKeysBecomesChip(t *testing.T) {
	dir := t.TempDir()
	p := writeImage(t, dir, "shot.png", 2000)
	f := newImgFake()
	now := time.Unix(1_000_000, 0)
	m := readyImg(t, f, Options{Workspace: dir, Clock: act.FuncClock(func() time.Time { return now })}, "local", dir)
	for _, s := range typed("'"+p+"'", pasteGap) {
		now = now.Add(s.gap)
		m.Update(s.k) // its tick stands in for below
	}
	now = now.Add(time.Second)
	settle(t, m, due(m))
	if got := m.composer.Value(); got != "[image 1 · shot.png · 2 KB] " {
		t.Fatalf("composer %q, notice %q", got, noticeText(m))
	}
	if len(f.turns) != 0 {
		t.Fatalf("sent %q", f.turns)
	}
}

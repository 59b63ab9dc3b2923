package pair

import (
	"context"
	"testing"
	"time"

	"charm.land/ssh"
)

// fakeSession is an ssh.Session with a pty whose window changes come from
// winch, for as long as ctx lives.
type fakeSession struct {
	ssh.Session
	pty   ssh.Pty
	winch chan ssh.Window
	ctx   fakeContext
}

type fakeContext struct {
	ssh.Context
	ctx context.Context
}

func (c fakeContext) Done() <-chan struct{}       { return c.ctx.Done() }
func (c fakeContext) Err() error                  { return c.ctx.Err() }
func (c fakeContext) Value(k any) any             { return c.ctx.Value(k) }
func (c fakeContext) Deadline() (time.Time, bool) { return c.ctx.Deadline() }

func (s *fakeSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) { return s.pty, s.winch, true }
func (s *fakeSession) Context() ssh.Context                    { return s.ctx }

func newFakeSession(w, h int) (*fakeSession, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &fakeSession{pty: ssh.Pty{Term: "xterm", Window: ssh.Window{Width: w, Height: h}}, winch: make(chan ssh.Window, 1), ctx: fakeContext{ctx: ctx}}
	s.winch <- s.pty.Window
	return s, cancel
}

func TestClampSizes(t *testing.T) {
	cases := []struct {
		name       string
		w, h       int
		wantW      int
		wantH      int
		wantNotice bool
	}{
		{"ordinary", 120, 40, 120, 40, false},
		{"at the limit", MaxWidth, MaxHeight, MaxWidth, MaxHeight, false},
		{"huge", 65535, 65535, MaxWidth, MaxHeight, true},
		{"wide only", 4000, 30, MaxWidth, 30, true},
		{"tall only", 80, 9000, 80, MaxHeight, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, cancel := newFakeSession(tc.w, tc.h)
			defer cancel()
			c := Clamp(s)
			pty, winch, _ := c.Pty()
			if pty.Window.Width != tc.wantW || pty.Window.Height != tc.wantH {
				t.Fatalf("pty %dx%d, want %dx%d", pty.Window.Width, pty.Window.Height, tc.wantW, tc.wantH)
			}
			if w := <-winch; w.Width != tc.wantW || w.Height != tc.wantH {
				t.Fatalf("first window %dx%d", w.Width, w.Height)
			}
			noticed := false
			c.OnClamp(func(ssh.Window) { noticed = true })
			if noticed != tc.wantNotice {
				t.Fatalf("notice %v, want %v", noticed, tc.wantNotice)
			}
			s.winch <- ssh.Window{Width: 65535, Height: 65535}
			if w := <-winch; w.Width != MaxWidth || w.Height != MaxHeight {
				t.Fatalf("window change %dx%d not clamped", w.Width, w.Height)
			}
		})
	}
}

// When the client's requests end (its channel closed while the
// connection stays up) the clamped channel goes quiet — it neither closes
// nor spins out zero-size windows — and the session's context ends, so
// its program and its place in the hub go too.
func TestClampStopsWhenRequestsEnd(t *testing.T) {
	s, cancel := newFakeSession(80, 24)
	defer cancel()
	c := Clamp(s)
	_, winch, _ := c.Pty()
	<-winch
	close(s.winch)
	select {
	case <-c.Context().Done():
	case <-time.After(patience):
		t.Fatal("the session's context outlived its channel")
	}
	select {
	case w, ok := <-winch:
		t.Fatalf("got %+v (open %v) after the client's requests ended", w, ok)
	case <-time.After(200 * time.Millisecond):
	}
}

// A flood of window changes is coalesced: the latest size wins. While
// nobody reads, a flood of 1,001 leaves at most three to read (one
// buffered, one pending, one still on its way in), the last the latest;
// while a reader takes them as they come, no more than one passes a
// minResizeGap (a bound a slow machine only loosens).
func TestClampCoalescesWindowChanges(t *testing.T) {
	flood := func(s *fakeSession) {
		for i := range 1000 {
			s.winch <- ssh.Window{Width: 10 + i%100, Height: 5}
		}
		s.winch <- ssh.Window{Width: 123, Height: 45}
	}
	// readToLatest reads winch until 123x45 arrives and returns how many
	// came, or -1 when it has not after patience.
	readToLatest := func(winch <-chan ssh.Window) int {
		n := 0
		for {
			select {
			case w := <-winch:
				n++
				if w.Width == 123 && w.Height == 45 {
					return n
				}
			case <-time.After(patience):
				return -1
			}
		}
	}

	s, cancel := newFakeSession(80, 24)
	defer cancel()
	_, winch, _ := Clamp(s).Pty()
	<-winch
	flood(s)
	if got := readToLatest(winch); got < 0 || got > 3 {
		t.Fatalf("%d window changes passed on for 1001 sent while nobody read (-1: not the latest), want 1 to 3", got)
	}

	s, cancel = newFakeSession(80, 24)
	defer cancel()
	_, winch, _ = Clamp(s).Pty()
	<-winch
	got := make(chan int, 1)
	start := time.Now()
	go func() { got <- readToLatest(winch) }()
	flood(s)
	n := <-got
	if n < 0 {
		t.Fatal("the latest size (123x45) never arrived")
	}
	if most := 2 + int(time.Since(start)/minResizeGap); n > most {
		t.Fatalf("%d window changes passed on for 1001 sent over %v, want at most %d (one a %v)", n, time.Since(start), most, minResizeGap)
	}
}

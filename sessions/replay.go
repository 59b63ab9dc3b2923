package sessions

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"tandem/backend"
)

// ThreadReady is what a replay yields in place of a live `thread/start`
// (or `thread/resume`) response: the thread's settings for the status line
// and, for a resumed thread, its history. The caller turns it into the
// model's ready message.
type ThreadReady struct {
	ThreadID, Model, Cwd, Approval, Sandbox string
	// Name is the thread's name ("" when it has none).
	Name    string
	History []backend.Turn
}

// ThreadSwitch is what a replay yields when the recorded client opened
// another thread mid-session: Response is the server's answer (the new
// thread and its history), How "new", "resumed", "forked" or "rewound"
// (a fork cut before BeforeTurn).
type ThreadSwitch struct {
	Response   backend.ThreadResponse
	How        string
	BeforeTurn string
}

// PlayerStatus is sent by Player.Run whenever the playback state changes.
// Speed is the playback rate (1 = as recorded); Step and Steps count the
// events delivered and in total.
type PlayerStatus struct {
	Paused, Done bool
	Speed        float64
	Step, Steps  int
}

// String is the status line text: what the playback is doing (playing or
// paused, at its speed, or finished), then how to quit first, as a narrow
// status line cuts from the end — e.g. "replay playing at 2× · ctrl+c
// quits · space pause · → step · +/- speed".
func (s PlayerStatus) String() string {
	speed := fmt.Sprintf("at %g×", s.Speed)
	switch {
	case s.Done:
		return "replay finished · ctrl+c quits"
	case s.Paused:
		return "replay paused " + speed + " · ctrl+c quits · space resume · → step · +/- speed"
	}
	return "replay playing " + speed + " · ctrl+c quits · space pause · → step · +/- speed"
}

// Speeds are the playback rates + and - step through.
var Speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16}

// step is one value to deliver at a virtual time (idle gaps capped, not
// yet scaled by speed).
type step struct {
	at  time.Duration
	msg any
}

type control int

const (
	ctlToggle control = iota
	ctlStep
	ctlFaster
	ctlSlower
)

// PlayerOptions configure a Player.
type PlayerOptions struct {
	// Speed is the initial playback rate; 0 means 1.
	Speed float64
	// IdleLimit caps every pause between two events; 0 means no cap.
	IdleLimit time.Duration
	// StayAtEnd keeps Run, at the end, waiting for a Seek until its
	// context ends (tandem replay, whose search may go back).
	StayAtEnd bool
}

// Player replays a recording as the stream of values a live
// backend.Session gives its Sink: backend.Event and backend.ServerRequest
// values (decoded with backend.DecodeNotification and DecodeRequest), plus
// ThreadReady first and PlayerStatus on every change. A server request is
// answered by a reply function that only records the answer; at the time
// the recorded client answered it, the player yields a
// backend.RequestResolvedEvent so the form closes as it did. Prompts the
// user sent are drawn from the server's userMessage items, steers
// included; a recording without such items (older servers) gets them
// made from its `turn/start` and `turn/steer` requests instead.
type Player struct {
	steps  []step
	ctl    chan control
	seek   chan int // Seek's step (replayfind.go)
	stay   bool     // PlayerOptions.StayAtEnd
	speed  float64
	paused bool
}

// NewPlayer prepares rec for playback.
func NewPlayer(rec *Recording, opts PlayerOptions) *Player {
	p := &Player{ctl: make(chan control, 32), seek: make(chan int, 1), speed: opts.Speed, stay: opts.StayAtEnd}
	if p.speed <= 0 {
		p.speed = 1
	}
	p.steps = buildSteps(rec, opts.IdleLimit)
	return p
}

// Steps returns how many values Run will deliver (status messages aside).
func (p *Player) Steps() int { return len(p.steps) }

// Toggle pauses or resumes playback. It never blocks.
func (p *Player) Toggle() { p.control(ctlToggle) }

// Step delivers the next event at once (also while paused).
func (p *Player) Step() { p.control(ctlStep) }

// Faster and Slower move to the next or previous rate of Speeds.
func (p *Player) Faster() { p.control(ctlFaster) }

// Slower: see Faster.
func (p *Player) Slower() { p.control(ctlSlower) }

func (p *Player) control(c control) {
	select {
	case p.ctl <- c:
	default: // a flood of keys: drop the surplus
	}
}

// Run delivers the recording to send with its original timing until the
// end or until ctx ends. send may block (e.g. tea.Program.Send). Run must
// be called once.
func (p *Player) Run(ctx context.Context, send func(any)) {
	var pos time.Duration
	i := 0
	status := func() {
		send(PlayerStatus{Paused: p.paused, Done: i >= len(p.steps), Speed: p.speed, Step: i, Steps: len(p.steps)})
	}
	deliver := func() {
		pos = p.steps[i].at
		send(p.steps[i].msg)
		i++
	}
	apply := func(c control) {
		switch c {
		case ctlToggle:
			p.paused = !p.paused
		case ctlStep:
			if i < len(p.steps) {
				deliver()
			}
		case ctlFaster, ctlSlower:
			p.speed = nextSpeed(p.speed, c == ctlFaster)
		}
		status()
	}
	ended := false // the end's status was sent (StayAtEnd)
	// seekTo delivers up to and including step n at once (Seek).
	seekTo := func(n int) {
		n = min(max(n, 0), len(p.steps)-1)
		if n < i {
			send(PlayerRestart{})
			i = 0
		}
		for i <= n {
			deliver()
		}
		ended = false
		status()
	}
	status()
	for {
		if i >= len(p.steps) {
			if !p.stay {
				break
			}
			// The end: a Seek (back) may play on.
			if !ended {
				status()
				ended = true
			}
			select {
			case n := <-p.seek:
				seekTo(n)
				continue
			case c := <-p.ctl:
				apply(c)
				continue
			case <-ctx.Done():
				return
			}
		}
		if p.paused {
			select {
			case c := <-p.ctl:
				apply(c)
			case n := <-p.seek:
				seekTo(n)
			case <-ctx.Done():
				return
			}
			continue
		}
		wait := time.Duration(float64(p.steps[i].at-pos) / p.speed)
		if wait <= 0 {
			deliver()
			continue
		}
		began := time.Now()
		t := time.NewTimer(wait)
		select {
		case <-t.C:
			deliver()
		case c := <-p.ctl:
			t.Stop()
			pos += time.Duration(float64(time.Since(began)) * p.speed)
			pos = min(pos, p.steps[i].at)
			apply(c)
		case n := <-p.seek:
			t.Stop()
			seekTo(n)
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
	status()
}

func nextSpeed(cur float64, faster bool) float64 {
	if faster {
		for _, s := range Speeds {
			if s > cur {
				return s
			}
		}
		return Speeds[len(Speeds)-1]
	}
	for i := len(Speeds) - 1; i >= 0; i-- {
		if Speeds[i] < cur {
			return Speeds[i]
		}
	}
	return Speeds[0]
}

// hasUserItems reports whether the server sent userMessage items (codex
// 0.169.0 does, for every turn/start and turn/steer input).
func hasUserItems(rec *Recording) bool {
	for _, e := range rec.Entries {
		m, ok := e.Message()
		if !ok || e.Dir != backend.Received || m.Kind() != "notification" || !bytes.Contains(m.Params, []byte(`"userMessage"`)) {
			continue // the cheap test first: most lines are deltas
		}
		if ev, _ := backend.DecodeNotification(m.Method, m.Params); ev != nil {
			if c, ok := ev.(backend.ItemCompletedEvent); ok && c.Item.Type == "userMessage" {
				return true
			}
		}
	}
	return false
}

// ignoreReply is the reply function of replayed requests: the recording
// already holds the answer, so nothing is sent anywhere.
func ignoreReply(any, *backend.RPCError) error { return nil }

// buildSteps turns the transcript into the values a Session would have
// fed its sink, each at its recorded time with idle gaps capped.
func buildSteps(rec *Recording, idle time.Duration) []step {
	type timed struct {
		t   int64
		msg any
	}
	var out []timed
	sentCall := map[string]backend.Call{} // client request id → call
	openRequests := map[string]string{}   // server request id → thread
	var ready *ThreadReady
	thread := ""
	userSeq := 0
	skipped := rec.Skipped
	openTurns := map[string]bool{} // turns started and not completed
	synthesize := !hasUserItems(rec)
	// The command center's other lanes (lane.go): the replay shows the
	// session's own thread; theirs are not switched to, and said.
	lanes := rec.Lanes()
	laneOf := laneThreads(lanes)
	// keep reports whether a decoded notification or request v goes into
	// the replay: it decoded (a failure is counted as skipped), is known,
	// and is of the recorded thread.
	keep := func(v interface{ Thread() string }, err error) bool {
		if err != nil {
			skipped++
			return false
		}
		return v != nil && (v.Thread() == "" || thread == "" || v.Thread() == thread)
	}
	var lastT int64
	for _, e := range rec.Entries {
		lastT = max(lastT, e.T)
		m, ok := e.Message()
		if !ok {
			skipped++
			continue
		}
		switch {
		case e.Dir == backend.Sent && m.Kind() == "request":
			call, err := backend.DecodeCall(m.Method, m.Params)
			if err != nil || call == nil {
				continue
			}
			sentCall[m.ID.String()] = call
			if p, ok := call.(backend.PromptCall); ok && synthesize {
				userSeq++
				it := backend.Item{Type: "userMessage", ID: fmt.Sprintf("replay-user-%d", userSeq)}
				for _, text := range p.Texts {
					it.Content = append(it.Content, backend.UserContent{Type: "text", Text: text})
				}
				out = append(out, timed{e.T, backend.ItemCompletedEvent{Item: it}})
			}
		case e.Dir == backend.Sent && m.Kind() == "response":
			if th, ok := openRequests[m.ID.String()]; ok {
				delete(openRequests, m.ID.String())
				out = append(out, timed{e.T, backend.RequestResolvedEvent{ThreadID: th, RequestID: m.ID}})
			}
		case e.Dir == backend.Received && m.Kind() == "response":
			open, ok := sentCall[m.ID.String()].(backend.ThreadOpenCall)
			if !ok || m.Error != nil {
				continue
			}
			resp, err := open.DecodeResult(m.Result)
			if err != nil || laneOf[resp.Thread.ID] {
				continue
			}
			thread = resp.Thread.ID
			r := ThreadReady{
				ThreadID: resp.Thread.ID, Model: resp.Model, Cwd: resp.Cwd,
				Approval: backend.PolicyString(resp.ApprovalPolicy), Sandbox: resp.Sandbox.Mode(),
			}
			if resp.Thread.Name != nil {
				r.Name = *resp.Thread.Name
			}
			if open.Resume || open.Fork {
				r.History = resp.Thread.Turns
			}
			if ready == nil {
				ready = &r
			} else {
				// /new, /resume, /fork or a rewind: the viewer switches.
				how := "new"
				switch {
				case open.Fork && open.BeforeTurn != "":
					how = "rewound"
				case open.Fork:
					how = "forked"
				case open.Resume:
					how = "resumed"
				}
				out = append(out, timed{e.T, ThreadSwitch{Response: resp, How: how, BeforeTurn: open.BeforeTurn}})
			}
		case e.Dir == backend.Received && m.Kind() == "notification":
			ev, err := backend.DecodeNotification(m.Method, m.Params)
			if !keep(ev, err) {
				continue
			}
			switch x := ev.(type) {
			case backend.TurnStartedEvent:
				openTurns[x.Turn.ID] = true
			case backend.TurnCompletedEvent:
				delete(openTurns, x.Turn.ID)
			}
			out = append(out, timed{e.T, ev})
		case e.Dir == backend.Received && m.Kind() == "request":
			req, err := backend.DecodeRequest(m.Method, m.ID, m.Params, ignoreReply)
			if !keep(req, err) {
				continue
			}
			openRequests[m.ID.String()] = req.Thread()
			out = append(out, timed{e.T, req})
		}
	}
	// A recording cut mid-turn ends that turn, so nothing keeps counting.
	if len(openTurns) > 0 {
		out = append(out, timed{lastT, backend.WarningEvent{Message: "the recording ends here, in the middle of a turn"}})
		for _, o := range out {
			if ev, ok := o.msg.(backend.TurnStartedEvent); ok && openTurns[ev.Turn.ID] {
				delete(openTurns, ev.Turn.ID)
				done := backend.TurnCompletedEvent{Turn: backend.Turn{ID: ev.Turn.ID, Status: backend.TurnCompleted}}
				done.ThreadID = ev.ThreadID
				out = append(out, timed{lastT, done})
			}
		}
	}
	var steps []step
	if ready != nil {
		steps = append(steps, step{0, *ready})
	}
	if skipped > 0 {
		steps = append(steps, step{0, backend.WarningEvent{Message: skippedText(skipped)}})
	}
	if len(lanes) > 0 {
		steps = append(steps, step{0, backend.WarningEvent{Message: lanesText(lanes)}})
	}
	var at time.Duration
	var last int64
	for i, o := range out {
		gap := time.Duration(o.t-last) * time.Millisecond
		if i == 0 {
			gap = min(gap, time.Second) // don't wait for codex to start
		}
		if gap < 0 {
			gap = 0
		}
		if idle > 0 && gap > idle {
			gap = idle
		}
		at += gap
		last = o.t
		steps = append(steps, step{at, o.msg})
	}
	return steps
}

// skippedText is the one notice for the lines of a recording that could
// not be read.
func skippedText(n int) string {
	if n == 1 {
		return "1 line of this recording could not be read and was skipped"
	}
	return fmt.Sprintf("%d lines of this recording could not be read and were skipped", n)
}

// lanesText is the notice of a replay whose recording holds other
// threads of the command center: the replay shows the first.
func lanesText(ls []Lane) string {
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Title
		if names[i] == "" {
			names[i] = l.Thread
		}
		names[i] = strconv.Quote(names[i])
	}
	what := "1 more thread"
	if len(ls) > 1 {
		what = strconv.Itoa(len(ls)) + " more threads"
	}
	return "this recording holds " + what + " of the command center (" + strings.Join(names, ", ") +
		"): the replay shows the first thread; tandem export writes them all"
}

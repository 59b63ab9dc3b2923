package pair

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/hub"
	"tandem/model"
)

// pump hands the viewer's log entries to its program in order. send
// blocks only this viewer (Program.Send waits for its own Update loop).
func (ps *Server) pump(v *hub.Viewer, h *hub.Hub, name string, send func(tea.Msg)) {
	role := v.Who().Role
	for {
		batch, ok := v.Next()
		if !ok {
			return
		}
		for _, e := range batch {
			select {
			case <-v.Done():
				return
			default:
			}
			if r, ok := e.(sessionReady); ok {
				msg := r.msg
				if role == hub.Watcher {
					msg.Client = nil
				} else if msg.Client != nil {
					msg.Client = attributed{Client: msg.Client, who: name, ps: ps, hub: h}
				}
				e = msg
			}
			send(e)
		}
	}
}

// attributed is a driver's handle on the shared session: each prompt it
// sends (turn/start, turn/steer), each `!` shell command
// (thread/shellCommand) and each interrupt is logged in the hub as a
// hub.ActionEvent with the driver's name just before it goes out, so every
// viewer's transcript says who did it; under `serve --record` the
// recording notes prompts and commands too.
type attributed struct {
	backend.Client
	who string
	ps  *Server
	hub *hub.Hub // the lane's
}

func (a attributed) did(kind hub.ActionKind, text string) {
	a.hub.Publish(hub.ActionEvent{Who: a.who, Kind: kind, Text: text})
	switch {
	case kind == hub.ActionPrompt && a.ps.note != nil:
		a.ps.note(a.who, text)
	case kind == hub.ActionInterrupt && a.ps.noteDid != nil:
		a.ps.noteDid(a.who, "interrupted the turn")
	}
}

// StartTurn implements backend.Client.
func (a attributed) StartTurn(ctx context.Context, in backend.TurnInput) (backend.Turn, error) {
	a.did(hub.ActionPrompt, in.Text)
	return a.Client.StartTurn(ctx, in)
}

// ShellCommand implements backend.Client; it is noted as "!command".
func (a attributed) ShellCommand(ctx context.Context, command string) error {
	a.did(hub.ActionPrompt, "!"+command)
	return a.Client.ShellCommand(ctx, command)
}

// Steer implements backend.Client.
func (a attributed) Steer(ctx context.Context, in backend.TurnInput) error {
	a.did(hub.ActionPrompt, in.Text)
	return a.Client.Steer(ctx, in)
}

// Interrupt implements backend.Client.
func (a attributed) Interrupt(ctx context.Context) error {
	a.did(hub.ActionInterrupt, "")
	return a.Client.Interrupt(ctx)
}

// Attach runs the host's own terminal on the session, as a driver named
// name; it returns when the host quits it (which ends the session) or ctx
// ends. info, when set, is shown first as an info banner in the host's
// view only. opts are extra program options (tests give input and
// output).
func (ps *Server) Attach(ctx context.Context, name, info string, opts ...tea.ProgramOption) error {
	_, err := ps.attachRun(ctx, name, info, opts...)
	return err
}

// attachRun is Attach, returning the program's final model.
func (ps *Server) attachRun(ctx context.Context, name, info string, opts ...tea.ProgramOption) (tea.Model, error) {
	c := &clientState{name: name, role: hub.Driver}
	ps.mu.Lock()
	p := tea.NewProgram(ps.newDeckLocked(c), append([]tea.ProgramOption{tea.WithContext(ctx)}, opts...)...) // lanes.go
	c.p = p
	ps.host, ps.hostView = p, c
	ps.mu.Unlock()
	defer func() {
		ps.mu.Lock()
		ps.host, ps.hostView = nil, nil
		c.leaveAll() // its cursors, its models' spilled command output
		ps.mu.Unlock()
	}()
	if info != "" {
		go p.Send(model.InfoMsg{Text: info}) // Send blocks until the program runs
	}
	c.start(ps)
	return p.Run()
}

// WatchIdle ends the session (calls end) once nobody has been connected
// for d: it counts from the first tick (every d/4, at most 1 s) that saw
// nobody, so it never fires early. It returns after end, or when ctx
// ends.
func (ps *Server) WatchIdle(ctx context.Context, d time.Duration, end func()) {
	tick := time.NewTicker(min(d/4+time.Millisecond, time.Second))
	defer tick.Stop()
	var emptySince time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			switch {
			case len(ps.hub.Present()) > 0:
				emptySince = time.Time{}
			case emptySince.IsZero():
				emptySince = now
			case now.Sub(emptySince) >= d:
				ps.log.Info("idle timeout", "after", d)
				end()
				return
			}
		}
	}
}

// restartCall is one restart of the app-server, which drivers who ask
// while it runs wait for and share.
type restartCall struct {
	done chan struct{}
	info model.RestartInfo
	err  error
	// joined counts the drivers who asked while it ran (under ps.mu).
	joined int
}

// restart runs Options.Restart for the driver who, unless one is under
// way: then it waits for that one and returns its outcome, so two
// drivers pressing F5 at once start one app-server, not two.
func (ps *Server) restart(who, lastTurn string) (model.RestartInfo, error) {
	return ps.restartLane(FirstLane, who, lastTurn)
}

// restartLane is restart for lane id (Options.RestartLane past the
// first lane): one restart per lane at a time, shared by the drivers
// who ask while it runs.
func (ps *Server) restartLane(id deck.LaneID, who, lastTurn string) (model.RestartInfo, error) {
	ps.mu.Lock()
	if c := ps.restarting[id]; c != nil {
		c.joined++
		ps.mu.Unlock()
		<-c.done
		return c.info, c.err
	}
	c := &restartCall{done: make(chan struct{})}
	ps.restarting[id] = c
	ps.mu.Unlock()
	ps.log.Info("restarting the app-server for everyone", "by", who, "lane", id)
	if id == FirstLane {
		c.info, c.err = ps.restartFn(who, lastTurn)
	} else {
		c.info, c.err = ps.laneFn(id, who, lastTurn)
	}
	ps.mu.Lock()
	delete(ps.restarting, id)
	joined := c.joined
	ps.mu.Unlock()
	close(c.done)
	ps.log.Info("app-server restart ended", "by", who, "lane", id, "also asked", joined, "err", c.err)
	return c.info, c.err
}

package pair

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	"charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"tandem/backend"
	"tandem/internal/deck"
	"tandem/internal/hub"
	"tandem/model"
	"tandem/model/keys"
	"tandem/ui"
)

// sshFPS is the frame rate of an SSH client's program.
const sshFPS = 30

// Options configure a Server.
type Options struct {
	// Keys decide who may join, and as driver or watcher.
	Keys *Keyring
	// Status is the status line every viewer starts with (workspace,
	// policies, model) until the session names its own.
	Status ui.StatusInfo
	// Log receives the server's log lines; nil discards them.
	Log *slog.Logger
	// InsecureHostKey accepts a host key readable by group or others, or
	// owned by another user (--insecure-host-key-perms); Warn tells the
	// host about it.
	InsecureHostKey bool
	Warn            func(string)
	// Note, when set, is told which driver sent each prompt, just before
	// it goes out (serve --record).
	Note func(who, text string)
	// NoteDid, when set, is told of a driver's other actions (an
	// interrupt, an answer to a request) as the transcript says them
	// ("interrupted the turn", "approved the command").
	NoteDid func(who, did string)
	// HostNoAltScreen runs the host's own view (Attach) inline, its
	// finished cells in the host terminal's scrollback (serve --attach
	// --no-alt-screen). SSH guests always get the alternate screen.
	HostNoAltScreen bool
	// KeyMap is the keymap of every viewer's model, the host's own and
	// the guests' (the host's config's [keys]; nil: keys.Default()). The
	// models only read it.
	KeyMap *keys.Map
	// Restart, when set, lets drivers restart the session's app-server for
	// everyone (F5, /restart): it closes the session, starts a new
	// app-server and resumes the thread on it, and its ready message
	// (published through Publish) has RestartedBy = who, the driver who
	// asked; lastTurn is that driver's newest turn. Concurrent asks share
	// one restart (Server.restart).
	Restart func(who, lastTurn string) (model.RestartInfo, error)
	// RestartLane, when set, is Restart for the shared deck's other
	// lanes: a driver's F5 in lane id opens it again on the live
	// app-server (restarting a dead one first, for every lane) and
	// rejoins its thread; its ready message (through PublishLane) has
	// RestartedBy = who. Concurrent asks for one lane share one restart.
	RestartLane func(id deck.LaneID, who, lastTurn string) (model.RestartInfo, error)
	// LoginGrace is how long a guest whose ssh has the host key may take
	// to log in (Limits.LoginGrace; 0: DefaultLoginGrace, 120 s). The
	// host is told of each guest dropped for it (see Warn).
	LoginGrace time.Duration
	// Host, when set, carries out the drivers' command center actions
	// (new thread, rename, archive, interrupt, stop): each viewer's
	// program is a deck (internal/deck) over every lane of the session,
	// the first lane the one Publish feeds. Without it a driver's deck
	// says it can't.
	Host Host
}

// Server hosts one agent session for many viewers over SSH: the hub that
// logs the session's events, the keyring, and one Bubble Tea program per
// SSH client, each at the client's own terminal size. The session feeds
// it through Publish; SSHServer builds the SSH server; Shutdown ends it
// all.
type Server struct {
	hub    *hub.Hub
	keys   *Keyring
	status ui.StatusInfo
	log    *slog.Logger
	// guard bounds connections (handshake deadline, idle timeout, caps,
	// per-address rate), with the default Limits.
	guard *Guard
	// seats caps the terminals open per key and in all; channels caps
	// the sessions one connection may open and what their requests cost.
	seats    Seats
	channels Channels
	// insecureHostKey accepts a host key readable by group or others, or
	// owned by another user; warn tells the host about it.
	insecureHostKey bool
	warn            func(string)
	// fingerprint is the host key's, "SHA256:…", set by SSHServer.
	fingerprint string
	// note, when set, records who sent a prompt (serve --record).
	note    func(who, text string)
	noteDid func(who, did string)
	// hostInline is Options.HostNoAltScreen.
	hostInline bool
	// keyMap is Options.KeyMap; loginGrace Options.LoginGrace.
	keyMap     *keys.Map
	loginGrace time.Duration
	// restartFn is Options.Restart; restarting the restart under way
	// (under mu), which later asks wait for.
	restartFn  func(who, lastTurn string) (model.RestartInfo, error)
	laneFn     func(id deck.LaneID, who, lastTurn string) (model.RestartInfo, error)
	restarting map[deck.LaneID]*restartCall
	// told rations the host's lines about guests dropped before they
	// logged in (hostLine).
	told *rate.Limiter

	// deckHost is Options.Host.
	deckHost Host

	mu      sync.Mutex
	clients map[ssh.Session]*clientState
	// lanes are the shared deck's lanes, the first (FirstLane, hub) first;
	// closed: Shutdown began, no lane is added.
	lanes  []*laneHub
	closed bool
	// hostView is the host's own viewer while Attach runs.
	hostView *clientState
	// frame is the watchers' frame interval now (watcherFrame; 0 before
	// the first client), frameSeq the FrameRateMsg that said it.
	frame    time.Duration
	frameSeq int
	// ending is why the session ends, once Shutdown began ("" before):
	// each guest's leave says it on the guest's terminal.
	ending string
	// host is the host's own program while Attach runs (nil otherwise):
	// lines for the host go there rather than to stderr.
	host *tea.Program
}

// clientState is one viewer of the deck (an SSH client, or the host's
// own view): its program, and for each lane its model and its cursor
// into the lane's hub (under Server.mu).
type clientState struct {
	p     *tea.Program
	name  string
	role  hub.Role
	guest bool
	lanes []joined
	// dropped are the models of lanes dropped while c runs, closed when
	// it leaves.
	dropped []*model.Model
}

// watcherFrame is the frame interval of every watcher's program while n
// clients are connected: model.DefaultFrame (30 a second) for each 10 of
// them, up to a second, so that however many watch they draw about 300
// frames a second together and the session keeps the app-server's pace
// (#17); it changes every 10 clients, not at each join. Drivers keep 30
// a second; every client still gets the final state of each item.
func watcherFrame(n int) time.Duration {
	return min(model.DefaultFrame*time.Duration(max(1, n/10)), time.Second)
}

// retune tells the watchers their frame interval when the client count
// changed it (ps.mu held), and reports whether it did. A message is sent
// by a goroutine of its own (Send waits for the program); its Seq keeps a
// late one from undoing a newer.
func (ps *Server) retune() bool {
	every := watcherFrame(len(ps.clients))
	if every == ps.frame {
		return false
	}
	ps.frame = every
	ps.frameSeq++
	msg := model.FrameRateMsg{Every: every, Seq: ps.frameSeq}
	for _, c := range ps.clients {
		if c.role == hub.Watcher {
			c.sendAll(msg)
		}
	}
	return true
}

// sessionReady is the hub's log entry for "the thread is open"; each
// viewer gets it as a model.SessionReadyMsg, with the shared Client for
// drivers and none for watchers.
type sessionReady struct{ msg model.SessionReadyMsg }

// New returns a Server with no client yet. It turns on the shared
// Markdown cache (ui.ShareMarkdown) for the process.
func New(opts Options) *Server {
	// Every client's program renders the same answers, mostly at the same
	// few widths: each Markdown block is rendered once for all of them.
	ui.ShareMarkdown(true)
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ps := &Server{
		hub: hub.New(), keys: opts.Keys, status: opts.Status, log: log,
		insecureHostKey: opts.InsecureHostKey, warn: opts.Warn, note: opts.Note, noteDid: opts.NoteDid, hostInline: opts.HostNoAltScreen,
		keyMap: opts.KeyMap, loginGrace: opts.LoginGrace, restartFn: opts.Restart, laneFn: opts.RestartLane, restarting: map[deck.LaneID]*restartCall{}, deckHost: opts.Host, clients: map[ssh.Session]*clientState{},
		told: rate.NewLimiter(rate.Every(time.Minute/hostLinesPerMinute), hostLinesPerMinute),
	}
	ps.watchAnswers(ps.hub)
	ps.lanes = []*laneHub{{lane: deck.Lane{ID: FirstLane}, hub: ps.hub}}
	return ps
}

// watchAnswers notes each driver's answer in h (serve --record).
func (ps *Server) watchAnswers(h *hub.Hub) {
	if ps.noteDid != nil {
		h.OnAnswer(func(e backend.RequestResolvedEvent) {
			ps.noteDid(e.By, e.Answer+" "+backend.DescribeRequest(e.Method))
		})
	}
}

// Publish is the session's send function: the ready message is logged
// without its Client (it is handed out per role), the rest as is. It is
// safe for concurrent use and never waits for a viewer.
func (ps *Server) Publish(msg tea.Msg) {
	if r, ok := msg.(model.SessionReadyMsg); ok {
		ps.hub.Publish(sessionReady{msg: r})
		return
	}
	ps.hub.Publish(msg)
}

// member authorizes sess's key again for its session (the auth callback
// saw the same key, user and address).
func (ps *Server) member(sess ssh.Session) (Member, error) {
	return ps.keys.Authorize(sess.PublicKey(), sess.User(), sess.RemoteAddr(), time.Now())
}

// SSHServer builds the wish server: public-key auth only, against the
// keyring; one program per PTY session. hostKey is the host key's path,
// created when missing (LoadHostKey). The caller serves it on its own
// listener (Serve) and ends it with Shutdown.
func (ps *Server) SSHServer(hostKey string) (*ssh.Server, error) {
	pemKey, err := LoadHostKey(hostKey, ps.insecureHostKey, ps.warn)
	if err != nil {
		return nil, err
	}
	if ps.fingerprint, err = HostKeyFingerprint(pemKey); err != nil {
		return nil, err
	}
	srv, err := wish.NewServer(
		wish.WithHostKeyPEM(pemKey),
		wish.WithPublicKeyAuth(func(ctx ssh.Context, key ssh.PublicKey) bool {
			m, err := ps.keys.Authorize(key, ctx.User(), ctx.RemoteAddr(), time.Now())
			if err != nil {
				ps.log.Warn("ssh auth rejected", "fingerprint", gossh.FingerprintSHA256(key), "addr", ctx.RemoteAddr().String(), "why", err.Error())
				return false
			}
			if !ps.guard.Offered(ctx, key) {
				return false
			}
			ps.log.Info("ssh auth", "name", m.Name, "role", m.Role.String())
			return true
		}),
		// The last listed runs first: gate refuses keys that may not
		// open a terminal and clamps the terminal's size, activeterm
		// rejects sessions without a PTY, bubbletea runs the client's
		// program, and leave runs once that program has ended.
		wish.WithMiddleware(
			ps.leave,
			bubbletea.MiddlewareWithProgramHandler(ps.program),
			activeterm.Middleware(),
			ps.gate,
		),
	)
	if err != nil {
		return nil, err
	}
	ps.guard = NewGuard(Limits{LoginGrace: ps.loginGrace}, ps.log)
	ps.guard.OnLateLogin(func(addr string, after time.Duration) {
		ps.hostLine(fmt.Sprintf("a guest from %s had the host key but did not log in within %v — disconnected (--login-grace)", addr, after))
	})
	ps.guard.Install(srv)
	ps.channels.Install(srv)
	return srv, nil
}

// Fingerprint is the host key's SHA-256 fingerprint, "SHA256:…", for
// guests to check ssh's first-connection prompt against; empty until
// SSHServer has loaded the key.
func (ps *Server) Fingerprint() string { return ps.fingerprint }

// hostLinesPerMinute bounds the host's lines about guests dropped before
// logging in: a flood of them is in the log, not on the host's screen.
const hostLinesPerMinute = 3

// hostLine tells the host (only: guests don't see it) of something about
// the pairing itself: in the host's own view when it is attached, else
// through Options.Warn (serve's stderr). A line over hostLinesPerMinute
// goes only to the log.
func (ps *Server) hostLine(text string) {
	ps.log.Info("told the host", "line", text)
	if !ps.told.Allow() {
		return
	}
	ps.mu.Lock()
	host := ps.host
	ps.mu.Unlock()
	switch {
	case host != nil:
		go host.Send(model.InfoMsg{Text: text}) // Send waits for the program
	case ps.warn != nil:
		ps.warn(text)
	}
}

// gate is the outermost middleware: a key whose authorized_keys line
// forbids a terminal (no-pty, or restrict without pty), or that already
// holds its share of terminals (ps.seats), is told so and let go; every
// other session continues with its terminal clamped to
// MaxWidth×MaxHeight.
func (ps *Server) gate(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		// The clamp reads the session's window changes from the start:
		// a refused session's would otherwise fill the library's channel
		// and stall the whole connection for good.
		clamped := Clamp(sess)
		m, err := ps.member(sess)
		if err != nil {
			wish.Fatalln(sess, "tandem serve: "+err.Error())
			return
		}
		if m.NoPTY {
			ps.log.Info("ssh session refused: no-pty", "name", m.Name)
			wish.Fatalln(sess, "tandem serve: this key may not open a terminal ("+m.Why+"), and tandem needs one")
			return
		}
		release, err := ps.seats.Take(gossh.FingerprintSHA256(sess.PublicKey()))
		if err != nil {
			ps.log.Warn("ssh session refused", "name", m.Name, "why", err.Error())
			wish.Fatalln(sess, "tandem serve: "+err.Error())
			return
		}
		defer release()
		defer ps.guard.TerminalStarted(sess.Context())()
		next(clamped)
	}
}

// program is the wish ProgramHandler: a program at the client's own size
// (clamped), fed from the hub until the client leaves.
func (ps *Server) program(sess ssh.Session) *tea.Program {
	m, err := ps.member(sess)
	if err != nil {
		return nil
	}
	// 30 frames a second is plenty over a network and halves the render
	// cost each client puts on the host.
	opts := append(bubbletea.MakeOptions(sess), tea.WithContext(sess.Context()), tea.WithoutSignalHandler(), tea.WithFPS(sshFPS))
	c := &clientState{name: m.Name, role: m.Role, guest: true}
	ps.mu.Lock()
	p := tea.NewProgram(ps.newDeckLocked(c), opts...) // lanes.go
	c.p = p
	ps.clients[sess] = c
	if !ps.retune() && m.Role == hub.Watcher && ps.frame != model.DefaultFrame {
		c.sendAll(model.FrameRateMsg{Every: ps.frame, Seq: ps.frameSeq}) // the rate the others have
	}
	ps.mu.Unlock()
	if c, ok := sess.(*ClampedSession); ok {
		c.OnClamp(func(asked ssh.Window) {
			text := fmt.Sprintf("your terminal is %d×%d; tandem serve draws at most %d×%d", asked.Width, asked.Height, MaxWidth, MaxHeight)
			go p.Send(model.InfoMsg{Text: text}) // Send blocks until the program runs
		})
	}
	c.start(ps) // lanes.go: each lane's log, then its live tail
	go func() {
		// A dropped connection ends the program (the middleware quits
		// it); this covers a program that never ran.
		<-sess.Context().Done()
		ps.mu.Lock()
		for _, j := range c.lanes {
			j.v.Leave()
		}
		ps.mu.Unlock()
	}()
	return p
}

// leave is the innermost middleware: it runs when a client's program has
// ended (the client quit or disconnected) and takes it off the roster.
// The session goes on.
func (ps *Server) leave(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		ps.mu.Lock()
		if c, ok := ps.clients[sess]; ok {
			c.leaveAll() // its cursors, its models' spilled command output
		}
		delete(ps.clients, sess)
		_ = ps.retune()
		why := ps.ending
		ps.mu.Unlock()
		if why != "" {
			// The program has left the alternate screen: the line stays
			// on the guest's terminal, above ssh's own "closed".
			_, _ = io.WriteString(sess.Stderr(), "\r\ntandem serve: "+why+"\r\n")
		}
		next(sess)
	}
}

// quitAll asks every SSH client's program to quit.
func (ps *Server) quitAll() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, c := range ps.clients {
		c.p.Quit()
	}
}

// EndHost is what a guest is told when the host ends the session (quits
// the attached view, Ctrl+C, a signal, --idle-timeout); EndDaemon when
// the session's thread goes on on the codex daemon.
const (
	EndHost   = "the host ended the session"
	EndDaemon = "the host ended the session (the shared thread goes on on the codex daemon)"
)

// EndingBecause sets what every guest is told, on their terminal, when
// Shutdown disconnects them (default EndHost, or EndDaemon when
// durable); the first reason given stays.
func (ps *Server) EndingBecause(why string) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.ending == "" {
		ps.ending = why
	}
}

// Shutdown ends the shared session: pending requests are refused (never
// accepted), every client is told why (EndingBecause) and disconnected,
// srv stops, then the connection to the app-server (sess, which may be
// nil) closes. With durable (the codex daemon) nothing is refused: the
// turn goes on there, and its requests are asked again when the thread
// is resumed.
func (ps *Server) Shutdown(srv *ssh.Server, sess *backend.Session, durable bool) {
	if durable {
		ps.EndingBecause(EndDaemon)
	}
	ps.EndingBecause(EndHost)
	ps.mu.Lock()
	ps.closed = true
	lanes := slices.Clone(ps.lanes)
	ps.mu.Unlock()
	if durable {
		ps.log.Info("leaving the shared session on the daemon")
	} else {
		n := 0
		for _, l := range lanes {
			n += l.hub.RefusePending()
		}
		if n > 0 {
			ps.log.Info("refused pending requests on exit", "n", n)
		}
	}
	ps.quitAll()
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if sess != nil {
		_ = sess.Close()
	}
	for _, l := range lanes {
		l.hub.Close()
	}
	if ps.guard != nil {
		ps.guard.Close()
	}
}

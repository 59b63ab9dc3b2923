package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	charmlog "charm.land/log/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	"charm.land/wish/v2/bubbletea"
	"github.com/spf13/cobra"
	gossh "golang.org/x/crypto/ssh"

	"tandem/backend"
	"tandem/internal/hub"
	"tandem/internal/pair"
	"tandem/model"
	"tandem/sessions"
	"tandem/ui"
)

// serveFlags are `tandem serve`'s own options (the session flags are the
// shared flags).
type serveFlags struct {
	listen         string
	authorizedKeys string
	watcherKeys    string
	idleTimeout    time.Duration
	attach         bool
	hostKey        string
	// insecureHostKey accepts a host key readable by group or others, or
	// owned by another user.
	insecureHostKey bool
}

func newServeCmd() *cobra.Command {
	var f flags
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Share one live session over SSH (pair with a colleague)",
		Long: "serve hosts one agent session and lets colleagues join it with ssh, each at their own terminal size.\n" +
			"Keys in --authorized-keys join as drivers (type, interrupt, answer approvals); keys in --watcher-keys\n" +
			"join as watchers (scroll, pager, leave). Other keys and passwords are rejected. The key files are\n" +
			"read at start; the host key's fingerprint is printed for guests to check.\n" +
			"authorized_keys options honoured: from=, expiry-time=, cert-authority with principals=, no-pty and\n" +
			"restrict (refused: tandem needs a terminal); any other option stops serve with FILE:LINE.\n" +
			"Unauthenticated connections get 10 s to log in; terminals are drawn at most 500×200; a connection\n" +
			"may open 2 sessions, a key hold 8 connections and 4 terminals, the session serve 100. Guests get\n" +
			"no $EDITOR, $PAGER or /approvals (those are the host's), and /copy uses the guest's terminal (OSC 52).\n" +
			"--record FILE records the shared session, noting which driver typed each prompt or !command.\n" +
			"Every limit (handshake, pending and login caps, rates, keepalives) is in the README's security model.",
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.validate(); err != nil {
				return err
			}
			if sf.authorizedKeys == "" {
				return &usageError{"serve needs --authorized-keys FILE (the drivers' public keys)"}
			}
			return runServe(cmd.Context(), f, sf)
		},
	}
	f.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&sf.listen, "listen", "127.0.0.1:2222", "address the SSH server listens on")
	fs.StringVar(&sf.authorizedKeys, "authorized-keys", "", "authorized_keys file of the drivers (required)")
	fs.StringVar(&sf.watcherKeys, "watcher-keys", "", "authorized_keys file of the watchers (read-only)")
	fs.DurationVar(&sf.idleTimeout, "idle-timeout", 0, "end the session after nobody has been connected for this long (0: never)")
	fs.BoolVar(&sf.attach, "attach", false, "also open this terminal on the session, as a driver")
	fs.StringVar(&sf.hostKey, "host-key", "", "SSH host key (default: $XDG_DATA_HOME/tandem/host_ed25519, created if missing)")
	fs.BoolVar(&sf.insecureHostKey, "insecure-host-key-perms", false, "accept a host key file that group or others can read, or another user owns (warns)")
	return cmd
}

// defaultHostKey is $XDG_DATA_HOME/tandem/host_ed25519 (~/.local/share
// when unset). pair.LoadHostKey creates what is missing.
func defaultHostKey() (string, error) {
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("host key: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(dir, "tandem", "host_ed25519"), nil
}

// sessionReady is the hub's log entry for "the thread is open"; each
// viewer gets it as a model.SessionReadyMsg, with the shared Driver for
// drivers and none for watchers.
type sessionReady struct{ msg model.SessionReadyMsg }

// sshFPS is the frame rate of an SSH client's program.
const sshFPS = 30

// pairServer hosts one session for many viewers: the hub, the keys, and
// one Bubble Tea program per SSH client.
type pairServer struct {
	hub    *hub.Hub
	keys   *pair.Keyring
	status ui.StatusInfo
	log    *slog.Logger
	// guard bounds unauthenticated connections (handshake deadline, idle
	// timeout, caps, per-address rate); limits are its settings.
	guard  *pair.Guard
	limits pair.Limits
	// seats caps the terminals open per key and in all; channels caps
	// the sessions one connection may open and what their requests cost.
	seats    pair.Seats
	channels pair.Channels
	// insecureHostKey accepts a host key readable by group or others, or
	// owned by another user (--insecure-host-key-perms); warn tells the
	// host about it.
	insecureHostKey bool
	warn            func(string)
	// fingerprint is the host key's, "SHA256:…", for guests to check
	// ssh's first-connection prompt against.
	fingerprint string
	// note, when set, records who sent a prompt (serve --record).
	note func(who, text string)

	mu      sync.Mutex
	clients map[ssh.Session]sshClientState
}

// sshClientState is one connected SSH client: its program and its cursor
// into the hub.
type sshClientState struct {
	p *tea.Program
	m *model.Model
	v *hub.Viewer
}

func newPairServer(keys *pair.Keyring, status ui.StatusInfo, log *slog.Logger) *pairServer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &pairServer{hub: hub.New(), keys: keys, status: status, log: log, clients: map[ssh.Session]sshClientState{}}
}

// publish is the session's send function: the ready message is logged
// without its Driver (it is handed out per role), the rest as is.
func (ps *pairServer) publish(msg tea.Msg) {
	if r, ok := msg.(model.SessionReadyMsg); ok {
		ps.hub.Publish(sessionReady{msg: r})
		return
	}
	ps.hub.Publish(msg)
}

// member authorizes sess's key again for its session (the auth callback
// saw the same key, user and address).
func (ps *pairServer) member(sess ssh.Session) (pair.Member, error) {
	return ps.keys.Authorize(sess.PublicKey(), sess.User(), sess.RemoteAddr(), time.Now())
}

// sshServer builds the wish server: public-key auth only, against the
// keyring; one program per PTY session. hostKey is the host key's path,
// created when missing (pair.LoadHostKey).
func (ps *pairServer) sshServer(addr, hostKey string) (*ssh.Server, error) {
	pemKey, err := pair.LoadHostKey(hostKey, ps.insecureHostKey, ps.warn)
	if err != nil {
		return nil, err
	}
	if ps.fingerprint, err = pair.HostKeyFingerprint(pemKey); err != nil {
		return nil, err
	}
	srv, err := wish.NewServer(
		wish.WithAddress(addr),
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
	ps.guard = pair.NewGuard(ps.limits, ps.log)
	ps.guard.Install(srv)
	ps.channels.Install(srv)
	return srv, nil
}

// gate is the outermost middleware: a key whose authorized_keys line
// forbids a terminal (no-pty, or restrict without pty), or that already
// holds its share of terminals (ps.seats), is told so and let go; every
// other session continues with its terminal clamped to
// pair.MaxWidth×pair.MaxHeight.
func (ps *pairServer) gate(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		// The clamp reads the session's window changes from the start:
		// a refused session's would otherwise fill the library's channel
		// and stall the whole connection for good.
		clamped := pair.Clamp(sess)
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

// newModel returns a viewer's own model: shared transcript, read-only for
// watchers; guest is set for SSH clients (model.Options.Guest: nothing
// runs on the host for them), not for the host's own terminal.
func (ps *pairServer) newModel(role hub.Role, guest bool) *model.Model {
	return model.New(model.Options{
		Dark:     true,
		NoColor:  os.Getenv("NO_COLOR") != "",
		Status:   ps.status,
		ReadOnly: role == hub.Watcher,
		Shared:   true,
		Guest:    guest,
	})
}

// program is the wish ProgramHandler: a program at the client's own size
// (clamped), fed from the hub until the client leaves.
func (ps *pairServer) program(sess ssh.Session) *tea.Program {
	m, err := ps.member(sess)
	if err != nil {
		return nil
	}
	// 30 frames a second is plenty over a network and halves the render
	// cost each client puts on the host.
	opts := append(bubbletea.MakeOptions(sess), tea.WithContext(sess.Context()), tea.WithoutSignalHandler(), tea.WithFPS(sshFPS))
	cm := ps.newModel(m.Role, true)
	p := tea.NewProgram(cm, opts...)
	v := ps.hub.Join(m.Name, m.Role)
	ps.mu.Lock()
	ps.clients[sess] = sshClientState{p: p, m: cm, v: v}
	ps.mu.Unlock()
	if c, ok := sess.(*pair.ClampedSession); ok {
		c.OnClamp(func(asked ssh.Window) {
			text := fmt.Sprintf("your terminal is %d×%d; tandem serve draws at most %d×%d", asked.Width, asked.Height, pair.MaxWidth, pair.MaxHeight)
			go p.Send(model.InfoMsg{Text: text}) // Send blocks until the program runs
		})
	}
	go ps.pump(v, m.Name, p.Send)
	go func() {
		// A dropped connection ends the program (the middleware quits
		// it); this covers a program that never ran.
		select {
		case <-sess.Context().Done():
			v.Leave()
		case <-v.Done():
		}
	}()
	return p
}

// leave is the innermost middleware: it runs when a client's program has
// ended (the client quit or disconnected) and takes it off the roster.
// The session goes on.
func (ps *pairServer) leave(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		ps.mu.Lock()
		c, ok := ps.clients[sess]
		delete(ps.clients, sess)
		ps.mu.Unlock()
		if ok {
			c.v.Leave()
			c.m.Close() // its spilled command output
		}
		next(sess)
	}
}

// quitAll asks every SSH client's program to quit.
func (ps *pairServer) quitAll() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, c := range ps.clients {
		c.p.Quit()
	}
}

// pump hands the viewer's log entries to its program in order. send
// blocks only this viewer (Program.Send waits for its own Update loop).
func (ps *pairServer) pump(v *hub.Viewer, name string, send func(tea.Msg)) {
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
					msg.Driver = nil
				} else if td, ok := msg.Driver.(model.ThreadDriver); ok && ps.note != nil {
					msg.Driver = attributed{ThreadDriver: td, who: name, note: ps.note}
				}
				e = msg
			}
			send(e)
		}
	}
}

// attributed is a driver's handle on the shared session under `serve
// --record`: each prompt it sends (turn/start, turn/steer) and each `!`
// shell command (thread/shellCommand) is noted with the driver's name
// just before it goes out, so the recording says who typed it.
type attributed struct {
	model.ThreadDriver
	who  string
	note func(who, text string)
}

// StartTurn implements model.Driver.
func (a attributed) StartTurn(ctx context.Context, text string) (backend.Turn, error) {
	a.note(a.who, text)
	return a.ThreadDriver.StartTurn(ctx, text)
}

// StartTurnWith implements model.ThreadDriver.
func (a attributed) StartTurnWith(ctx context.Context, text string, o backend.TurnOptions) (backend.Turn, error) {
	a.note(a.who, text)
	return a.ThreadDriver.StartTurnWith(ctx, text, o)
}

// Call implements model.ThreadDriver; a shell command is noted as
// "!command".
func (a attributed) Call(ctx context.Context, method string, params, result any) error {
	if p, ok := params.(backend.ThreadShellCommandParams); ok {
		a.note(a.who, "!"+p.Command)
	}
	return a.ThreadDriver.Call(ctx, method, params, result)
}

// SteerTurn implements model.ThreadDriver.
func (a attributed) SteerTurn(ctx context.Context, text string) error {
	a.note(a.who, text)
	return a.ThreadDriver.SteerTurn(ctx, text)
}

// runServe hosts the session until SIGINT/SIGTERM, --idle-timeout, or the
// host leaving the --attach view.
func runServe(ctx context.Context, f flags, sf serveFlags) (err error) {
	keys, err := pair.LoadKeyring(sf.authorizedKeys, sf.watcherKeys)
	if err != nil {
		return &usageError{err.Error()}
	}
	hostKey := sf.hostKey
	if hostKey == "" {
		if hostKey, err = defaultHostKey(); err != nil {
			return err
		}
	}
	codex, err := f.locateCodex() // codexpath.go
	if err != nil {
		return err
	}
	log, closeLog := openLog(f.logFile)
	defer closeLog.Close()
	enableSubreaper(log)
	// wish logs through charm's logger to stderr, which is the host's
	// terminal under --attach: send it to the log file instead.
	if w, ok := closeLog.(io.Writer); ok {
		charmlog.SetOutput(w)
	} else {
		charmlog.SetOutput(io.Discard)
	}
	cwd := f.cd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cwd, _ = filepath.Abs(cwd)
	// --record and --trace-protocol record the one shared session.
	closeTraces, err := f.openTraces(cwd) // diag.go
	if err != nil {
		return err
	}
	defer func() { // a recording cut short is reported, never lost silently
		if cerr := closeTraces(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	// The same transport as an interactive run (run.go): local codex
	// with the config's args and env, or over --ssh / --remote.
	transport, cleanupHome, err := f.appServerTransport(codex, cwd, log) // settings.go
	if err != nil {
		return err
	}
	defer cleanupHome()

	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	ps := newPairServer(keys, ui.StatusInfo{Cwd: f.statusCwd(cwd), Approval: f.approval, Sandbox: f.sandbox, Model: f.model}, log)
	ps.insecureHostKey = sf.insecureHostKey
	ps.warn = func(s string) { fmt.Fprintln(os.Stderr, "tandem serve: "+s) }
	if rec := f.recorder; rec != nil {
		ps.note = func(who, text string) { rec.Mark("author", sessions.Author{Who: who, Text: text}) }
		rec.OnError(func(err error) {
			log.Error("recording stopped", "file", f.record, "err", err)
			go ps.hub.Publish(backend.WarningEvent{Message: "--record " + f.record + ": recording stopped (" + err.Error() + "); the session goes on"})
		})
	}
	srv, err := ps.sshServer(sf.listen, hostKey)
	if err != nil {
		return fmt.Errorf("ssh server: %w", err)
	}
	ln, err := net.Listen("tcp", sf.listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, ssh.ErrServerClosed) {
			log.Error("ssh server", "err", err)
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	sharing := fmt.Sprintf("sharing one session on %s — a guest runs: ssh -p %s %s (host key %s)", ln.Addr(), port, guestHost(sf.listen), ps.fingerprint)
	if !sf.attach {
		fmt.Fprintln(os.Stderr, "tandem serve: "+sharing)
		fmt.Fprintln(os.Stderr, "Ctrl+C ends the session for everyone.")
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The app-server starts in the background, so clients (and the
	// host's --attach view) get their first frame at once; the ready (or
	// failed) message reaches them through the hub's log.
	sessCh := make(chan *backend.Session, 1)
	startErr := make(chan error, 1)
	go func() {
		sess, err := startSession(ctx, transport, f, cwd, log, ps.publish)
		sessCh <- sess
		if err != nil {
			ps.hub.Publish(model.SessionFailedMsg{Err: err})
			startErr <- err
		}
	}()
	idled := make(chan struct{})
	if sf.idleTimeout > 0 {
		go ps.watchIdle(ctx, sf.idleTimeout, func() { close(idled); cancel() })
	}
	if sf.attach {
		// The attached view hides the terminal: the line goes in it.
		err = ps.attach(ctx, hostName(), sharing)
		cancel()
	} else {
		select {
		case <-ctx.Done():
		case err = <-startErr:
		}
	}
	cancel()
	ps.shutdown(srv, <-sessCh)
	select {
	case <-idled:
		fmt.Fprintf(os.Stderr, "tandem serve: nobody connected for %v — session ended\n", sf.idleTimeout)
	default:
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// attach runs the host's own terminal on the session, as a driver; it
// returns when the host quits it (which ends the session) or ctx ends.
// info, when set, is shown first as an info banner in the host's view
// only. opts are extra program options (tests give input and output).
func (ps *pairServer) attach(ctx context.Context, name, info string, opts ...tea.ProgramOption) error {
	_, err := ps.attachRun(ctx, name, info, opts...)
	return err
}

// attachRun is attach, returning the program's final model.
func (ps *pairServer) attachRun(ctx context.Context, name, info string, opts ...tea.ProgramOption) (tea.Model, error) {
	m := ps.newModel(hub.Driver, false)
	defer m.Close() // its spilled command output
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, opts...)...)
	v := ps.hub.Join(name, hub.Driver)
	defer v.Leave()
	if info != "" {
		go p.Send(model.InfoMsg{Text: info}) // Send blocks until the program runs
	}
	go ps.pump(v, name, p.Send)
	return p.Run()
}

// watchIdle ends the session (calls end) once nobody has been connected
// for d: it counts from the first tick (every d/4, at most 1 s) that saw
// nobody, so it never fires early.
func (ps *pairServer) watchIdle(ctx context.Context, d time.Duration, end func()) {
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

// shutdown ends the shared session: pending requests are refused (never
// accepted), every client is disconnected, then the app-server stops.
func (ps *pairServer) shutdown(srv *ssh.Server, sess *backend.Session) {
	if n := ps.hub.RefusePending(); n > 0 {
		ps.log.Info("refused pending requests on exit", "n", n)
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
	ps.hub.Close()
	if ps.guard != nil {
		ps.guard.Close()
	}
}

// hostName is the host's presence name: "USER (host)".
func hostName() string {
	name := os.Getenv("USER")
	if name == "" {
		if u, err := user.Current(); err == nil {
			name = u.Username
		}
	}
	if name == "" {
		return "host"
	}
	return name + " (host)"
}

// guestHost is the host part of the ssh line a guest runs: the listen
// address when it is specific, else this machine's hostname.
func guestHost(listen string) string {
	h, _, err := net.SplitHostPort(listen)
	if err != nil || h == "" || h == "0.0.0.0" || h == "::" {
		if n, err := os.Hostname(); err == nil {
			return n
		}
		return "HOST"
	}
	if h == "127.0.0.1" || h == "::1" {
		return "localhost"
	}
	return h
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	charmlog "charm.land/log/v2"
	"charm.land/ssh"
	"github.com/spf13/cobra"

	"tandem/backend"
	"tandem/config"
	"tandem/internal/pair"
	"tandem/model"
	"tandem/sessions"
)

// ServeOptions are the command line of `tandem serve`: the session flags
// and serve's own.
type ServeOptions struct {
	Session        SessionOptions
	Listen         string        // --listen ADDR
	AuthorizedKeys string        // --authorized-keys FILE: the drivers (required)
	WatcherKeys    string        // --watcher-keys FILE: the watchers
	IdleTimeout    time.Duration // --idle-timeout (0: never)
	// LoginGrace (--login-grace) is how long a guest whose ssh has the
	// host key may take to log in (pair.Limits.LoginGrace).
	LoginGrace time.Duration
	Attach     bool   // --attach: this terminal joins as a driver
	HostKey    string // --host-key ("": pair.DefaultHostKey)
	// Via (--via [user@]host[:port]) publishes the pairing port on that
	// bastion with ssh -N -R; ViaOptions (--via-option) are its -o options.
	Via        string
	ViaOptions []string
	// InsecureHostKey (--insecure-host-key-perms) accepts a host key
	// readable by group or others, or owned by another user.
	InsecureHostKey bool
}

func newServeCmd(f *Factory) *cobra.Command {
	var opts ServeOptions
	cmd := command("serve", cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		return runServe(cmd.Context(), f, opts, cmd.ErrOrStderr())
	})
	opts.Session.register(cmd.Flags())
	opts.Session.registerScreen(cmd.Flags()) // the --attach view's; guests keep the alternate screen
	fs := cmd.Flags()
	fs.StringVar(&opts.Listen, "listen", "127.0.0.1:2222", "address the SSH server listens on")
	fs.StringVar(&opts.AuthorizedKeys, "authorized-keys", "", "authorized_keys file of the drivers (required)")
	fs.StringVar(&opts.WatcherKeys, "watcher-keys", "", "authorized_keys file of the watchers (read-only)")
	durationFlag(fs, &opts.IdleTimeout, "idle-timeout", 0, true, time.Second, 365*24*time.Hour, "end the session after nobody has been connected for this long (0: never)")
	durationFlag(fs, &opts.LoginGrace, "login-grace", pair.DefaultLoginGrace, false, time.Second, 24*time.Hour, "how long a guest whose ssh shows the host key may take to log in (reading the fingerprint, typing a passphrase), as sshd's LoginGraceTime")
	fs.BoolVar(&opts.Attach, "attach", false, "also open this terminal on the session, as a driver")
	fs.StringVar(&opts.HostKey, "host-key", "", "SSH host key (default: $XDG_DATA_HOME/tandem/host_ed25519, created if missing)")
	fs.StringVar(&opts.Via, "via", "", "also publish the session on a jump host, [user@]bastion[:port], with the system ssh -N -R (your ssh config, agent and ProxyJump apply); prints the line a guest runs")
	fs.StringArrayVar(&opts.ViaOptions, "via-option", nil, "ssh option for --via, passed as ssh -o OPTION (repeatable)")
	fs.BoolVar(&opts.InsecureHostKey, "insecure-host-key-perms", false, "accept a host key file that group or others can read, or another user owns (warns)")
	return cmd
}

// runServe hosts the session (pair.Server) until SIGINT/SIGTERM,
// --idle-timeout, or the host leaving the --attach view. Its lines for
// the host go to stderr.
func runServe(ctx context.Context, f *Factory, opts ServeOptions, stderr io.Writer) (err error) {
	cfg, err := opts.Session.resolve()
	if err != nil {
		return err
	}
	if opts.AuthorizedKeys == "" {
		return &usageError{"serve needs --authorized-keys FILE (the drivers' public keys)"}
	}
	if opts.LoginGrace <= 0 {
		return &usageError{"--login-grace must be positive, e.g. 2m"}
	}
	var via *config.SSHTarget
	if opts.Via != "" {
		t, err := config.ParseSSHTarget(opts.Via)
		if err != nil {
			return &usageError{"--via: " + err.Error()}
		}
		via = &t
	}
	keys, err := pair.LoadKeyring(opts.AuthorizedKeys, opts.WatcherKeys)
	if err != nil {
		return &usageError{err.Error()}
	}
	hostKey := opts.HostKey
	if hostKey == "" {
		if hostKey, err = pair.DefaultHostKey(); err != nil {
			return err
		}
	}
	// The same setup as an interactive run: local codex with the
	// config's args and env, or over --ssh / --remote; --record and
	// --trace-protocol record the one shared session.
	env, err := f.setup(cfg, setupHooks{stderr: stderr})
	if err != nil {
		return err
	}
	defer env.closeInto(&err) // a recording cut short is reported, never lost silently
	log := env.log
	// wish logs through charm's logger to stderr, which is the host's
	// terminal under --attach: send it to the log file instead.
	charmlog.SetOutput(env.logOut)

	if ctx == nil {
		ctx = context.Background()
	}
	// Ctrl+C ends the session (exit 0); SIGTERM and SIGHUP too, but tandem
	// serve then exits 143 or 129 (exitstatus.go).
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	sig := catchSignals(ctx, func(os.Signal) { stop() }, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer sig.Stop()
	defer func() {
		if err == nil {
			err = sig.Status(os.Interrupt)
		}
	}()

	po := env.pairOptions(keys, opts.InsecureHostKey, stderr)
	po.LoginGrace = opts.LoginGrace
	// The session's owner (owner.go) starts the app-server, and restarts
	// it when a driver asks; its context ends with the session.
	octx, ocancel := context.WithCancel(ctx)
	defer ocancel()
	owner := newSessionOwner(octx, env, nil, nil)
	owner.first = env.startServeSession // servedaemon.go
	if !cfg.durable() {
		// A driver's F5 or /restart restarts the app-server for everyone
		// and resumes the thread; on the daemon the session re-attaches
		// instead, which serve does not offer (yet).
		po.Restart = func(who, lastTurn string) (model.RestartInfo, error) {
			owner.revive.Lock() // another lane's F5 (live) waits for it, and finds it live
			defer owner.revive.Unlock()
			return owner.restartBy(who, lastTurn)
		}
	}
	// The shared deck (servedeck.go): the session's thread is the first
	// lane; a driver's command center starts others on the same
	// app-server.
	host := newServeHost(octx, env)
	po.Host = host
	if !cfg.durable() { // each lane's F5 of its own (servedeck.go)
		po.RestartLane = host.restartLane
	}
	ps := pair.New(po)
	host.attach(ps, owner)
	defer host.close() // every lane's session but the first
	owner.send = onceAdvisories(env.state(), ps.Publish)
	env.reportRecordErrors(ps.Publish)
	if opts.Attach { // the attached view hides the terminal (warn.go)
		env.warn.attach(ps.Publish)
	}
	srv, err := ps.SSHServer(hostKey)
	if err != nil {
		return fmt.Errorf("ssh server: %w", err)
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, ssh.ErrServerClosed) {
			log.Error("ssh server", "err", err)
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	sharing := fmt.Sprintf("sharing one session on %s — a guest runs: ssh -p %s %s (host key %s)", ln.Addr(), port, pair.GuestHost(opts.Listen), ps.Fingerprint())
	if !opts.Attach {
		fmt.Fprintln(stderr, "tandem serve: "+sharing)
		fmt.Fprintln(stderr, "Ctrl+C ends the session for everyone.")
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if via != nil {
		say := func(line string) { fmt.Fprintln(stderr, "tandem serve: "+line) }
		if opts.Attach { // the attached view hides the terminal: into the session
			say = func(line string) { ps.Publish(backend.WarningEvent{Message: line}) }
		}
		waitVia, err := startVia(ctx, *via, opts.ViaOptions, ln, ps.Fingerprint(), say)
		defer func() { cancel(); waitVia() }() // the tunnel's ssh is gone before serve returns
		if err != nil {
			cancel()
			_ = srv.Close()
			return err
		}
	}
	// The app-server starts in the background, so clients (and the
	// host's --attach view) get their first frame at once; the ready (or
	// failed) message reaches them through the hub's log.
	startErr := make(chan error, 1)
	go func() {
		if err := owner.start(); err != nil {
			startErr <- err
		}
	}()
	idled := make(chan struct{})
	if opts.IdleTimeout > 0 {
		go ps.WatchIdle(ctx, opts.IdleTimeout, func() { close(idled); cancel() })
	}
	// A SIGTSTP would freeze every guest with the host: refused, and said
	// (suspend.go; the host's Ctrl+Z says so in its view).
	go refuseTSTP(ctx, func() {
		log.Info("signal", "sig", "SIGTSTP", "refused", true)
		if opts.Attach {
			ps.Publish(backend.WarningEvent{Message: serveTSTPRefused})
			return
		}
		fmt.Fprintln(stderr, "tandem serve: "+serveTSTPRefused)
	})
	if opts.Attach {
		// The attached view hides the terminal: the line goes in it.
		err = ps.Attach(ctx, pair.HostName(), sharing)
	} else {
		select {
		case <-ctx.Done():
		case err = <-startErr:
			ps.EndingBecause("the session ended: codex app-server could not start")
		}
	}
	cancel()
	ocancel()
	sess := owner.current(65 * time.Second) // a restart under way ends first
	durable := cfg.durable()
	ps.Shutdown(srv, sess, durable)
	if durable {
		sayDaemonLeft(stderr, sess)
	}
	select {
	case <-idled:
		fmt.Fprintf(stderr, "tandem serve: nobody connected for %v — session ended\n", opts.IdleTimeout)
	default:
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// pairOptions are the pairing server's options: who may join (keyring),
// the status line, the log, the host view's screen, the keymap every
// viewer's model gets (the host's config's [keys]), and with --record
// the notes of who did what; the server's warnings go to stderr.
func (e *runEnv) pairOptions(keyring *pair.Keyring, insecureHostKey bool, stderr io.Writer) pair.Options {
	o := pair.Options{
		Keys:            keyring,
		Status:          e.status(),
		Log:             e.log,
		InsecureHostKey: insecureHostKey,
		HostNoAltScreen: !e.cfg.settings.AltScreen,
		KeyMap:          e.cfg.keys,
		Warn:            func(s string) { fmt.Fprintln(stderr, "tandem serve: "+s) },
	}
	if rec := e.recorder; rec != nil {
		o.Note = func(who, text string) { rec.Mark("author", sessions.Author{Who: who, Text: text}) }
		o.NoteDid = func(who, did string) { rec.Mark("author", sessions.Author{Who: who, Did: did}) }
	}
	return o
}

// onceAdvisories is publish without the advisories codex repeats at every
// start (backend.WarningEvent.Advisory: the bubblewrap note) after their
// first showing on this machine, as the chat's turn machine does with its
// own state (st.Once); st nil shows them always.
func onceAdvisories(st *sessions.Store, publish func(tea.Msg)) func(tea.Msg) {
	return func(msg tea.Msg) {
		if w, ok := msg.(backend.WarningEvent); ok && w.Advisory() && st != nil && !st.Once("warning: "+w.Text()) {
			return
		}
		publish(msg)
	}
}

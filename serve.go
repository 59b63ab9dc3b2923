package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	charmlog "charm.land/log/v2"
	"charm.land/ssh"
	"github.com/spf13/cobra"

	"tandem/backend"
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
	// insecureHostKey accepts a host key readable by group or others.
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
			"join as watchers (scroll and leave). Other keys and passwords are rejected.\n" +
			"authorized_keys options honoured: from=, expiry-time=, cert-authority with principals=, no-pty and\n" +
			"restrict (refused: tandem needs a terminal); any other option stops serve with FILE:LINE.\n" +
			"Unauthenticated connections get 10 s to log in; terminals are drawn at most 500×200.\n" +
			"--record FILE records the shared session, noting which driver typed each prompt.",
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
	fs.BoolVar(&sf.insecureHostKey, "insecure-host-key-perms", false, "accept a host key file that group or others can read (warns)")
	return cmd
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
		if hostKey, err = pair.DefaultHostKey(); err != nil {
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

	popts := pair.Options{
		Keys:            keys,
		Status:          ui.StatusInfo{Cwd: f.statusCwd(cwd), Approval: f.approval, Sandbox: f.sandbox, Model: f.model},
		Log:             log,
		InsecureHostKey: sf.insecureHostKey,
		Warn:            func(s string) { fmt.Fprintln(os.Stderr, "tandem serve: "+s) },
	}
	rec := f.recorder
	if rec != nil {
		popts.Note = func(who, text string) { rec.Mark("author", sessions.Author{Who: who, Text: text}) }
	}
	ps := pair.New(popts)
	if rec != nil {
		rec.OnError(func(err error) {
			log.Error("recording stopped", "file", f.record, "err", err)
			go ps.Publish(backend.WarningEvent{Message: "--record " + f.record + ": recording stopped (" + err.Error() + "); the session goes on"})
		})
	}
	srv, err := ps.SSHServer(sf.listen, hostKey)
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
	sharing := fmt.Sprintf("sharing one session on %s — a guest runs: ssh -p %s %s", ln.Addr(), port, pair.GuestHost(sf.listen))
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
		sess, err := startSession(ctx, transport, f, cwd, log, ps.Publish)
		sessCh <- sess
		if err != nil {
			ps.Publish(model.SessionFailedMsg{Err: err})
			startErr <- err
		}
	}()
	idled := make(chan struct{})
	if sf.idleTimeout > 0 {
		go ps.WatchIdle(ctx, sf.idleTimeout, func() { close(idled); cancel() })
	}
	if sf.attach {
		// The attached view hides the terminal: the line goes in it.
		err = ps.Attach(ctx, pair.HostName(), sharing)
		cancel()
	} else {
		select {
		case <-ctx.Done():
		case err = <-startErr:
		}
	}
	cancel()
	ps.Shutdown(srv, <-sessCh)
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

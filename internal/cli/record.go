package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"github.com/spf13/cobra"

	"tandem/backend"
	"tandem/sessions"
	"tandem/ui"
)

// RecordOptions are the command line of `tandem record -o FILE
// [--idle-limit S] -- [tandem args]`.
type RecordOptions struct {
	// Output is -o/--output (required): an asciicast, or with a .svg or
	// .gif extension a picture drawn from one (see `tandem export`).
	Output        string
	IdleTimeLimit float64  // --idle-limit (or --idle-time-limit), seconds: the header's, a picture's cap
	Args          []string // the recorded tandem's arguments
	// CastVersion is --cast-version: the asciicast version, 3 (asciinema
	// 3's, the default) or 2.
	CastVersion int
	// Turns is --turns for a picture: only that range of turns ("2-4").
	Turns string
}

func newRecordCmd() *cobra.Command {
	var opts RecordOptions
	cmd := command("record", cobra.ArbitraryArgs, func(cmd *cobra.Command, args []string) error {
		opts.Args = args
		return runRecord(cmd.Context(), opts)
	})
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "file to write: an asciicast (.cast), or an animated picture (.svg, .gif)")
	idleLimitFlag(cmd.Flags(), &opts.IdleTimeLimit, "idle-limit", "cap pauses at this many seconds: the cast's idle_time_limit (players cap at it), a picture's pauses")
	// asciinema's name for it, which this flag had first.
	idleLimitFlag(cmd.Flags(), &opts.IdleTimeLimit, "idle-time-limit", "the same as --idle-limit")
	castVersionFlag(cmd.Flags(), &opts.CastVersion)
	cmd.Flags().StringVar(&opts.Turns, "turns", "", "a picture (.svg, .gif) of only these turns: 2-4, 3, or 2- (to the end)")
	return cmd
}

// terminalSize returns the size of the terminal on fd, or $COLUMNS×$LINES,
// or 80×24.
func terminalSize(fd uintptr) (int, int) {
	if w, h, err := term.GetSize(fd); err == nil && w > 0 && h > 0 {
		return w, h
	}
	w, _ := strconv.Atoi(os.Getenv("COLUMNS"))
	h, _ := strconv.Atoi(os.Getenv("LINES"))
	if w <= 0 || h <= 0 {
		return 80, 24
	}
	return w, h
}

// runRecord runs tandem with opts.Args in a pty mirrored to this
// terminal (os.Stdin, os.Stdout) and writes the asciicast to opts.Output.
func runRecord(ctx context.Context, opts RecordOptions) error {
	if opts.Output == "" {
		return &usageError{"record: -o FILE is required"}
	}
	out, idle, args := opts.Output, opts.IdleTimeLimit, opts.Args
	if !(idle >= 0) || math.IsInf(idle, 0) {
		return &usageError{fmt.Sprintf("invalid value %g for --idle-limit: seconds, 0 or more", idle)}
	}
	version, err := castVersion(opts.CastVersion)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	// -o demo.svg|demo.gif: the cast goes to a file beside it first, and
	// the picture is drawn from it at the end.
	pic := strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), ".")
	castPath := out
	if pic == "svg" || pic == "gif" {
		tmp, err := os.CreateTemp(filepath.Dir(out), ".tandem-record-*.cast")
		if err != nil {
			return fmt.Errorf("record: %w", err)
		}
		castPath = tmp.Name()
		tmp.Close()
		defer func() { _ = os.Remove(castPath) }() // unless kept (castPath "")
	} else {
		pic = ""
	}
	if opts.Turns != "" && pic == "" {
		return &usageError{"--turns cuts a picture (-o x.svg or x.gif); a cast keeps every turn (tandem export " + out + " --turns 2-4 -o part.cast cuts one)"}
	}
	if opts.Turns != "" {
		if _, _, err := parseTurns(opts.Turns); err != nil {
			return &usageError{"invalid value for --turns: " + err.Error()}
		}
	}
	f, err := os.OpenFile(castPath, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	defer f.Close()

	stdin := os.Stdin.Fd()
	width, height := terminalSize(stdin)
	env := map[string]string{"TERM": castTerm(os.Getenv("TERM")), "SHELL": os.Getenv("SHELL")}
	title := "tandem"
	if wd, err := os.Getwd(); err == nil {
		title = "tandem · " + ui.ShortHome(wd)
	}
	cast, err := sessions.NewCastWriter(f, sessions.CastHeader{Version: version, Width: width, Height: height, IdleTimeLimit: idle, Env: env, Title: title})
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}

	// Turn boundaries come from the child on its own pipe (fd 3).
	markR, markW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = append(os.Environ(), sessions.MarkerFDEnv+"=3", backend.RedactDisplayEnv+"=1", "TERM="+env["TERM"])
	cmd.ExtraFiles = []*os.File{markW}
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(width), Rows: uint16(height)})
	markW.Close()
	if err != nil {
		markR.Close()
		return fmt.Errorf("record: starting tandem: %w", err)
	}
	defer ptmx.Close()

	markersDone := make(chan struct{})
	go func() {
		defer close(markersDone)
		sc := bufio.NewScanner(markR)
		for sc.Scan() {
			cast.Marker(sc.Text())
		}
		markR.Close()
	}()

	restore := func() {}
	if term.IsTerminal(stdin) {
		state, err := term.MakeRaw(stdin)
		if err == nil {
			var once sync.Once
			restore = func() { once.Do(func() { _ = term.Restore(stdin, state) }) }
			defer restore()
		}
		// Keys go to tandem and nowhere else: input is never recorded.
		// This copy ends with the process (a read on stdin can't be
		// cancelled portably).
		go func() { _, _ = io.Copy(ptmx, os.Stdin) }()
	}

	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	defer signal.Stop(winch)
	stopWinch := make(chan struct{})
	defer close(stopWinch)
	go func() {
		for {
			select {
			case <-winch:
				w, h := terminalSize(stdin)
				if w == width && h == height {
					continue
				}
				width, height = w, h
				_ = pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)})
				cast.Resize(w, h)
			case <-stopWinch:
				return
			}
		}
	}()

	buf := make([]byte, 32<<10)
	for {
		n, rerr := ptmx.Read(buf)
		if n > 0 {
			_, _ = os.Stdout.Write(buf[:n])
			cast.Output(buf[:n])
		}
		if rerr != nil {
			break // EIO once tandem has exited
		}
	}
	werr := cmd.Wait()
	<-markersDone
	restore() // what follows is printed to a cooked terminal
	if err := cast.Close(); err != nil {
		return fmt.Errorf("record: writing %s: %w", out, err)
	}
	if pic != "" {
		if err := f.Close(); err != nil {
			return fmt.Errorf("record: writing %s: %w", castPath, err)
		}
		eo := ExportOptions{File: castPath, Format: pic, Output: out, Theme: "dark", Speed: 1, IdleLimit: idle, Loop: true, Turns: opts.Turns, CastVersion: sessions.CastV3}
		if err := runExport(eo, os.Stdout, os.Stderr); err != nil {
			// The session is not lost: the cast stays beside the picture.
			kept := strings.TrimSuffix(out, filepath.Ext(out)) + ".cast"
			if _, serr := os.Stat(kept); serr == nil || os.Rename(castPath, kept) != nil {
				kept = castPath // never over an existing file
			}
			castPath = ""
			return fmt.Errorf("record: drawing %s: %w (the recording is kept as %s: tandem export %s -o %s)", out, err, kept, kept, out)
		}
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		return fmt.Errorf("recorded tandem %s", backend.ExitDescription(werr))
	}
	return werr
}

// castTerm is the TERM the recorded tandem runs under: the user's, unless
// it tells the renderer it may use extras such as repeating characters
// (REP, "ESC [ n b": tmux, kitty, foot, wezterm, …); those terminals are
// recorded as xterm-256color, which every one of them also speaks. The
// cast is drawn from an emulator's screen (internal/lib/screen), which does
// interpret REP, so a repeated run no longer hides text from the
// redactor; the pin keeps the recorded tandem to the xterm sequences that
// emulator is built for.
func castTerm(term string) string {
	first, _, _ := strings.Cut(term, "-")
	switch first {
	case "", "contour", "foot", "ghostty", "kitty", "rio", "st", "tmux", "wezterm", "alacritty":
		return "xterm-256color"
	case "xterm":
		if rest := strings.TrimPrefix(term, "xterm-"); rest == "ghostty" || rest == "kitty" || rest == "rio" {
			return "xterm-256color"
		}
	}
	return term
}

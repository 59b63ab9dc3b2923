package cli

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"charm.land/bubbles/v2/progress"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"tandem/internal/frames"
	"tandem/internal/lib/screen"
	"tandem/internal/picture"
	"tandem/sessions"
	"tandem/ui"
)

// ExportOptions are the command line of `tandem export FILE`.
type ExportOptions struct {
	File   string // the recording (--record's JSONL) or an asciicast (tandem record's .cast, v2 or v3)
	Format string // --format: md (or markdown), svg, gif, cast; "" follows -o's extension, else md
	Output string // -o/--output FILE; "" or "-" is stdout
	// The picture's flags (svg and gif).
	Cols, Rows int     // --cols/--rows: 0 is the cast's own size, or 100×30 for a recording
	Theme      string  // --theme dark|light
	Speed      float64 // --speed: playback rate
	IdleLimit  float64 // --idle-limit: the longest pause, seconds (0: no cap)
	From, To   string  // --from/--to: seconds, a duration or turn:N
	Loop       bool    // --loop: play forever (default) or stop on the last frame
	Title      string  // --title: the window's title ("" picks one)
	// Turns is --turns: a turn range ("2-4", "3", "2-"), instead of
	// From and To.
	Turns string
	// CastVersion is --cast-version for --format cast: 3 (default) or 2.
	CastVersion int
}

func newExportCmd() *cobra.Command {
	var opts ExportOptions
	cmd := command("export", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		opts.File = args[0]
		return runExport(opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	f := cmd.Flags()
	f.StringVar(&opts.Format, "format", "", "output format: md, svg, gif or cast (default: -o's extension, else md)")
	f.StringVarP(&opts.Output, "output", "o", "", "write to FILE instead of stdout")
	intFlag(f, &opts.Cols, "cols", 0, true, 1, sessions.MaxCastSize, "picture width in cells (default: a cast's own, 100 for a recording)")
	intFlag(f, &opts.Rows, "rows", 0, true, 1, sessions.MaxCastSize, "picture height in cells (default: a cast's own, 30 for a recording)")
	f.StringVar(&opts.Theme, "theme", "dark", "picture colours: dark or light")
	speedFlag(f, &opts.Speed, "picture playback rate (2 = twice as fast)")
	idleLimitFlag(f, &opts.IdleLimit, "idle-limit", "cap every pause of the picture at this many seconds (0 = no cap)")
	f.StringVar(&opts.From, "from", "", "start the picture here: seconds (12.5), a duration (1m30s) or a turn (turn:2)")
	f.StringVar(&opts.To, "to", "", "end the picture here: seconds, a duration, or turn:N (up to turn N+1's start)")
	f.StringVar(&opts.Turns, "turns", "", "only these turns: 2-4 (2 to 4), 3, or 2- (2 to the end); instead of --from/--to")
	castVersionFlag(f, &opts.CastVersion)
	f.BoolVar(&opts.Loop, "loop", true, "play the picture forever (--loop=false stops on the last frame)")
	f.StringVar(&opts.Title, "title", "", "the picture's window title (default: the thread's name, or tandem and its workspace)")
	return cmd
}

// exportFormat is the format opts ask for: --format, else -o's
// extension, else md.
func exportFormat(opts ExportOptions) (string, error) {
	// What -o's extension says ("" when it says nothing: none, or stdout).
	ext := strings.ToLower(filepath.Ext(opts.Output))
	byExt := map[string]string{".svg": "svg", ".gif": "gif", ".md": "md", ".markdown": "md", ".cast": "cast", "": ""}
	fromExt, known := byExt[ext]
	format := strings.ToLower(opts.Format)
	switch format {
	case "":
		if !known {
			return "", &usageError{fmt.Sprintf("can't tell the format from %q: give --format md, svg, gif or cast", filepath.Base(opts.Output))}
		}
		if fromExt == "" {
			return "md", nil
		}
		return fromExt, nil
	case "markdown":
		format = "md"
	case "md", "svg", "gif", "cast":
	default:
		return "", &usageError{fmt.Sprintf("invalid value %q for --format: allowed values are md, svg, gif, cast", opts.Format)}
	}
	if known && fromExt != "" && fromExt != format {
		return "", &usageError{fmt.Sprintf("--format %s, but -o %s says %s", format, filepath.Base(opts.Output), fromExt)}
	}
	return format, nil
}

// runExport writes the recording (or cast) as Markdown or a picture to
// opts.Output, or to stdout; a picture's progress goes to stderr.
func runExport(opts ExportOptions, stdout, stderr io.Writer) error {
	format, err := exportFormat(opts)
	if err != nil {
		return err
	}
	var pic picOptions
	if format != "md" {
		if pic, err = pictureOptions(opts); err != nil {
			return err
		}
	}
	rec, cast, err := sessions.LoadSession(opts.File)
	if err != nil {
		return err
	}
	if cast != nil && format == "md" {
		return &usageError{opts.File + " is an asciicast: it exports as --format svg, gif or cast (Markdown needs a --record transcript)"}
	}
	toFile := opts.Output != "" && opts.Output != "-"
	if format == "gif" && !toFile {
		if f, ok := stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
			return &usageError{"a GIF is binary: give -o FILE or redirect stdout"}
		}
	}
	// The output is written whole or not at all: a file goes to a
	// temporary one beside it, renamed into place at the end; stdout
	// gets the picture once it is drawn.
	var out *atomicFile
	var buf bytes.Buffer
	w := io.Writer(&buf)
	if toFile {
		if out, err = createAtomic(opts.Output); err != nil {
			return err
		}
		defer out.abort()
		w = out.f
	} else if format == "md" {
		w = stdout
	}
	if format == "md" {
		if err := sessions.ExportMarkdown(w, rec); err != nil {
			return err
		}
		if out != nil {
			return out.commit()
		}
		return nil
	}
	if cast != nil && pic.theme != picture.Dark && format != "cast" {
		// A cast holds the colours tandem drew with for the terminal it
		// ran in; only the default colours change.
		fmt.Fprintln(stderr, "tandem export: note: a cast keeps the colours it was recorded with; --theme light changes only the default background and text (a --record transcript is drawn in light styles)")
	}
	began := time.Now()
	bar := newExportProgress(stderr)
	pic.progress = bar.update
	cw := &countWriter{w: w}
	n, err := drawPicture(cw, format, rec, cast, pic)
	bar.done()
	if err != nil {
		return err
	}
	name := "stdout"
	if out != nil {
		if err := out.commit(); err != nil {
			return err
		}
		name = opts.Output
	} else if _, err := stdout.Write(buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "tandem export: %d frames, %s, %s to %s in %.1f s\n", n, format, ui.ByteSize(int64(cw.n)), name, time.Since(began).Seconds())
	return nil
}

// countWriter counts what goes through it.
type countWriter struct {
	w io.Writer
	n int
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// atomicFile is an output written to a temporary file beside its path
// and renamed into place by commit; abort (deferred) removes it unless
// committed, and so does SIGINT, SIGTERM or SIGHUP meanwhile (then
// tandem exits 128+signal), so an existing file is never left half
// written or empty.
type atomicFile struct {
	f    *os.File
	path string
	done bool
	sig  chan os.Signal
}

func createAtomic(path string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tandem-*")
	if err != nil {
		return nil, err
	}
	a := &atomicFile{f: f, path: path, sig: make(chan os.Signal, 1)}
	signal.Notify(a.sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func(name string, sig chan os.Signal) {
		if s, ok := <-sig; ok {
			_ = os.Remove(name)
			code := 128 + 15
			if n, ok := s.(syscall.Signal); ok {
				code = 128 + int(n)
			}
			os.Exit(code)
		}
	}(f.Name(), a.sig)
	return a, nil
}

func (a *atomicFile) stop() {
	signal.Stop(a.sig)
	close(a.sig)
}

func (a *atomicFile) commit() error {
	if a.done {
		return nil
	}
	a.done = true
	defer a.stop()
	if err := a.f.Close(); err != nil {
		_ = os.Remove(a.f.Name())
		return err
	}
	if err := os.Rename(a.f.Name(), a.path); err != nil {
		_ = os.Remove(a.f.Name())
		return err
	}
	return nil
}

func (a *atomicFile) abort() {
	if a.done {
		return
	}
	a.done = true
	a.stop()
	a.f.Close()
	_ = os.Remove(a.f.Name())
}

// picOptions are a picture's checked flags.
type picOptions struct {
	cols, rows int
	theme      *picture.Theme
	timing     picture.Timing
	loop       bool
	title      string
	progress   func(done, total int)
	// castVersion is the asciicast version of --format cast.
	castVersion int
}

// pictureOptions checks the picture flags of opts.
func pictureOptions(opts ExportOptions) (picOptions, error) {
	var p picOptions
	if m := sessions.MaxCastSize; opts.Cols < 0 || opts.Rows < 0 || opts.Cols > m || opts.Rows > m {
		return p, &usageError{fmt.Sprintf("invalid size %d×%d for --cols/--rows: each from 1 to %d", opts.Cols, opts.Rows, m)}
	}
	th, ok := picture.ThemeNamed(opts.Theme)
	if !ok {
		return p, &usageError{fmt.Sprintf("invalid value %q for --theme: allowed values are dark, light", opts.Theme)}
	}
	if !(opts.Speed > 0) || math.IsInf(opts.Speed, 0) || opts.Speed > 1000 {
		return p, &usageError{fmt.Sprintf("invalid value %g for --speed: a number above 0, at most 1000", opts.Speed)}
	}
	if !(opts.IdleLimit >= 0) || math.IsInf(opts.IdleLimit, 0) {
		return p, &usageError{fmt.Sprintf("invalid value %g for --idle-limit: seconds, 0 or more", opts.IdleLimit)}
	}
	p.timing = picture.Timing{Speed: opts.Speed, IdleLimit: time.Duration(opts.IdleLimit * float64(time.Second))}
	var err error
	if opts.From != "" {
		if p.timing.From, err = picture.ParseBound(opts.From); err != nil {
			return p, &usageError{"invalid value for --from: " + err.Error()}
		}
	}
	if opts.To != "" {
		if p.timing.To, err = picture.ParseBound(opts.To); err != nil {
			return p, &usageError{"invalid value for --to: " + err.Error()}
		}
	}
	if opts.Turns != "" {
		if opts.From != "" || opts.To != "" {
			return p, &usageError{"--turns is instead of --from and --to: give one or the other"}
		}
		if p.timing.From, p.timing.To, err = parseTurns(opts.Turns); err != nil {
			return p, &usageError{"invalid value for --turns: " + err.Error()}
		}
	}
	if p.castVersion, err = castVersion(opts.CastVersion); err != nil {
		return p, err
	}
	if f, t := p.timing.From, p.timing.To; f.IsSet() && t.IsSet() &&
		(f.Turn > 0 && t.Turn > 0 && f.Turn > t.Turn || f.Turn == 0 && t.Turn == 0 && f.At > t.At) {
		return p, &usageError{fmt.Sprintf("--from %s comes after --to %s", opts.From, opts.To)}
	}
	p.cols, p.rows, p.theme, p.loop, p.title = opts.Cols, opts.Rows, th, opts.Loop, opts.Title
	return p, nil
}

// drawPicture draws rec (or cast) as an SVG or GIF into w and returns
// the frame count.
func drawPicture(w io.Writer, format string, rec *sessions.Recording, cast *sessions.Cast, p picOptions) (int, error) {
	cols, rows := p.cols, p.rows
	title := p.title
	if cast != nil {
		if cols == 0 {
			cols = cast.Header.Width
		}
		if rows == 0 {
			rows = cast.Header.Height
		}
		if title == "" {
			title = cast.Header.Title
		}
		if title == "" {
			title = "tandem"
		}
	} else if title == "" {
		title = frames.Title(rec)
	}
	if cols <= 0 {
		cols = 100
	}
	if rows <= 0 {
		rows = 30
	}
	o := picture.Options{Cols: cols, Rows: rows, Theme: p.theme, Title: screen.MaskString(title), Loop: p.loop}
	var enc picture.Encoder
	switch format {
	case "svg":
		enc = picture.NewSVG(w, o)
	case "cast":
		// The frames' pauses are already capped (Timing.IdleLimit).
		fc, err := sessions.NewFrameCast(w, sessions.CastHeader{Version: p.castVersion, Width: cols, Height: rows,
			Title: o.Title, Env: map[string]string{"TERM": "xterm-256color"}})
		if err != nil {
			return 0, err
		}
		enc = fc
	default:
		g, err := picture.NewGIF(w, o)
		if err != nil {
			return 0, err
		}
		enc = g
	}
	fo := frames.Options{Cols: cols, Rows: rows, Dark: p.theme.DarkStyle, Progress: p.progress}
	timing := p.timing
	if rec != nil {
		// A recording's pauses are capped between its events, as replay
		// caps them, so the elapsed time tandem draws follows the cap.
		fo.IdleLimit, timing.IdleLimit = timing.IdleLimit, 0
	}
	clip := picture.NewClip(enc, timing)
	var err error
	if cast != nil {
		err = frames.Cast(cast, fo, clip)
	} else {
		err = frames.Recording(rec, fo, clip)
	}
	if err != nil {
		return 0, err
	}
	if err := clip.Close(); err != nil {
		return 0, err
	}
	return enc.Frames(), nil
}

// exportProgress shows a picture export's progress on stderr: a bar
// (bubbles/progress) on a terminal, redrawn at most ten times a second;
// otherwise, for a long session (at least longExport events), a counter
// line at each quarter (the summary line follows either way).
type exportProgress struct {
	w       io.Writer
	bar     progress.Model
	tty     bool
	last    time.Time
	shown   bool
	quarter int
}

// longExport is how many events make a session long enough for a
// counter when stderr is not a terminal.
const longExport = 2000

func newExportProgress(stderr io.Writer) *exportProgress {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return &exportProgress{w: stderr}
	}
	return &exportProgress{w: stderr, tty: true, bar: progress.New(progress.WithWidth(40), progress.WithDefaultBlend())}
}

func (p *exportProgress) update(done, total int) {
	if !p.tty {
		if q := done * 4 / max(total, 1); total >= longExport && q > p.quarter && q < 4 {
			p.quarter = q
			fmt.Fprintf(p.w, "tandem export: %d%% (%d of %d events)\n", q*25, done, total)
		}
		return
	}
	if total == 0 || time.Since(p.last) < 100*time.Millisecond && done < total {
		return
	}
	p.last, p.shown = time.Now(), true
	fmt.Fprintf(p.w, "\r%s %d/%d events", p.bar.ViewAs(float64(done)/float64(total)), done, total)
}

func (p *exportProgress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[2K")
	}
}

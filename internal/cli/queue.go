package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tandem/backend"
	"tandem/internal/lib/redact"
)

// QueueOptions are the command line of `tandem queue THREAD MESSAGE`
// (`tandem queue --last MESSAGE`): the session flags, the thread (an id
// or an exact name; "" with Last) and the message ("-" reads stdin).
type QueueOptions struct {
	Session SessionOptions
	Thread  string
	Last    bool
	Message string
}

// newQueueCmd is `tandem queue THREAD MESSAGE`: a message for a thread's
// next turn through the server's queue (thread/queue/add).
func newQueueCmd(f *Factory) *cobra.Command {
	var opts QueueOptions
	cmd := command("queue", cobra.RangeArgs(1, 2), func(cmd *cobra.Command, args []string) error {
		if err := opts.args(args); err != nil {
			return err
		}
		return runQueue(cmd.Context(), f, opts, stdioOf(cmd))
	})
	registerQueueSession(&opts.Session, cmd.Flags())
	cmd.Flags().BoolVar(&opts.Last, "last", false, "queue on the last thread of this workspace (then MESSAGE is the only argument)")
	return cmd
}

// turnOnlyFlags are the session flags that set a turn or the screen: a
// queued message runs with its thread's settings, so queue has none.
var turnOnlyFlags = map[string]bool{
	"model": true, "ask-for-approval": true, "sandbox": true, "turn-timeout": true, "theme": true,
	"search": true, "add-dir": true, "yolo": true, "dangerously-bypass-approvals-and-sandbox": true,
}

// registerQueueSession adds to fs the session flags that say where the
// app-server is and how it starts (every one but turnOnlyFlags).
func registerQueueSession(o *SessionOptions, fs *pflag.FlagSet) {
	all := pflag.NewFlagSet("session", pflag.ContinueOnError)
	o.register(all)
	all.VisitAll(func(f *pflag.Flag) {
		if !turnOnlyFlags[f.Name] {
			fs.AddFlag(f)
		}
	})
}

// args puts the arguments in o: THREAD MESSAGE, or MESSAGE alone with
// --last. Any other shape is a usage error.
func (o *QueueOptions) args(args []string) error {
	switch {
	case o.Last && len(args) == 1:
		o.Message = args[0]
	case o.Last:
		return &usageError{"queue: give MESSAGE alone with --last, or THREAD MESSAGE without it"}
	case len(args) == 2:
		o.Thread, o.Message = args[0], args[1]
	default:
		return &usageError{"queue: give THREAD MESSAGE (a thread id or name, then the message), or --last MESSAGE"}
	}
	return nil
}

// queueText reads the message ("-": all of in) and checks it: not
// empty, and within codex's limit on one input's text
// (backend.MaxUserInputChars), counted in characters as codex counts.
func queueText(msg string, in io.Reader) (string, error) {
	if msg == "-" {
		data, err := io.ReadAll(in)
		if err != nil {
			return "", fmt.Errorf("reading the message from stdin: %w", err)
		}
		msg = string(data)
	}
	if strings.TrimSpace(msg) == "" {
		return "", &usageError{"queue: the message is empty"}
	}
	if n := utf8.RuneCountInString(msg); n > backend.MaxUserInputChars {
		return "", &usageError{fmt.Sprintf("queue: the message has %d characters; codex takes at most %d in one message", n, backend.MaxUserInputChars)}
	}
	return msg, nil
}

// queueTimeout bounds the calls after the start (StartSession bounds its
// own steps).
const queueTimeout = 60 * time.Second

// runQueue queues opts.Message on the thread opts names and says on
// std.out what the server does with it (queueOutcome).
func runQueue(ctx context.Context, f *Factory, opts QueueOptions, std stdio) (err error) {
	cfg, err := opts.Session.resolve()
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	text, err := queueText(opts.Message, std.in)
	if err != nil {
		return err
	}
	env, sess, err := startScriptSession(ctx, f, cfg, std)
	if err != nil {
		return err
	}
	defer env.closeInto(&err)
	defer sess.Close()
	cctx, cancel := context.WithTimeout(ctx, queueTimeout)
	defer cancel()

	thread, err := findQueueThread(cctx, sess, opts, env.cfg.threadCwd(env.cwd))
	if err != nil {
		return err
	}
	q, err := sess.Enqueue(cctx, thread.ID, backend.TurnInput{Text: text})
	if err != nil {
		return queueRefused(err, sess.UserAgent())
	}
	// Still in the queue after the add's answer? The server starts a
	// message for an idle thread before it answers.
	waiting := true
	if left, lerr := sess.QueueOf(cctx, thread.ID); lerr == nil {
		waiting = hasQueued(left, q.ID)
	}
	fmt.Fprintln(std.out, queueOutcome(thread, waiting))
	return nil
}

// queueRefused says why the server did not take the message: a codex
// without the queue is named with its version and what to do.
func queueRefused(err error, userAgent string) error {
	if backend.Unsupported(err) {
		v := backend.CodexVersionOf(userAgent)
		if v == "" {
			v = "this version"
		}
		return fmt.Errorf("codex %s has no server queue (%s): tandem queue needs a codex whose app-server queues messages (0.169.0 and later); update codex, or pass --codex PATH", v, redact.String(err.Error()))
	}
	return errors.New(redact.String(err.Error())) // backend names the method
}

// hasQueued reports whether the queue holds the message id.
func hasQueued(queue []backend.QueuedSubmission, id string) bool {
	for _, q := range queue {
		if q.ID == id {
			return true
		}
	}
	return false
}

// queueOutcome is the line `tandem queue` prints: the thread, and when
// its message runs, from the thread's status on this server before the
// add and whether the message is still waiting after it.
func queueOutcome(t backend.Thread, waiting bool) string {
	head := "queued for thread " + t.ID
	if t.Name != nil && *t.Name != "" {
		head = fmt.Sprintf("queued for thread %q (%s)", *t.Name, t.ID)
	}
	switch {
	case !waiting:
		return head + ": the thread is idle, started now"
	case t.Active():
		return head + ": runs when its turn ends"
	case t.Idle():
		// Idle a moment ago, and the message still waits: a turn
		// started meanwhile.
		return head + ": runs when its turn ends"
	}
	return head + ": no app-server here has the thread open; it runs when its turn ends where it is open, or when it is next resumed (tandem resume " + t.ID + ")"
}

// looksLikeID reports whether s has the shape of a thread id (a UUID).
func looksLikeID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch i {
		case 8, 13, 18, 23:
			if r != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
				return false
			}
		}
	}
	return true
}

// threadLister is what finding a thread needs of the session.
type threadLister interface {
	ReadThread(ctx context.Context, id string) (backend.Thread, error)
	ListThreads(ctx context.Context, p backend.ThreadListParams) (backend.ThreadListResponse, error)
}

// maxNamePages bounds the pages of thread/list read to find a name.
const maxNamePages = 20

// findQueueThread finds the thread opts names: --last is cwd's most
// recently updated thread; an id is read (thread/read gives its status
// on this server); a name is matched exactly among the stored threads
// (thread/list), and must name one thread only.
func findQueueThread(ctx context.Context, s threadLister, opts QueueOptions, cwd string) (backend.Thread, error) {
	switch {
	case opts.Last:
		list, err := s.ListThreads(ctx, backend.ThreadListParams{Limit: 1, SortKey: backend.SortUpdated, Cwd: cwd})
		if err != nil {
			return backend.Thread{}, errors.New(redact.String(err.Error()))
		}
		if len(list.Data) == 0 {
			return backend.Thread{}, fmt.Errorf("queue --last: no thread in %s", cwd)
		}
		return readStatus(ctx, s, list.Data[0]), nil
	case looksLikeID(opts.Thread):
		t, err := s.ReadThread(ctx, opts.Thread)
		if err != nil {
			return backend.Thread{}, fmt.Errorf("queue: no thread %s on this server (%s)", opts.Thread, redact.String(err.Error()))
		}
		t.ID = opts.Thread
		return t, nil
	}
	var found []backend.Thread
	var cursor *string
	for range maxNamePages {
		list, err := s.ListThreads(ctx, backend.ThreadListParams{Cursor: cursor, SortKey: backend.SortUpdated})
		if err != nil {
			return backend.Thread{}, errors.New(redact.String(err.Error()))
		}
		for _, t := range list.Data {
			if t.Name != nil && *t.Name == opts.Thread {
				found = append(found, t)
			}
		}
		if list.NextCursor == nil || *list.NextCursor == "" {
			break
		}
		cursor = list.NextCursor
	}
	switch len(found) {
	case 0:
		return backend.Thread{}, fmt.Errorf("queue: no thread named %q (give a thread id, a thread's exact name, or --last)", opts.Thread)
	case 1:
		return readStatus(ctx, s, found[0]), nil
	}
	ids := make([]string, len(found))
	for i, t := range found {
		ids[i] = t.ID
	}
	return backend.Thread{}, fmt.Errorf("queue: %d threads are named %q (%s): give the id", len(found), opts.Thread, strings.Join(ids, ", "))
}

// readStatus is t with its status on this server (thread/read), or t as
// listed when the read fails.
func readStatus(ctx context.Context, s threadLister, t backend.Thread) backend.Thread {
	r, err := s.ReadThread(ctx, t.ID)
	if err != nil {
		return t
	}
	r.ID = t.ID
	return r
}

// startScriptSession sets up cfg's run (the app-server local, over ssh,
// remote or on the daemon) and starts a session on it that opens no
// thread, for a command run from a script (`tandem queue`, `tandem
// search`): the caller closes the session, then env (closeInto). Its
// errors are setup's, or "starting the app-server: …" (redacted).
func startScriptSession(ctx context.Context, f *Factory, cfg runConfig, std stdio) (*runEnv, *backend.Session, error) {
	env, err := f.setup(cfg, setupHooks{stderr: std.err})
	if err != nil {
		return nil, nil, err
	}
	// No thread is opened: its events are not this command's.
	sess, err := backend.StartSession(ctx, env.sessionOptions(func(tea.Msg) {}))
	if err != nil {
		_ = env.close() // the start's error is the one to report
		return nil, nil, fmt.Errorf("starting the app-server: %s", redact.String(err.Error()))
	}
	return env, sess, nil
}

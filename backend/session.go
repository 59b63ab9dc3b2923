package backend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// SessionOptions configure a Session. Transport and Sink are required.
type SessionOptions struct {
	Transport Transport
	// ClientVersion is sent as clientInfo.version in `initialize`.
	ClientVersion string
	// Thread settings for `thread/start` and `thread/resume`; empty means
	// the server's default.
	Cwd, Model, ApprovalPolicy, Sandbox string
	// AddDirs are extra writable roots (--add-dir), absolute paths on the
	// server's machine: added to the config's own writable roots, never
	// replacing them (sandbox.go).
	AddDirs []string
	// ResumeCwd is where `thread/resume` and `thread/fork` run the thread
	// (config resume_cwd): ResumeCwdSession ("" too) in the directory
	// recorded for it, ResumeCwdCurrent in Cwd.
	ResumeCwd ResumeCwd
	// Sink receives, in wire order and from one goroutine, every Event and
	// ServerRequest for the session's thread and its sub-agents (those of
	// threads no session on the connection has are dropped, and their
	// requests refused), the connection's thread-less events,
	// RetryNotices while one of its calls is retried after -32001
	// (retry.go), and finally a ServerExitedEvent. A lane (Open) has a
	// Sink of its own.
	Sink func(msg any)
	// InitTimeout bounds the wait for the answer to `initialize`; 0 means
	// DefaultInitTimeout.
	InitTimeout time.Duration
	// LoginShellTimeout bounds the remote login shell's run over ssh
	// (StepLoginShell); 0 means LoginShellPatience.
	LoginShellTimeout time.Duration
	// Trace, if set, sees every JSON-RPC line in both directions.
	Trace func(dir Direction, line []byte)
	Log   *slog.Logger
}

// Session is one connection to an app-server: it owns the peer process,
// the JSON-RPC connection and the feed of typed values to the UI. The
// session StartSession returns is the root; Open gives more sessions on
// the same connection, lanes, one thread each (lanes.go).
type Session struct {
	opts   SessionOptions
	stream Stream
	conn   *sessionConn
	log    *slog.Logger
	Init   InitializeResponse
	// lanes is shared by the root and its lanes: which session gets
	// which thread's events (lanes.go); lane is set on a session Open
	// made, whose Close leaves the connection open.
	lanes *lanes
	lane  bool

	mu       sync.Mutex
	threadID string
	turnID   string
	// workspaceWrite is config/read's workspace-write settings, once read
	// (sandbox.go).
	workspaceWrite *WorkspaceWrite
	unknown        map[string]bool // notification methods not known, seen so far
	agents         map[string]bool // the sub-agents' threads (named by our items, or thread/started with a parent of ours)

	queue  *queue
	closed chan struct{}
	// quiet drops the final ServerExitedEvent of a session that failed to
	// start: StartSession's error reports it once.
	quiet atomic.Bool
	// initDone is closed once StartSession knows whether it succeeded.
	initDone chan struct{}
	once     sync.Once
	// closing is set by Close: the connection's end is tandem's doing.
	closing atomic.Bool
}

// StartSession starts the peer, runs `initialize` (clientInfo "tandem",
// experimentalApi) and sends `initialized`. On error nothing is left
// running.
func StartSession(ctx context.Context, opts SessionOptions) (*Session, error) {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	stream, err := opts.Transport.Start()
	if err != nil {
		return nil, err
	}
	s := &Session{opts: opts, stream: stream, log: log, queue: newQueue(), closed: make(chan struct{}), initDone: make(chan struct{})}
	s.lanes = &lanes{all: []*Session{s}}
	s.conn = &sessionConn{Conn: NewConn(stream.Stdout(), stream.Stdin(), s, log), onRetry: s.retried}
	s.conn.Trace = opts.Trace
	if h, ok := stream.(LineHooks); ok {
		s.conn.Filter, s.conn.Malformed = h.Filter, h.Malformed
	}
	go s.feed()
	go func() {
		err := s.conn.Serve()
		log.Info("app-server connection ended", "err", err)
		waitErr := waitOrKill(stream, 3*time.Second)
		ev := ServerExitedEvent{Status: ExitDescription(waitErr), Stderr: stream.StderrTail(20)}
		if host, ok := IsDurable(opts.Transport); ok && durable(stream) && !s.closing.Load() {
			ev.Detached, ev.Host = true, host
		}
		s.lanes.end(ev) // the root's feed and every lane's
	}()
	limit := opts.InitTimeout
	if limit <= 0 {
		limit = DefaultInitTimeout
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < limit {
		limit = time.Until(dl).Round(time.Second)
	}
	// Each step of the peer's start has its own wait (startsteps.go): a
	// slow remote login shell gets LoginShellPatience, the rest limit.
	ictx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	login := opts.LoginShellTimeout
	if login <= 0 {
		login = LoginShellPatience
	}
	go watchStart(ictx, cancel, stream, limit, login)
	init, err := Initialize.Call(ictx, s.conn, InitializeParams{
		ClientInfo:   ClientInfo{Name: "tandem", Version: opts.ClientVersion},
		Capabilities: InitializeCapabilities{ExperimentalAPI: true},
	})
	var timeout *StartTimeout
	if err != nil && errors.As(context.Cause(ictx), &timeout) {
		err = timeout
	} else if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("codex app-server did not answer initialize within %s", limit)
	}
	if err == nil {
		err = Initialized.Send(s.conn, nil)
	}
	if err != nil {
		// The caller reports this error; the peer's exit is not news.
		s.quiet.Store(true)
		close(s.initDone)
		s.Close()
		tail := stream.StderrTail(50) // complete once the peer is gone
		if timeout != nil {
			return nil, timeout // the step that did not answer, not how the peer was stopped
		}
		var remote *RemoteError
		if errors.As(stream.Wait(), &remote) {
			return nil, remote
		}
		if errors.Is(err, ErrClosed) {
			msg := "app-server " + ExitDescription(stream.Wait())
			if reason := StderrReason(tail); reason != "" {
				msg += ": " + reason
			}
			return nil, errors.New(msg)
		}
		return nil, err
	}
	s.Init = init
	close(s.initDone)
	return s, nil
}

// DefaultInitTimeout is how long StartSession waits for the answer to
// `initialize`: codex answers in well under a second, but a cold start
// over SSH or on a loaded machine can take several. Over ssh each step of
// the start (StartStep) has this long, the login shell
// LoginShellPatience.
const DefaultInitTimeout = 30 * time.Second

// Describe names the peer: PeerLocal, PeerDaemon, "ssh HOST", a
// websocket URL, ….
func (s *Session) Describe() string { return s.stream.Describe() }

// ThreadID returns the current thread's id ("" before a thread starts).
func (s *Session) ThreadID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.threadID
}

// TurnID returns the running turn's id, or "" when no turn runs.
func (s *Session) TurnID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turnID
}

// SetThread makes id the thread whose events are delivered, with what
// the connection held of it (events that came before the answer that
// opened it).
func (s *Session) SetThread(id string) {
	l := s.lanes
	l.mu.Lock()
	defer l.mu.Unlock()
	if old := s.ThreadID(); old != id {
		l.leaving(s, old)
	}
	delete(l.left, id)
	s.mu.Lock()
	s.threadID = id
	s.turnID = ""
	s.mu.Unlock()
	for _, ev := range l.take(id) {
		s.own(ev)
	}
}

// StartThread runs `thread/start` with the session's settings and the
// ask_user_question dynamic tool, and makes the new thread current.
func (s *Session) StartThread(ctx context.Context) (ThreadResponse, error) {
	cfg, err := s.threadConfig(ctx) // sandbox.go: --add-dir
	if err != nil {
		return ThreadResponse{}, err
	}
	return s.opened(ThreadStart.Call(ctx, s.conn, ThreadStartParams{
		Model:          s.opts.Model,
		Cwd:            s.opts.Cwd,
		ApprovalPolicy: s.opts.ApprovalPolicy,
		Sandbox:        s.opts.Sandbox,
		DynamicTools:   []DynamicToolSpec{AskUserQuestionTool()},
		Config:         cfg,
	}))
}

// opened takes the answer to a request that opens a thread (ThreadStart,
// ThreadResume, ThreadFork) and makes the thread it names current.
func (s *Session) opened(resp ThreadResponse, err error) (ThreadResponse, error) {
	if err != nil {
		return resp, err
	}
	resp.takePage()
	s.SetThread(resp.Thread.ID)
	// A thread resumed on a server that is still running its turn (the
	// daemon): that turn is the one to steer or interrupt.
	if id := resp.Thread.RunningTurn(); id != "" {
		s.mu.Lock()
		s.turnID = id
		s.mu.Unlock()
	}
	return resp, nil
}

// ResumeThread runs `thread/resume` for id with the session's settings
// and makes it current. The response's Thread.Turns holds the newest
// ResumeTurns turns (excludeTurns with an initialTurnsPage: the server
// neither sends nor builds the whole history), and Older the cursor of
// the turns before them, for ListTurns. The thread runs where ResumeCwd
// says; Elsewhere is set when that is not the session's Cwd (session) or
// the thread was recorded elsewhere (current: read first, `thread/read`).
func (s *Session) ResumeThread(ctx context.Context, id string) (ThreadResponse, error) {
	recorded := ""
	if s.opts.ResumeCwd == ResumeCwdCurrent && s.opts.Cwd != "" {
		if th, err := s.ReadThread(ctx, id); err == nil {
			recorded = th.Cwd
		}
	}
	resp, err := s.resume(ctx, id, &TurnsPageParams{Limit: ResumeTurns, SortDirection: "desc", ItemsView: "full"})
	if err == nil {
		resp.Elsewhere = s.elsewhere(recorded, resp.Cwd)
	}
	if err == nil && !resp.paged && len(resp.Thread.Turns) == 0 {
		// A server that left the turns out but sent no page: read it.
		if turns, older, lerr := s.ListTurns(ctx, id, "", ResumeTurns); lerr == nil {
			resp.Thread.Turns, resp.Older = turns, older
		}
	}
	return resp, err
}

// RejoinThread is ResumeThread without the history (excludeTurns): for a
// restarted app-server whose viewer still holds the transcript.
func (s *Session) RejoinThread(ctx context.Context, id string) (ThreadResponse, error) {
	return s.resume(ctx, id, nil)
}

// resume runs `thread/resume` for id with the session's settings and
// excludeTurns (the server neither sends nor builds the whole history),
// page asking for its newest turns (nil: none), and makes it current.
func (s *Session) resume(ctx context.Context, id string, page *TurnsPageParams) (ThreadResponse, error) {
	cfg, err := s.threadConfig(ctx) // sandbox.go: --add-dir
	if err != nil {
		return ThreadResponse{}, err
	}
	return s.opened(ThreadResume.Call(ctx, s.conn, ThreadResumeParams{
		ThreadID:         id,
		Model:            s.opts.Model,
		Cwd:              s.openCwd(),
		ApprovalPolicy:   s.opts.ApprovalPolicy,
		Sandbox:          s.opts.Sandbox,
		Config:           cfg,
		ExcludeTurns:     true,
		InitialTurnsPage: page,
	}))
}

// Close shuts the peer down (see Stream.Close) and waits for the feed to
// drain its last event; every lane gets the ServerExitedEvent. On a lane
// it closes only the lane (Session.leave): the connection stays.
func (s *Session) Close() error {
	if s.lane {
		s.leave(true)
		return nil
	}
	var err error
	s.once.Do(func() {
		s.closing.Store(true)
		err = s.stream.Close()
		<-s.conn.Done()
		<-s.closed
	})
	return err
}

// Done is closed once the connection has ended and its last event was fed.
func (s *Session) Done() <-chan struct{} { return s.closed }

// HandleNotification implements Handler, on the root only: it hands the
// event to the session whose thread it is (own), to the one whose
// sub-agent it is or holds it (otherThread), or, thread-less, to every
// session on the connection.
func (s *Session) HandleNotification(method string, params json.RawMessage) {
	ev, err := DecodeNotification(method, params)
	if err != nil {
		s.log.Warn("undecodable notification", "method", method, "err", err)
		return
	}
	if ev == nil {
		return
	}
	l := s.lanes
	t := ev.Thread()
	if t != "" && l.asides.take(t, ev) { // an aside's fork: its events are the aside's (aside.go)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if t == "" {
		for _, ln := range l.all {
			ln.own(ev)
		}
		return
	}
	if ln, thread := l.owner(t); thread {
		ln.own(ev)
		return
	}
	s.otherThread(t, ev)
}

// own queues ev, an event of the session's thread or a thread-less one,
// noting the sub-agents its items name and the turn it starts or ends.
// The caller holds s.lanes.mu.
func (s *Session) own(ev Event) {
	s.noteAgents(ev)
	switch e := ev.(type) {
	case UnknownEvent:
		s.mu.Lock()
		seen := s.unknown[e.Method]
		if s.unknown == nil {
			s.unknown = map[string]bool{}
		}
		s.unknown[e.Method] = true
		s.mu.Unlock()
		if seen {
			return // shown and logged once per method
		}
		if !s.lane {
			s.log.Info("notification tandem does not know", "method", e.Method)
		}
	case TurnStartedEvent:
		s.mu.Lock()
		s.turnID = e.Turn.ID
		s.mu.Unlock()
	case TurnCompletedEvent:
		s.mu.Lock()
		if s.turnID == e.Turn.ID {
			s.turnID = ""
		}
		s.mu.Unlock()
	}
	s.queue.push(ev)
}

// maxHeldEvents bounds what is kept of a thread not known yet to be a
// sub-agent (its events can come before the spawn's item names it).
const maxHeldEvents = 500

// otherThread handles, on the root, an event of a thread that is no
// session's own: a sub-agent's goes wrapped (SubAgentEvent) to the
// session that spawned it (a thread/started naming a session's thread
// or sub-agent as parent makes it one); one of a thread not known yet is
// held (lanes.hold) until a spawn names it or a session opens it. The
// caller holds s.lanes.mu.
func (s *Session) otherThread(t string, ev Event) {
	l := s.lanes
	if st, ok := ev.(ThreadStartedEvent); ok && st.Started.ParentThreadID != nil {
		if parent, _ := l.owner(*st.Started.ParentThreadID); parent != nil {
			parent.addAgents(t)
		}
	}
	if ln, _ := l.owner(t); ln != nil {
		ln.queue.push(SubAgentEvent{ev})
		return
	}
	l.hold(t, ev)
}

// noteAgents learns sub-agents from the session's own items: a collab
// tool call names its receivers, sub-agent activity its agent.
func (s *Session) noteAgents(ev Event) {
	var it Item
	switch e := ev.(type) {
	case ItemStartedEvent:
		it = e.Item
	case ItemCompletedEvent:
		it = e.Item
	default:
		return
	}
	switch it.Type {
	case "collabAgentToolCall":
		s.addAgents(it.ReceiverThreadIDs...)
	case "subAgentActivity":
		s.addAgents(it.AgentThreadID)
	}
}

// addAgents makes ids sub-agents of the session and delivers what was
// held of them. The caller holds s.lanes.mu.
func (s *Session) addAgents(ids ...string) {
	for _, id := range ids {
		s.mu.Lock()
		known := id == "" || s.agents[id]
		if !known {
			if s.agents == nil {
				s.agents = map[string]bool{}
			}
			s.agents[id] = true
		}
		s.mu.Unlock()
		if known {
			continue
		}
		for _, ev := range s.lanes.take(id) {
			s.queue.push(SubAgentEvent{ev})
		}
	}
}

// HandleRequest implements Handler.
func (s *Session) HandleRequest(in *IncomingRequest) bool {
	req, err := decodeIncoming(in)
	if err != nil {
		s.log.Warn("undecodable server request", "method", in.Method, "err", err)
		_ = in.RespondError(CodeInvalidParams, err.Error())
		return true
	}
	if req == nil {
		return false
	}
	// A request goes to the session whose thread or sub-agent asks; a
	// thread-less one to the root.
	to, t := s, req.Thread()
	if t != "" && s.lanes.asides.take(t, req) { // an aside's fork refuses it (aside.go)
		return true
	}
	s.lanes.mu.Lock()
	if t != "" {
		to, _ = s.lanes.owner(t)
	}
	if to != nil {
		to.queue.push(req)
	}
	s.lanes.mu.Unlock()
	if to == nil {
		s.log.Info("refusing request for another thread", "method", in.Method, "thread", t)
		_ = req.Refuse()
	}
	return true
}

// decodeIncoming decodes in with DecodeRequest; the typed request's
// answers go back as in's JSON-RPC result or error.
func decodeIncoming(in *IncomingRequest) (ServerRequest, error) {
	return DecodeRequest(in.Method, in.ID, in.Params, func(result any, rpcErr *RPCError) error {
		if rpcErr != nil {
			return in.RespondError(rpcErr.Code, rpcErr.Message)
		}
		return in.Respond(result)
	})
}

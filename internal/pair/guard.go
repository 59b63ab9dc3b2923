package pair

import (
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"
)

// Limits bound what connections that have not authenticated yet may cost
// the host. The zero value of a field means its default.
type Limits struct {
	// Handshake is how long a connection may take to send its part of
	// the key exchange (default 10 s), and Idle how long it may send
	// nothing before that (default 5 s); it is closed then. Those are the
	// slow-loris limits: a socket that says nothing, or dribbles bytes
	// that never make a key exchange, goes soon.
	Handshake time.Duration
	Idle      time.Duration
	// LoginGrace is how long, from its accept, a connection that has sent
	// its part of the key exchange may take to authenticate (default
	// 120 s, OpenSSH's LoginGraceTime): its client has the host key and
	// may be waiting for a person, who reads the fingerprint or types a
	// passphrase. Such a connection is not closed for its silence.
	LoginGrace time.Duration
	// MaxPending caps unauthenticated connections in all (default 64) and
	// MaxPendingPerSource those from one source (default 16). A new
	// connection over the per-source cap closes that source's pending
	// one that has sent the least; over the total cap, the one that has
	// sent the least of the sources holding the most (the oldest of
	// those; one younger than 250 ms counts 256 bytes at least). Idle
	// sockets go first and a client in the middle of its handshake last,
	// and a source with one pending connection never loses it to sources
	// holding many, so a driver gets in while an attacker holds or opens
	// sockets from a few addresses.
	MaxPending, MaxPendingPerSource int
	// Rate is how many new connections one source may open a second
	// (default 5), with bursts of Burst (default 20); more are closed at
	// once. Loopback is exempt: every guest forwarded to a loopback
	// listener shares that address, and the caps bound it anyway.
	Rate  float64
	Burst int

	// After login (logins.go): MaxConnsPerKey caps one key's connections
	// (default 8) and MaxConns all of them (default 200); LoginIdle is
	// how long a logged-in connection may hold no terminal (default 30
	// s); KeepAlive is how often a connection with a terminal is asked
	// for a keepalive reply (default 15 s; three unanswered close it).
	MaxConnsPerKey, MaxConns int
	LoginIdle, KeepAlive     time.Duration
}

// DefaultLoginGrace is Limits.LoginGrace's default: OpenSSH's
// LoginGraceTime.
const DefaultLoginGrace = 120 * time.Second

func (l Limits) withDefaults() Limits {
	orDuration(&l.Handshake, 10*time.Second)
	orDuration(&l.Idle, 5*time.Second)
	orDuration(&l.LoginGrace, DefaultLoginGrace)
	orDuration(&l.LoginIdle, 30*time.Second)
	orDuration(&l.KeepAlive, 15*time.Second)
	orInt(&l.MaxPending, 64)
	orInt(&l.MaxPendingPerSource, 16)
	orInt(&l.Burst, 20)
	orInt(&l.MaxConnsPerKey, 8)
	orInt(&l.MaxConns, 200)
	if l.Rate <= 0 {
		l.Rate = 5
	}
	return l
}

// orDuration and orInt set *v to d when it is not positive.
func orDuration(v *time.Duration, d time.Duration) {
	if *v <= 0 {
		*v = d
	}
}

func orInt(v *int, d int) {
	if *v <= 0 {
		*v = d
	}
}

// Guard enforces Limits on an SSH server (Install). Its methods are safe
// for concurrent use.
type Guard struct {
	lim Limits
	log *slog.Logger

	mu      sync.Mutex
	pending []*guardConn // unauthenticated, oldest first
	sources map[string]*source
	logins  map[*guardConn]bool // authenticated and open
	perKey  map[string]int      // open logins by key fingerprint
	stop    chan struct{}
	once    sync.Once
	// late, when set, is told of each connection closed for not logging
	// in within LoginGrace after it had the host key (OnLateLogin).
	late func(addr string, after time.Duration)
}

// source is what the guard knows of one IP address.
type source struct {
	limiter *rate.Limiter
	seen    time.Time
}

// guardConn is an accepted connection under watch until it authenticates.
type guardConn struct {
	net.Conn
	g        *Guard
	ip       string // the source: the IP address, an IPv6 one's /48
	accepted time.Time
	last     atomic.Int64 // unix nanoseconds of the last byte read
	read     atomic.Int64 // bytes read before authentication
	authed   atomic.Bool
	closed   atomic.Bool
	// kex follows the client's bytes (read by one goroutine) until it
	// has sent its part of the key exchange; kexed says it has.
	kex   kexScan
	kexed atomic.Bool

	// After login (logins.go), under g.mu: key is the fingerprint of the
	// key last offered and accepted (the one that logged in, since the
	// SSH library asks about that key last), terminals how many are open
	// and idleSince when the last one closed (or the login).
	key        string
	terminals  int
	idleSince  time.Time
	keepAlives sync.Once
}

// NewGuard returns a guard with l's limits; log may be nil.
func NewGuard(l Limits, log *slog.Logger) *Guard {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &Guard{lim: l.withDefaults(), log: log, sources: map[string]*source{}, stop: make(chan struct{}),
		logins: map[*guardConn]bool{}, perKey: map[string]int{}}
	go g.janitor()
	return g
}

type guardKey struct{}

// OnLateLogin sets f to be told (from the guard's goroutine) of each
// connection closed because it had the host key but did not log in
// within LoginGrace: most likely a person, whom the host may want to
// hear of. addr is the source address.
func (g *Guard) OnLateLogin(f func(addr string, after time.Duration)) {
	g.mu.Lock()
	g.late = f
	g.mu.Unlock()
}

// backstop is added to the longest limit for the SSH library's own
// handshake deadline: the guard's janitor closes a connection first, and
// says why.
const backstop = 10 * time.Second

// Install hooks the guard into srv: the handshake deadline (a backstop:
// the janitor enforces Handshake, Idle and LoginGrace), the accept check
// (ConnCallback) and the end of authentication (AuthLogCallback). It
// must run before srv serves and replaces those hooks.
func (g *Guard) Install(srv *ssh.Server) {
	srv.HandshakeTimeout = max(g.lim.Handshake, g.lim.LoginGrace) + backstop
	srv.ConnCallback = func(ctx ssh.Context, c net.Conn) net.Conn {
		gc := g.admit(c)
		if gc == nil {
			return nil
		}
		ctx.SetValue(guardKey{}, gc)
		return gc
	}
	srv.ServerConfigCallback = func(ctx ssh.Context) *gossh.ServerConfig {
		gc, _ := ctx.Value(guardKey{}).(*guardConn)
		return &gossh.ServerConfig{
			AuthLogCallback: func(_ gossh.ConnMetadata, method string, err error) {
				if err == nil && gc != nil {
					g.authenticated(gc)
				}
			},
		}
	}
}

// admit accepts c (watched until it authenticates) or refuses it (nil)
// when its source opens connections too fast.
func (g *Guard) admit(c net.Conn) *guardConn {
	ip, loopback := sourceOf(c.RemoteAddr())
	now := time.Now()
	g.mu.Lock()
	s := g.sources[ip]
	if s == nil {
		s = &source{limiter: rate.NewLimiter(rate.Limit(g.lim.Rate), g.lim.Burst)}
		g.sources[ip] = s
	}
	s.seen = now
	if !loopback && !s.limiter.AllowN(now, 1) {
		g.mu.Unlock()
		g.log.Warn("ssh: connection refused: too many from one address", "addr", ip)
		return nil
	}
	gc := &guardConn{Conn: c, g: g, ip: ip, accepted: now}
	gc.last.Store(now.UnixNano())
	var evict *guardConn
	perSource := 0
	for _, p := range g.pending {
		if p.ip == ip {
			perSource++
		}
	}
	if perSource >= g.lim.MaxPendingPerSource {
		evict = leastProgress(g.pending, map[string]bool{ip: true})
	} else if len(g.pending) >= g.lim.MaxPending {
		evict = leastProgress(g.pending, busiestSources(g.pending))
	}
	if evict != nil {
		g.removeLocked(evict)
	}
	g.pending = append(g.pending, gc)
	g.mu.Unlock()
	if evict != nil {
		g.log.Warn("ssh: closing an unauthenticated connection to make room", "addr", evict.ip, "age", now.Sub(evict.accepted).Round(time.Millisecond), "bytes", evict.read.Load())
		_ = evict.Conn.Close()
	}
	return gc
}

// A connection younger than youth counts as having sent at least
// youthCredit bytes: a client that has not had the time to send its
// banner and key exchange (a few hundred bytes to a few KiB) yet is not
// judged by its silence, while one that has sent them outranks any
// number of new sockets that did not.
const (
	youth       = 250 * time.Millisecond
	youthCredit = 256
)

// leastProgress returns the pending connection of one of the sources
// to close: the one that has sent the fewest bytes (a young one counting
// youthCredit at least), the oldest of those.
func leastProgress(pending []*guardConn, sources map[string]bool) *guardConn {
	now := time.Now()
	var pick *guardConn
	var least int64
	for _, p := range pending { // oldest first: ties keep the older
		if !sources[p.ip] {
			continue
		}
		sent := p.read.Load()
		if now.Sub(p.accepted) < youth {
			sent = max(sent, youthCredit)
		}
		if pick == nil || sent < least {
			pick, least = p, sent
		}
	}
	return pick
}

// busiestSources returns the sources holding the most pending
// connections.
func busiestSources(pending []*guardConn) map[string]bool {
	count := map[string]int{}
	most := 0
	for _, p := range pending {
		count[p.ip]++
		most = max(most, count[p.ip])
	}
	out := map[string]bool{}
	for ip, n := range count {
		if n == most {
			out[ip] = true
		}
	}
	return out
}

// sourceOf names the source of a connection for the per-source limits:
// its IP address, for IPv6 its /48 (one site may hold a whole one, and
// 65,536 /64s), and whether it is loopback.
func sourceOf(a net.Addr) (string, bool) {
	ip := net.ParseIP(hostIP(a))
	if ip == nil {
		return hostIP(a), false
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(48, 128)).String() + "/48", ip.IsLoopback()
	}
	return ip.String(), ip.IsLoopback()
}

func (g *Guard) removeLocked(gc *guardConn) {
	for i, p := range g.pending {
		if p == gc {
			g.pending = append(g.pending[:i:i], g.pending[i+1:]...)
			return
		}
	}
}

// Pending returns how many connections have not authenticated yet.
func (g *Guard) Pending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.pending)
}

// janitor closes pending connections that overstay: one that has not
// sent its part of the key exchange after Handshake, or has been silent
// for Idle; one that has, after LoginGrace (the host is told). It also
// forgets quiet sources and closes logins without a terminal.
func (g *Guard) janitor() {
	tick := time.NewTicker(min(g.lim.Idle/4, g.lim.Handshake/4, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-g.stop:
			return
		case now := <-tick.C:
			var idle, slow, late []*guardConn
			g.mu.Lock()
			for _, p := range g.pending {
				age := now.Sub(p.accepted)
				switch {
				case p.kexed.Load():
					if age > g.lim.LoginGrace {
						late = append(late, p)
					}
				case now.Sub(time.Unix(0, p.last.Load())) > g.lim.Idle:
					idle = append(idle, p)
				case age > g.lim.Handshake:
					slow = append(slow, p)
				}
			}
			for _, list := range [][]*guardConn{idle, slow, late} {
				for _, p := range list {
					g.removeLocked(p)
				}
			}
			for ip, s := range g.sources {
				if now.Sub(s.seen) > time.Minute {
					delete(g.sources, ip)
				}
			}
			bare := g.idleLoginsLocked(now)
			tell := g.late
			g.mu.Unlock()
			for _, p := range idle {
				g.log.Info("ssh: closing an idle unauthenticated connection", "addr", p.ip)
				_ = p.Conn.Close()
			}
			for _, p := range slow {
				g.log.Info("ssh: closing a connection that did not start the key exchange", "addr", p.ip, "after", g.lim.Handshake)
				_ = p.Conn.Close()
			}
			for _, p := range late {
				g.log.Warn("ssh: closing a connection that did not log in", "addr", p.ip, "after", g.lim.LoginGrace)
				_ = p.Conn.Close()
				if tell != nil {
					tell(p.ip, g.lim.LoginGrace)
				}
			}
			for _, p := range bare {
				g.log.Info("ssh: closing a logged-in connection without a terminal", "addr", p.ip, "after", g.lim.LoginIdle)
				_ = p.Close()
			}
		}
	}
}

// Close stops the guard's janitor.
func (g *Guard) Close() { g.once.Do(func() { close(g.stop) }) }

// Read implements net.Conn, noting activity while unauthenticated.
func (c *guardConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && !c.authed.Load() {
		c.last.Store(time.Now().UnixNano())
		c.read.Add(int64(n))
		if !c.kexed.Load() && c.kex.feed(b[:n]) {
			c.kexed.Store(true)
		}
	}
	return n, err
}

// Close implements net.Conn and stops watching the connection.
func (c *guardConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.g.mu.Lock()
		c.g.removeLocked(c)
		c.g.logoutLocked(c)
		c.g.mu.Unlock()
	}
	return c.Conn.Close()
}

// Package tunnel publishes a local TCP port on another machine — a jump
// host, "bastion" — through the system ssh's remote forwarding (`ssh -N
// -R`), and keeps it up: `tandem serve --via` runs it so that colleagues
// who can reach the bastion, but not the host, can pair. The user's
// ~/.ssh/config, agent, known_hosts and ProxyJump apply, as for any ssh.
//
// The bastion picks the port (`-R 0:…`; ssh reports "Allocated port N");
// after a drop the tunnel asks for the same port again, and takes a new
// one only when that is refused.
//
// It imports nothing from tandem but config's target parser and
// procgroup (the ssh never outlives tandem).
package tunnel

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"tandem/config"
	"tandem/internal/lib/procgroup"
)

// Options say where to publish what.
type Options struct {
	// Target is the bastion: [user@]host[:port], as for --ssh.
	Target config.SSHTarget
	// Local is the address the forward leads to on this machine
	// ("127.0.0.1:2222").
	Local string
	// SSHOptions are passed as -o OPTION each (e.g. "ProxyJump=gw").
	SSHOptions []string
	// SSH is the ssh binary; "" means "ssh" from PATH.
	SSH string
	// Published is called each time the forward is up, with the port it
	// listens on on the bastion (the same or, after a drop, another).
	Published func(port int)
	// Dropped is called when a forward that was up went down: the reason
	// and when it is tried again.
	Dropped func(reason string, retry time.Duration)
	// MaxBackoff caps the wait between attempts; 0 means 30 s.
	MaxBackoff time.Duration
}

// allocated is ssh's line for a forward whose remote port it was given.
var allocated = regexp.MustCompile(`Allocated port (\d+) for remote forward`)

// Run keeps the forward up until ctx ends. The first attempt must
// succeed: its failure (a typo'd host, a refused key, a bastion that
// forbids forwarding) is returned with ssh's last words. After that, a
// drop is reported to Dropped and retried with backoff (1 s doubling to
// MaxBackoff) for as long as ctx lasts; Run then returns nil.
func Run(ctx context.Context, o Options) error {
	maxWait := o.MaxBackoff
	if maxWait == 0 {
		maxWait = 30 * time.Second
	}
	port := 0
	first := true
	wait := time.Second
	for {
		got, up, reason := attempt(ctx, o, port)
		if ctx.Err() != nil {
			return nil
		}
		if first && !up {
			return fmt.Errorf("publishing on %s: %s", o.Target.String(), reason)
		}
		if up {
			first = false
			port = got
			wait = time.Second
		} else if port != 0 && strings.Contains(reason, "forwarding failed") {
			port = 0 // the port was taken meanwhile: take any
		}
		if o.Dropped != nil {
			o.Dropped(reason, wait)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, maxWait)
	}
}

// attempt runs one ssh until it exits (or ctx ends, which kills it). up
// reports that the forward was established, on port; reason is why it
// ended: ssh's last stderr line or its exit.
func attempt(ctx context.Context, o Options, want int) (port int, up bool, reason string) {
	bin := o.SSH
	if bin == "" {
		bin = "ssh"
	}
	// ssh keeps an option's first value: what the tunnel needs comes
	// first, then the user's options, then defaults they may override
	// (as backend.SSHTransport orders them).
	argv := []string{"-N", "-T",
		"-o", "ExitOnForwardFailure=yes",
		"-o", "LogLevel=INFO", // for "Allocated port"
		// A connection of its own, whatever ~/.ssh/config shares: a
		// ControlMaster would carry the forward in a background master
		// that outlives this ssh (and tandem), and ssh's exit would not
		// be the tunnel's.
		"-o", "ControlMaster=no", "-o", "ControlPath=none",
	}
	for _, opt := range o.SSHOptions {
		argv = append(argv, "-o", opt)
	}
	argv = append(argv,
		"-o", "ServerAliveInterval=15", "-o", "ServerAliveCountMax=3",
		"-o", "BatchMode=yes", // never a password prompt on the host's terminal
		"-R", fmt.Sprintf("%d:%s", want, o.Local),
	)
	if o.Target.Port != 0 {
		argv = append(argv, "-p", strconv.Itoa(o.Target.Port))
	}
	argv = append(argv, "--", o.Target.Destination())
	cmd := exec.Command(bin, argv...)
	cmd.SysProcAttr = procgroup.Attr() // never outlives tandem, even a SIGKILLed one
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return 0, false, err.Error()
	}
	if err := cmd.Start(); err != nil {
		return 0, false, err.Error()
	}
	stop := context.AfterFunc(ctx, func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) })
	defer stop()

	last := "" // written by the reader, read once it is done
	lines := make(chan int, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			l := strings.TrimSpace(sc.Text())
			if l == "" {
				continue
			}
			if m := allocated.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[1])
				lines <- n
				continue
			}
			last = l
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	// A forward of a fixed port prints nothing: it is up once ssh has
	// run a moment without exiting (ExitOnForwardFailure ends it at once
	// otherwise).
	var settle <-chan time.Time
	if want != 0 {
		settle = time.After(3 * time.Second)
	}
	exited := make(chan error, 1)
	go func() { <-done; exited <- cmd.Wait() }()
	for {
		select {
		case n := <-lines:
			port, up = n, true
			if o.Published != nil {
				o.Published(n)
			}
		case <-settle:
			if !up {
				port, up = want, true
				if o.Published != nil {
					o.Published(want)
				}
			}
		case err := <-exited: // after done: the reader has stopped
			reason = last
			if reason == "" {
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					reason = "ssh " + ee.ProcessState.String()
				} else {
					reason = "ssh ended"
				}
			}
			return port, up, reason
		}
	}
}

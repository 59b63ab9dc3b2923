package cli

import (
	"context"
	"fmt"
	"net"
	"time"

	"tandem/config"
	"tandem/internal/tunnel"
)

// viaLine is what serve prints once the pairing port is published on the
// bastion: the exact command a guest runs, through the bastion (-J), and
// the host key to check.
func viaLine(b config.SSHTarget, port int, fingerprint string) string {
	jump := b.String() // user@host:port, an IPv6 host in brackets
	return fmt.Sprintf("published on %s port %d — a guest runs: ssh -J %s -p %d 127.0.0.1 (host key %s; "+
		"with GatewayPorts on the bastion also: ssh -p %d %s)", b.Host, port, jump, port, fingerprint, port, b.Host)
}

// startVia publishes the pairing server's listener ln on the bastion of
// --via (tunnel.Run) and reports to say: the guest's line each time the
// forward is up, and each drop. The first attempt's result is returned
// once known (nil: published); later drops are retried until ctx ends.
// wait returns when the tunnel's ssh is gone.
func startVia(ctx context.Context, via config.SSHTarget, sshOptions []string, ln net.Listener, fingerprint string, say func(string)) (wait func(), err error) {
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	first := make(chan error, 1)
	once := func(err error) {
		select {
		case first <- err:
		default:
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := tunnel.Run(ctx, tunnel.Options{
			Target:     via,
			Local:      net.JoinHostPort("127.0.0.1", port),
			SSHOptions: sshOptions,
			Published: func(p int) {
				say(viaLine(via, p, fingerprint))
				once(nil)
			},
			Dropped: func(reason string, retry time.Duration) {
				say(fmt.Sprintf("the tunnel to %s dropped (%s) — trying again in %v", via.Host, reason, retry))
			},
		})
		once(err)
	}()
	select {
	case err = <-first:
	case <-ctx.Done():
		err = ctx.Err()
	}
	return func() { <-done }, err
}

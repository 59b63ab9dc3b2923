package backend

import (
	"bufio"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// The lines before the app-server's first message move the start on: a
// step marker to its step (never back), any other output to the login
// shell (ssh is connected); neither is counted as noise; a step's channel
// closes when it ends. Once connected, an exit 255 is a lost connection,
// not a failure to connect.
func TestSSHStepMarkers(t *testing.T) {
	cases := []struct {
		lines   []string
		want    StartStep
		skipped int
	}{
		{nil, StepConnect, 0},
		{[]string{"tandem-step login-shell"}, StepLoginShell, 0},
		{[]string{"Welcome!"}, StepLoginShell, 1},
		{[]string{"tandem-step login-shell", "motd", "tandem-step start"}, StepStart, 1},
		{[]string{"tandem-step login-shell", "tandem-step start", "tandem-step initialize"}, StepInitialize, 0},
		{[]string{"tandem-step initialize", "tandem-step start"}, StepInitialize, 0},
		{[]string{"tandem-step bogus"}, StepLoginShell, 1},
	}
	for _, c := range cases {
		s := &sshStream{log: slog.New(slog.DiscardHandler)}
		first, done := s.Step()
		if first != StepConnect {
			t.Fatalf("a fresh stream is at step %d", first)
		}
		for _, l := range c.lines {
			if s.Filter([]byte(l)) {
				t.Errorf("%q passed as a message", l)
			}
		}
		got, _ := s.Step()
		if got != c.want || s.skipped != c.skipped {
			t.Errorf("%q: step %d skipped %d, want %d and %d", c.lines, got, s.skipped, c.want, c.skipped)
		}
		select {
		case <-done:
			if got == StepConnect {
				t.Errorf("%q: the connect step ended without a step", c.lines)
			}
		default:
			if got != StepConnect {
				t.Errorf("%q: the connect step's channel is still open at step %d", c.lines, got)
			}
		}
	}
	if got := sshFailure(nil, true); got != "connection lost (exit 255)" {
		t.Errorf("connected: %q", got)
	}
	if got := sshFailure(nil, false); got != "could not connect (exit 255)" {
		t.Errorf("not connected: %q", got)
	}
}

// The daemon's ready line is found after the step markers, which are not
// logged as noise.
func TestReadReadySkipsStepMarkers(t *testing.T) {
	var log strings.Builder
	s := &sshStream{log: slog.New(slog.NewTextHandler(&log, nil))}
	in := "tandem-step login-shell\ntandem-step start\n" + daemonReady + `{"status":"running","socketPath":"/s"}` + "\n"
	info, err := readReady(bufio.NewReader(strings.NewReader(in)), s)
	if err != nil || info.SocketPath != "/s" || strings.Contains(log.String(), "skipping") {
		t.Fatalf("info %+v err %v log %q", info, err, log.String())
	}
}

// Each step's timeout says which step did not answer.
func TestStartTimeoutNamesTheStep(t *testing.T) {
	cases := []struct {
		e    StartTimeout
		want string
	}{
		{StartTimeout{Peer: "ssh dev", Step: StepConnect, Limit: 30 * time.Second}, "ssh dev: ssh did not connect within 30s (step 1 of 4: ssh connect)"},
		{StartTimeout{Peer: "ssh dev", Step: StepLoginShell, Limit: 5 * time.Minute, Detail: "nvm: loading"},
			"ssh dev: connected, but the remote login shell did not finish within 5m0s (step 2 of 4: bash -lc, its /etc/profile and ~/.bash_profile): nvm: loading"},
		{StartTimeout{Peer: "ssh dev", Step: StepStart, Limit: 30 * time.Second}, "ssh dev: codex app-server did not start within 30s (step 3 of 4: the remote workspace and CODEX_HOME)"},
		{StartTimeout{Peer: "ssh dev", Step: StepInitialize, Limit: 30 * time.Second}, "ssh dev: codex app-server did not answer initialize within 30s (step 4 of 4: initialize)"},
		{StartTimeout{Step: StepInitialize, Limit: 30 * time.Second}, "codex app-server did not answer initialize within 30s"},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

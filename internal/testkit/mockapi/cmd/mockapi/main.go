// Command mockapi serves a scripted mock of the OpenAI Responses API so that
// a real `codex app-server` can be driven without the network, e.g. in tmux
// tests and demo recordings.
//
//	mockapi --script FILE [--addr 127.0.0.1:0] [--codex-home DIR] [--quiet]
//	mockapi --script FILE [--codex-home DIR] -- COMMAND [ARGS...]
//
// The first line on stdout is the base URL (ending in /v1). With
// --codex-home, DIR/config.toml (and the mock model catalog) are written so
// that `CODEX_HOME=DIR codex app-server` talks to this mock. Requests are
// logged to stderr. It serves until killed (SIGINT/SIGTERM exit 0). See
// package tandem/internal/testkit/mockapi for the script format.
//
// With a COMMAND, mockapi prints nothing, writes the codex home (a
// temporary one unless --codex-home is given), runs COMMAND on the
// terminal with CODEX_HOME set, and exits with its status once it ends —
// e.g. `mockapi --script s.json -- tandem -a untrusted`.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"tandem/internal/testkit/mockapi"
)

func main() {
	script := flag.String("script", "", "JSON script `file` (see package mockapi); empty serves only the exhausted-script answer")
	addr := flag.String("addr", "127.0.0.1:0", "listen `address` (port 0 picks a free port)")
	home := flag.String("codex-home", "", "if set, write `dir`/config.toml pointing codex at this mock")
	quiet := flag.Bool("quiet", false, "do not log requests to stderr")
	flag.Usage = func() {
		fmt.Fprint(flag.CommandLine.Output(), "usage:\n"+
			"  mockapi --script FILE [--addr 127.0.0.1:0] [--codex-home DIR] [--quiet]\n"+
			"      serve the mock; the first line on stdout is its base URL\n"+
			"  mockapi --script FILE [--codex-home DIR] -- COMMAND [ARGS...]\n"+
			"      run COMMAND with CODEX_HOME pointing codex at the mock\n"+
			"      (e.g. -- ./tandem -a untrusted); --codex-home DIR keeps that home\n"+
			"      between runs, so threads can be resumed\n"+
			"The script format: go doc tandem/internal/testkit/mockapi\n\nflags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	command := flag.Args()
	tmpHome := ""
	if len(command) > 0 {
		*quiet = true // the command owns the terminal
		if *home == "" {
			dir, err := os.MkdirTemp("", "mockapi-home-")
			if err != nil {
				fmt.Fprintf(os.Stderr, "mockapi: %v\n", err)
				os.Exit(1)
			}
			tmpHome = dir
			*home = dir
		}
	}

	var responses []mockapi.Response
	if *script != "" {
		var err error
		if responses, err = mockapi.LoadScript(*script); err != nil {
			fmt.Fprintf(os.Stderr, "mockapi: %v\n", err)
			os.Exit(1)
		}
	}
	srv, err := mockapi.Listen(*addr, responses...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mockapi: %v\n", err)
		os.Exit(1)
	}
	defer srv.Close()
	if !*quiet {
		srv.OnRequest(func(r mockapi.Request) {
			what := fmt.Sprintf("script[%d]", r.Index)
			switch {
			case r.Aux:
				what = "auxiliary (" + r.Kind + ")"
			case r.Index < 0:
				what = "script exhausted"
			}
			fmt.Fprintf(os.Stderr, "mockapi: POST %s %s: %s, %d left\n", r.Path, r.Kind, what, srv.Pending())
		})
	}
	if *home != "" {
		if err := mockapi.WriteCodexHome(*home, srv.URL); err != nil {
			fmt.Fprintf(os.Stderr, "mockapi: %v\n", err)
			os.Exit(1)
		}
	}
	if len(command) > 0 {
		code := runCommand(command, *home)
		srv.Close()
		if tmpHome != "" {
			os.RemoveAll(tmpHome)
		}
		os.Exit(code)
	}
	// Register for signals before announcing the URL, so a caller that
	// signals right after reading it gets a clean exit.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	fmt.Println(srv.URL)
	<-sig
}

// runCommand runs argv on this terminal with CODEX_HOME=home and returns
// its exit status.
func runCommand(argv []string, home string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "CODEX_HOME="+home)
	// The child gets the terminal's signals itself; don't die before it
	// (then the temporary codex home would stay behind). SIGTERM and
	// SIGHUP sent to mockapi alone are passed on.
	signal.Ignore(syscall.SIGINT, syscall.SIGQUIT)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "mockapi: %v\n", err)
		return 127
	}
	go func() {
		for s := range sig {
			_ = cmd.Process.Signal(s)
		}
	}()
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintf(os.Stderr, "mockapi: %v\n", err)
		return 127
	}
	return 0
}

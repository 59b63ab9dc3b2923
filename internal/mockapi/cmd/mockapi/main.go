// Command mockapi serves a scripted mock of the OpenAI Responses API so that
// a real `codex app-server` can be driven without the network, e.g. in tmux
// tests and demo recordings.
//
//	mockapi --script FILE [--addr 127.0.0.1:0] [--codex-home DIR] [--quiet]
//
// The first line on stdout is the base URL (ending in /v1). With
// --codex-home, DIR/config.toml (and the mock model catalog) are written so
// that `CODEX_HOME=DIR codex app-server` talks to this mock. Requests are
// logged to stderr. It serves until killed (SIGINT/SIGTERM exit 0). See
// package tandem/internal/mockapi for the script format.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"tandem/internal/mockapi"
)

func main() {
	script := flag.String("script", "", "JSON script `file` (see package mockapi); empty serves only the exhausted-script answer")
	addr := flag.String("addr", "127.0.0.1:0", "listen `address` (port 0 picks a free port)")
	home := flag.String("codex-home", "", "if set, write `dir`/config.toml pointing codex at this mock")
	quiet := flag.Bool("quiet", false, "do not log requests to stderr")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "mockapi: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
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
	// Register for signals before announcing the URL, so a caller that
	// signals right after reading it gets a clean exit.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	fmt.Println(srv.URL)
	<-sig
}

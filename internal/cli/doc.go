// Package cli is tandem's command line: one file per command, each a
// cobra command whose flags fill an XOptions struct and a runX function
// that does the work — the interactive chat (the root command,
// chat.go), resume, exec, serve, replay and demo, export and record.
// root.go builds the tree (NewRootCmd) and turns errors into exit
// statuses (Execute: 2 for bad usage, 1 otherwise); main only calls the
// two.
//
// Options hold the command line as given. The commands that run an
// app-server share one setup: SessionOptions.resolve turns the session
// flags and the config file into a runConfig (config.go), and
// Factory.setup (setup.go) turns that into a runEnv — the local codex,
// the workspace, the log, the subreaper, the --record transcript and
// the protocol traces, and the transport with its cleanup. The
// interactive session's app-server is owned by a sessionOwner
// (owner.go: start, restart on F5, shutdown); serve hands its session to
// the pairing server (internal/pair).
//
// cli sits at the top: nothing but main imports it.
package cli

// Command tandem is a terminal client for the OpenAI Codex agent: it runs
// `codex app-server` and drives it over JSON-RPC from a Bubble Tea TUI.
//
// The CLI lives in this package: main.go parses flags (cobra), run.go
// wires the backend session to the Bubble Tea program.
package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"tandem/backend"
	"tandem/config"
	"tandem/internal/spill"
	"tandem/internal/termsafe"
	"tandem/sessions"
)

// version is set with -ldflags "-X main.version=…"; otherwise the module
// build info is used.
var version = ""

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// usageError is a bad flag value or argument; tandem exits 2 for it.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// flags are the options shared by the interactive command and its
// subcommands. Names follow codex's own CLI.
type flags struct {
	cd        string
	model     string
	approval  string
	sandbox   string
	overrides []string
	codex     string
	logFile   string
	diag      diagFlags          // diag.go
	resume    resumeChoice       // resume.go
	record    string             // --record FILE: protocol transcript (record.go)
	recorder  *sessions.Recorder // the open --record transcript (diag.go)
	// traces see every JSON-RPC line (--record, --trace-protocol, cast
	// markers); startSession chains them.
	traces []func(backend.Direction, []byte)
	// cfg are the config-file options; settings is the resolved
	// configuration (flags > profile > file > defaults), set by
	// resolveConfig in validate (settings.go).
	cfg      configFlags
	settings config.Settings
	remote   remoteFlags // remote.go: --ssh, --remote and friends
	// stdio are the command's stdin (io.Reader) and stdout (io.Writer);
	// the interactive commands need both to be terminals (tty.go).
	stdio [2]any
}

func (f *flags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVarP(&f.cd, "cd", "C", "", "working directory for the agent (default: current directory)")
	fs.StringVarP(&f.model, "model", "m", "", "model the agent uses")
	fs.StringVarP(&f.approval, "ask-for-approval", "a", "", "when to ask before running commands: "+config.ApprovalPolicies.Allowed())
	fs.StringVarP(&f.sandbox, "sandbox", "s", "", "sandbox for commands: "+config.SandboxModes.Allowed())
	fs.StringArrayVarP(&f.overrides, "codex-config", "c", nil, "codex config override key=value, passed to the app-server (repeatable)")
	fs.StringVar(&f.codex, "codex", "", "path of the codex executable")
	fs.StringVar(&f.logFile, "log-file", "", "log file (default: $XDG_STATE_HOME/tandem/tandem.log)")
	f.diag.register(fs)
	f.cfg.register(fs) // settings.go
	f.remote.register(fs)
	fs.StringVar(&f.record, "record", "", "record the session's protocol transcript to `FILE` (JSONL, redacted) for tandem replay and tandem export")
}

// validate checks flag values; errors name the flag and its allowed values.
func (f *flags) validate() error {
	if err := config.ApprovalPolicies.CheckFlag(f.approval); err != nil {
		return &usageError{err.Error()}
	}
	if err := config.SandboxModes.CheckFlag(f.sandbox); err != nil {
		return &usageError{err.Error()}
	}
	for _, kv := range f.overrides {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return &usageError{fmt.Sprintf("invalid value %q for -c/--codex-config: expected key=value", kv)}
		}
	}
	if f.cd != "" {
		st, err := os.Stat(f.cd)
		if err != nil || !st.IsDir() {
			return &usageError{fmt.Sprintf("invalid value %q for -C/--cd: not a directory", f.cd)}
		}
	}
	if err := checkLogFile(f.logFile); err != nil { // logfile.go
		return err
	}
	if err := f.remote.validate(); err != nil { // remote.go
		return err
	}
	return f.resolveConfig() // settings.go
}

func newRootCmd() *cobra.Command {
	var f flags
	root := &cobra.Command{
		Use:   "tandem [PROMPT]",
		Short: "A terminal client for the Codex agent",
		Long: "tandem drives `codex app-server` from the terminal: it streams the agent's answer as Markdown,\n" +
			"shows commands, diffs and reasoning, and asks for approvals inline.",
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       buildVersion(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return err
			}
			f.stdio = [2]any{cmd.InOrStdin(), cmd.OutOrStdout()} // checked by runInteractive (tty.go)
			prompt := ""
			if len(args) == 1 {
				prompt = args[0]
			}
			return runInteractive(cmd.Context(), f, prompt)
		},
	}
	root.SetVersionTemplate("tandem {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	f.register(root)
	root.AddCommand(newServeCmd())
	root.AddCommand(newExecCmd()) // exec.go
	root.AddCommand(newResumeCmd())
	root.AddCommand(newReplayCmd(), newDemoCmd(), newExportCmd(), newRecordCmd())
	return root
}

// usageArgs makes every command's argument check report a usageError, so
// a missing or extra argument exits 2 like a bad flag does.
func usageArgs(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				return &usageError{fmt.Sprintf("%s: %v (see %s --help)", c.CommandPath(), err, c.CommandPath())}
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		usageArgs(sub)
	}
}

func main() {
	root := newRootCmd()
	usageArgs(root)
	// Output spilled by a tandem that was killed (SIGKILL) is left in
	// the temp dir; remove it.
	spill.RemoveStale(os.TempDir())
	err := root.Execute()
	if err == nil {
		return
	}
	// The error may quote the server (a failed turn): no raw controls.
	fmt.Fprintln(os.Stderr, "tandem: "+termsafe.Plain(err.Error()))
	var ue *usageError
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") {
		os.Exit(2)
	}
	os.Exit(1)
}

package cli

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"tandem/internal/lib/spill"
	"tandem/internal/lib/termsafe"
)

// NewRootCmd builds tandem's command tree: the root command, which is the
// interactive chat (`tandem [PROMPT]`, chat.go), and its subcommands
// serve, exec, resume, queue, replay, demo, export and record. version is the
// version main was linked with (-ldflags "-X main.version=…"); "" uses
// the module's build info, else "dev". Run it with Execute.
func NewRootCmd(version string) *cobra.Command {
	f := &Factory{Version: buildVersion(version)}
	root := newChatCmd(f)
	root.AddCommand(newServeCmd(f))
	root.AddCommand(newExecCmd(f))
	root.AddCommand(newResumeCmd(f))
	root.AddCommand(newAgentsCmd(f))
	root.AddCommand(newQueueCmd(f))
	root.AddCommand(newSearchCmd(f))
	root.AddCommand(newReplayCmd(), newDemoCmd(), newExportCmd(), newRecordCmd())
	root.SetHelpTemplate(helpTemplate) // the subcommands inherit it
	return root
}

// helpTemplate is every command's --help: its one-line summary, cobra's
// usage (the usage lines, the commands, the flags), and then the prose
// (help/NAME.txt's long text), so the usage is never below a screenful
// of text. The details live in docs/ (docs/CLI.md).
const helpTemplate = `{{with .Short}}{{. | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}{{with .Long}}
{{. | trimTrailingWhitespaces}}
{{end}}`

// Execute runs root (from NewRootCmd) on the process's arguments and
// returns the exit status: 0, 2 for bad usage (a usage error, an unknown
// command or flag), 1 for any other error, which it prints to stderr as
// one line ("tandem: …", without terminal controls).
func Execute(root *cobra.Command) int {
	usageArgs(root)
	// Output spilled by a tandem that was killed (SIGKILL) is left in
	// the temp dir; remove it.
	spill.RemoveStale(os.TempDir())
	err := root.Execute()
	if err == nil {
		return 0
	}
	var es *exitStatus
	if errors.As(err, &es) {
		return es.code // a signal ended tandem; it was reported on the way out
	}
	// The error may quote the server (a failed turn): no raw controls.
	fmt.Fprintln(os.Stderr, "tandem: "+termsafe.Plain(err.Error()))
	var ue *usageError
	if errors.As(err, &ue) || strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") {
		return 2
	}
	return 1
}

func buildVersion(version string) string {
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

// Error implements error.
func (e *usageError) Error() string { return e.msg }

//go:embed help/*.txt
var helpFiles embed.FS

// command builds the command whose help is help/NAME.txt — its usage line,
// its one-line summary, then (after a blank line) the long text, all as
// --help shows them — with args as its argument check and run as its
// body. Its flag errors are usage errors (exit 2). A missing help file is
// a build mistake: it panics, and every test of the package finds it.
func command(name string, args cobra.PositionalArgs, run func(cmd *cobra.Command, args []string) error) *cobra.Command {
	text, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("cli: no help for " + name + ": " + err.Error())
	}
	use, rest, _ := strings.Cut(string(text), "\n")
	short, long, _ := strings.Cut(rest, "\n")
	cmd := &cobra.Command{Use: use, Short: short, Long: strings.TrimSpace(long), Args: args, RunE: run}
	flagUsageErrors(cmd)
	return cmd
}

// flagUsageErrors makes cmd's flag parsing errors usage errors (exit 2).
func flagUsageErrors(cmd *cobra.Command) {
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
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

// stdio are a command's standard streams (cobra's, which tests replace).
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

func stdioOf(cmd *cobra.Command) stdio {
	return stdio{in: cmd.InOrStdin(), out: cmd.OutOrStdout(), err: cmd.ErrOrStderr()}
}

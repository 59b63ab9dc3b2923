package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"tandem/sessions"
)

// ExportOptions are the command line of `tandem export FILE`.
type ExportOptions struct {
	File   string // the recording (--record's transcript)
	Format string // --format: md (or markdown)
	Output string // -o/--output FILE; "" or "-" is stdout
}

func newExportCmd() *cobra.Command {
	var opts ExportOptions
	cmd := command("export", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		opts.File = args[0]
		return runExport(opts, cmd.OutOrStdout())
	})
	cmd.Flags().StringVar(&opts.Format, "format", "md", "output format: md")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write to FILE instead of stdout")
	return cmd
}

// runExport writes the recording as Markdown to opts.Output, or to
// stdout.
func runExport(opts ExportOptions, stdout io.Writer) error {
	if opts.Format != "md" && opts.Format != "markdown" {
		return &usageError{fmt.Sprintf("invalid value %q for --format: allowed values are md", opts.Format)}
	}
	rec, err := sessions.LoadRecording(opts.File)
	if err != nil {
		return err
	}
	w := stdout
	if opts.Output != "" && opts.Output != "-" {
		f, err := os.OpenFile(opts.Output, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	return sessions.ExportMarkdown(w, rec)
}

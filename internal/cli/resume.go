package cli

import (
	"context"

	"github.com/spf13/cobra"

	"tandem/model"
)

// ResumeOptions are the command line of `tandem resume [THREAD_ID]
// [--last]`: the session flags, the thread to resume ("" for none) and
// --last.
type ResumeOptions struct {
	Session SessionOptions
	ID      string
	Last    bool
}

// newResumeCmd is `tandem resume [ID] [--last]`: resume a thread by id,
// the workspace's last thread, or pick one (thread/list pages, search,
// workspace filter, sort, preview). It takes the root command's flags.
func newResumeCmd(f *Factory) *cobra.Command {
	var opts ResumeOptions
	cmd := command("resume", cobra.MaximumNArgs(1), func(cmd *cobra.Command, args []string) error {
		if len(args) == 1 {
			opts.ID = args[0]
		}
		return runResume(cmd.Context(), f, opts, stdioOf(cmd))
	})
	opts.Session.register(cmd.Flags())
	opts.Session.registerScreen(cmd.Flags())
	cmd.Flags().BoolVar(&opts.Last, "last", false, "resume the last thread of this workspace without a picker")
	return cmd
}

// runResume runs the interactive chat on std (a terminal) with the model
// resuming the thread: by id, the workspace's last, or one picked.
func runResume(ctx context.Context, f *Factory, opts ResumeOptions, std stdio) error {
	cfg, err := opts.Session.resolve()
	if err != nil {
		return err
	}
	req := &model.ResumeRequest{Last: opts.Last}
	if opts.ID != "" {
		if opts.Last {
			return &usageError{"resume: give a THREAD_ID or --last, not both"}
		}
		req.ID = opts.ID
	}
	// The model resumes (or opens the picker) itself.
	return runInteractive(ctx, f, cfg, interactive{resume: req, in: std.in, out: std.out})
}

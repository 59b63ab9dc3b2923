package main

import (
	"github.com/spf13/cobra"

	"tandem/model"
)

// resumeChoice is what `tandem resume` asks for; req is nil for a plain
// run (a new thread).
type resumeChoice struct {
	req *model.ResumeRequest
}

// newResumeCmd is `tandem resume [ID] [--last]`: resume a thread by id,
// the workspace's last thread, or pick one (thread/list pages, search,
// workspace filter, sort, preview). It takes the root command's flags.
func newResumeCmd() *cobra.Command {
	var f flags
	var last bool
	cmd := &cobra.Command{
		Use:   "resume [THREAD_ID]",
		Short: "Resume an earlier thread (a picker, --last, or an id)",
		Long: "resume opens an earlier thread with its history. Without arguments it opens a picker of the\n" +
			"threads of this workspace (ctrl+a: all workspaces, ctrl+s: sort by created/updated, type to search).\n" +
			"--last resumes the workspace's last thread; THREAD_ID resumes that thread.",
		Args:          cobra.MaximumNArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.validate(); err != nil {
				return err
			}
			req := &model.ResumeRequest{Last: last}
			if len(args) == 1 {
				if last {
					return &usageError{"resume: give a THREAD_ID or --last, not both"}
				}
				req.ID = args[0]
			}
			f.resume.req = req
			f.stdio = [2]any{cmd.InOrStdin(), cmd.OutOrStdout()} // checked by runInteractive (tty.go)
			return runInteractive(cmd.Context(), f, "")
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	f.register(cmd)
	cmd.Flags().BoolVar(&last, "last", false, "resume the last thread of this workspace without a picker")
	return cmd
}

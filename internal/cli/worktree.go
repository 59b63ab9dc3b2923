package cli

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tandem/backend"
	"tandem/internal/worktree"
	"tandem/model"
)

// worktreeNoName is --worktree's value when given without =NAME: the
// name is then taken from the arguments (chatArgs).
const worktreeNoName = "\x00"

// registerWorktree adds --worktree[=NAME] to fs: the chat's thread runs
// in a new git worktree (internal/worktree), made on the agent's machine.
func registerWorktree(fs *pflag.FlagSet, name *string) {
	fs.StringVar(name, "worktree", "", "start the thread in a new git worktree `NAME` (branch tandem/NAME) beside the repository, made where the agent runs; without NAME one is made up")
	fs.Lookup("worktree").NoOptDefVal = worktreeNoName
}

// chatArgs checks and splits the chat's arguments: [PROMPT], or with
// --worktree given no =NAME, [NAME] [PROMPT] (one argument is the NAME;
// `--worktree "" PROMPT` or `--worktree= PROMPT` makes one up). It sets
// opts' Prompt and, for --worktree, Worktree.
func chatArgs(opts *ChatOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := splitChatArgs(opts, cmd, args); err != nil {
			return err
		}
		if w := opts.Worktree; w != nil && *w != "" {
			if err := worktree.ValidName(*w); err != nil {
				return &usageError{"--worktree: " + err.Error()}
			}
		}
		return nil
	}
}

// splitChatArgs is chatArgs' split, before the name is checked.
func splitChatArgs(opts *ChatOptions, cmd *cobra.Command, args []string) error {
	if !cmd.Flags().Changed("worktree") || opts.worktreeName != worktreeNoName {
		if err := cobra.MaximumNArgs(1)(cmd, args); err != nil {
			return err
		}
		if cmd.Flags().Changed("worktree") {
			opts.Worktree = &opts.worktreeName
		}
		if len(args) == 1 {
			opts.Prompt = args[0]
		}
		return nil
	}
	if err := cobra.MaximumNArgs(2)(cmd, args); err != nil {
		return fmt.Errorf("%w: --worktree [NAME] [PROMPT]", err)
	}
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	if len(args) == 2 {
		opts.Prompt = args[1]
	}
	opts.Worktree = &name
	return nil
}

// worktreeRun is a chat's --worktree: made once, by the first session
// (on the app-server's machine, through command/exec), then the
// workspace of every thread the run starts; and recorded as the
// thread's attachment once the thread has a turn (before it, codex
// knows no such thread).
type worktreeRun struct {
	name string // as asked for; "" made up
	log  *slog.Logger
	// what names it in an error ("": "--worktree").
	what string

	mu       sync.Mutex
	made     *worktree.Worktree
	sess     *backend.Session
	thread   string
	attached bool
}

// path is the worktree's root, once made ("" before).
func (w *worktreeRun) path() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.made == nil {
		return ""
	}
	return w.made.Path
}

// ensure makes the worktree of the repository dir is in (on sess's
// machine), unless it was made already, and tells send which it is.
func (w *worktreeRun) ensure(ctx context.Context, sess *backend.Session, dir string, send func(tea.Msg)) (worktree.Worktree, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.made != nil {
		return *w.made, nil
	}
	wt, err := worktree.Create(ctx, worktree.Server{Exec: sess}, dir, w.name)
	if err != nil {
		what := w.what
		if what == "" {
			what = "--worktree"
		}
		return wt, fmt.Errorf("%s: %w", what, err)
	}
	w.made = &wt
	w.log.Info("worktree made", "path", wt.Path, "branch", wt.Branch, "base", wt.Base)
	send(model.InfoMsg{Text: fmt.Sprintf("worktree %s on branch %s (from %s): the thread runs there", wt.Path, wt.Branch, wt.Base)})
	return wt, nil
}

// opened tells w the thread started in the worktree on sess.
func (w *worktreeRun) opened(sess *backend.Session, thread string) {
	w.mu.Lock()
	w.sess, w.thread = sess, thread
	w.mu.Unlock()
}

// watch wraps a session's sink: on the first turn of the worktree's
// thread it records the worktree as the thread's attachment
// (thread/attachment/add, off the feed's goroutine).
func (w *worktreeRun) watch(send func(tea.Msg)) func(tea.Msg) {
	return func(msg tea.Msg) {
		send(msg)
		ev, ok := msg.(backend.TurnStartedEvent)
		if !ok {
			return
		}
		w.mu.Lock()
		due := !w.attached && w.made != nil && w.sess != nil && (ev.ThreadID == "" || ev.ThreadID == w.thread)
		if due {
			w.attached = true
		}
		sess, thread, wt := w.sess, w.thread, w.made
		w.mu.Unlock()
		if due {
			go attachWorktree(sess, thread, *wt, w.log)
		}
	}
}

// WorktreeAttachment is the attachment type of a worktree tandem made,
// keyed by its path; its payload is worktreePayload.
const WorktreeAttachment = "tandem.worktree"

// worktreePayload is the payload of a WorktreeAttachment.
type worktreePayload struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Branch string `json:"branch"`
	Base   string `json:"base"`
}

// attachWorktree records wt as thread's attachment. A server without
// thread attachments, or one that refuses, leaves it unrecorded (logged):
// the thread's cwd still names the worktree.
func attachWorktree(sess *backend.Session, thread string, wt worktree.Worktree, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := sess.AddThreadAttachment(ctx, thread, WorktreeAttachment, wt.Path,
		worktreePayload{Name: wt.Name, Path: wt.Path, Branch: wt.Branch, Base: wt.Base})
	if err != nil {
		log.Info("the worktree is not recorded as the thread's attachment", "err", err)
		return
	}
	log.Info("the worktree is the thread's attachment", "id", r.Attachment.ID, "outcome", r.Outcome)
}

package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"tandem/backend"
)

// SearchOptions are the command line of `tandem search QUERY`: the
// session flags (where the app-server is), the query (the arguments
// joined by spaces), --all (every workspace), --json (a line of JSON a
// match) and --server (thread/search even on this machine).
type SearchOptions struct {
	Session SessionOptions
	Query   string
	All     bool
	JSON    bool
	Server  bool
}

// newSearchCmd is `tandem search QUERY`: the threads holding QUERY,
// newest first (searchfind.go finds them, searchout.go prints them).
func newSearchCmd(f *Factory) *cobra.Command {
	var opts SearchOptions
	cmd := command("search", cobra.MinimumNArgs(1), func(cmd *cobra.Command, args []string) error {
		opts.Query = strings.Join(args, " ")
		if strings.TrimSpace(opts.Query) == "" {
			return &usageError{"search: the query is empty (tandem search QUERY)"}
		}
		return runSearch(cmd.Context(), f, opts, stdioOf(cmd))
	})
	registerQueueSession(&opts.Session, cmd.Flags())
	fs := cmd.Flags()
	fs.BoolVar(&opts.All, "all", false, "search the threads of every workspace (default: this workspace's)")
	fs.BoolVar(&opts.JSON, "json", false, "print one JSON object a line per matching thread, for scripts")
	fs.BoolVar(&opts.Server, "server", false, "search through the app-server's thread/search even on this machine (prompts and answers only, no turn)")
	return cmd
}

// searchTimeout bounds a search once the app-server (if any) answers.
const searchTimeout = 5 * time.Minute

// runSearch finds the threads holding opts.Query and prints them on
// std.out. On this machine it reads the rollouts without starting an
// app-server; elsewhere it starts a session and asks thread/search.
func runSearch(ctx context.Context, f *Factory, opts SearchOptions, std stdio) (err error) {
	cfg, err := opts.Session.resolve()
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	place := searchPlaceOf(cfg, cfg.settings.Workspace, opts.Server)
	var client backend.Client
	if place.root == "" {
		env, sess, err := startScriptSession(ctx, f, cfg, std)
		if err != nil {
			return err
		}
		defer env.closeInto(&err)
		defer sess.Close()
		client = sess
		place.cwd = cfg.threadCwd(env.cwd)
	}
	cctx, cancel := context.WithTimeout(ctx, searchTimeout)
	defer cancel()
	matches, err := place.finder()(cctx, client, opts.Query, opts.All)
	if err != nil {
		return err
	}
	out := searchOutput{w: std.out, color: colorOut(std.out), home: homeDir(), loc: time.Local}
	if opts.JSON {
		return out.json(matches, place.root != "")
	}
	if len(matches) == 0 {
		fmt.Fprintln(std.err, noMatch(opts.Query, place.cwd, place.root, opts.All))
		return nil
	}
	return out.text(matches)
}

// noMatch is what `tandem search` says when nothing matched.
func noMatch(query, cwd, root string, all bool) string {
	msg := fmt.Sprintf("no thread holds %q", query)
	if !all && cwd != "" {
		msg = fmt.Sprintf("no thread of %s holds %q (--all searches every workspace)", cwd, query)
	}
	if root != "" { // a run with another CODEX_HOME (--codex-home, the mock's) keeps its threads there
		msg += fmt.Sprintf("\nsearched the rollouts in %s (set CODEX_HOME to search another codex home)", root)
	} else {
		msg += "\nsearched through the app-server's thread/search: prompts and answers only"
	}
	return msg
}

// colorOut reports whether w is a terminal that takes colour (NO_COLOR
// unset).
func colorOut(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd()) && os.Getenv("NO_COLOR") == ""
}

// homeDir is the user's home ("" unknown), folded to ~ in workspaces.
func homeDir() string {
	h, err := os.UserHomeDir()
	if err != nil || h == "/" {
		return ""
	}
	return h
}

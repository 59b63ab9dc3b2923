package act

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// The slash commands' calls (model/commands): each answers with its own
// message, for the command to say what came of it. (/skills asks
// ListSkills, the composer's call.)

// RenameThread names the open thread (`thread/name/set`); the result is
// ThreadRenamed.
type RenameThread struct{ Name string }

// ThreadRenamed is the answer to RenameThread: Err, or nil when the
// thread is called Name now.
type ThreadRenamed struct {
	Name string
	Err  error
}

func (a RenameThread) run(ctx context.Context, c backend.Client) tea.Msg {
	if err := c.RenameThread(ctx, a.Name); err != nil {
		return ThreadRenamed{Name: a.Name, Err: err}
	}
	return ThreadRenamed{Name: a.Name}
}

// CompactThread starts summarizing the open thread to free context
// (`thread/compact/start`); the result is CompactStarted.
type CompactThread struct{}

// CompactStarted is the answer to CompactThread: Err, or nil when the
// compaction started.
type CompactStarted struct{ Err error }

func (CompactThread) run(ctx context.Context, c backend.Client) tea.Msg {
	if err := c.Compact(ctx); err != nil {
		return CompactStarted{Err: err}
	}
	return CompactStarted{}
}

// ListMcpServers lists the MCP servers and their tools
// (`mcpServerStatus/list`); the result is McpServersListed.
type ListMcpServers struct{}

// McpServersListed is the answer to ListMcpServers.
type McpServersListed struct {
	Servers []backend.McpServerStatus
	Err     error
}

func (ListMcpServers) run(ctx context.Context, c backend.Client) tea.Msg {
	servers, err := c.McpServers(ctx)
	if err != nil {
		return McpServersListed{Err: err}
	}
	return McpServersListed{Servers: servers}
}

// LoginMcp starts the OAuth sign-in to MCP server Name
// (`mcpServer/oauth/login`); the result is McpLoginURL.
type LoginMcp struct{ Name string }

// McpLoginURL is the answer to LoginMcp: the URL to open, or Err.
type McpLoginURL struct {
	Name, URL string
	Err       error
}

func (a LoginMcp) run(ctx context.Context, c backend.Client) tea.Msg {
	url, err := c.McpLogin(ctx, a.Name)
	if err != nil {
		return McpLoginURL{Name: a.Name, Err: fmt.Errorf("mcpServer/oauth/login %s: %w", a.Name, err)}
	}
	return McpLoginURL{Name: a.Name, URL: url}
}

// ListHooks lists the hooks configured for the thread (`hooks/list`);
// the result is HooksListed.
type ListHooks struct{}

// HooksListed is the answer to ListHooks.
type HooksListed struct {
	Hooks []backend.HookInfo
	Err   error
}

func (ListHooks) run(ctx context.Context, c backend.Client) tea.Msg {
	hooks, err := c.ListHooks(ctx)
	if err != nil {
		return HooksListed{Err: err}
	}
	return HooksListed{Hooks: hooks}
}

// ReadStatus reads what /status shows of the server: the account
// (`account/read`) and the rate limits (`account/rateLimits/read`); the
// result is StatusRead with the same Seq.
type ReadStatus struct{ Seq int }

// StatusRead is the answer to ReadStatus: each part, or the error that
// part failed with.
type StatusRead struct {
	Seq        int
	Account    backend.AccountReadResponse
	AccountErr error
	Limits     backend.RateLimitSnapshot
	LimitsErr  error
}

func (a ReadStatus) run(ctx context.Context, c backend.Client) tea.Msg {
	r := StatusRead{Seq: a.Seq}
	r.Account, r.AccountErr = c.ReadAccount(ctx)
	r.Limits, r.LimitsErr = c.ReadRateLimits(ctx)
	return r
}

// ReadFile reads the file Path on the server's machine (`fs/readFile`);
// the result is FileRead.
type ReadFile struct{ Path string }

// FileRead is the answer to ReadFile: Err wraps fs.ErrNotExist when there
// is no such file.
type FileRead struct {
	Path string
	Data []byte
	Err  error
}

func (a ReadFile) run(ctx context.Context, c backend.Client) tea.Msg {
	data, err := c.ReadFile(ctx, a.Path)
	return FileRead{Path: a.Path, Data: data, Err: err}
}

// Logout logs out of codex (`account/logout`), reading first which
// account that was; the result is LoggedOut.
type Logout struct{}

// LoggedOut is the answer to Logout: the account logged out of (nil when
// unknown), or Err.
type LoggedOut struct {
	Was *backend.Account
	Err error
}

func (Logout) run(ctx context.Context, c backend.Client) tea.Msg {
	before, _ := c.ReadAccount(ctx) // only to say what was logged out of
	if err := c.Logout(ctx); err != nil {
		return LoggedOut{Err: err}
	}
	return LoggedOut{Was: before.Account}
}

// AskAside asks Prompt on a throwaway fork of the open thread (/side,
// /recap: `thread/fork` ephemeral, one read-only turn); the result is
// AsideAnswered with the same Seq. Closing Cut cuts it (Esc): the fork's
// turn is interrupted and the answer is context.Canceled.
type AskAside struct {
	Seq    int
	Prompt string
	Cut    <-chan struct{}
}

// AsideAnswered is the answer to AskAside: the fork's last agent message
// (Markdown), or Err.
type AsideAnswered struct {
	Seq    int
	Answer string
	Err    error
}

// asideTimeout is how long an aside may take: a turn of its own, which
// may read files before it answers.
const asideTimeout = 15 * time.Minute

func (AskAside) timeout() time.Duration { return asideTimeout }

func (a AskAside) run(ctx context.Context, c backend.Client) tea.Msg {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if a.Cut != nil {
		go func() {
			select {
			case <-a.Cut:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	answer, err := c.Aside(ctx, a.Prompt)
	return AsideAnswered{Seq: a.Seq, Answer: answer, Err: err}
}

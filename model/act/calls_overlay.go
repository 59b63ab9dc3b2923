package act

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"tandem/backend"
)

// The overlay's calls (model/overlay): the models for /model, the
// threads for the resume picker, and the account for the login form.

// ListModels lists the models (`model/list`) for /model's picker; the
// result is ModelsListed.
type ListModels struct{}

// ModelsListed is the answer to ListModels: the models, or Err.
type ModelsListed struct {
	Models []backend.ModelInfo
	Err    error
}

func (ListModels) run(ctx context.Context, c backend.Client) tea.Msg {
	models, err := c.ListModels(ctx)
	if err != nil {
		return ModelsListed{Err: err}
	}
	return ModelsListed{Models: models}
}

// ListThreads reads one page of threads (`thread/list`) for the resume
// picker; Seq and Next come back with the result, ThreadsListed: Seq
// drops the answer to an older query, Next says the page follows those
// shown.
type ListThreads struct {
	Params backend.ThreadListParams
	Seq    int
	Next   bool
}

// ThreadsListed is one page of ListThreads.
type ThreadsListed struct {
	Seq  int
	Next bool
	Page backend.ThreadListResponse
	Err  error
}

func (a ListThreads) run(ctx context.Context, c backend.Client) tea.Msg {
	page, err := c.ListThreads(ctx, a.Params)
	return ThreadsListed{Seq: a.Seq, Next: a.Next, Page: page, Err: err}
}

// ReadAccount reads the account (`account/read`): whether a login is
// needed; the result is AccountRead.
type ReadAccount struct{}

// AccountRead is the answer to ReadAccount.
type AccountRead struct {
	Account backend.AccountReadResponse
	Err     error
}

func (ReadAccount) run(ctx context.Context, c backend.Client) tea.Msg {
	r, err := c.ReadAccount(ctx)
	return AccountRead{Account: r, Err: err}
}

// StartLogin starts a login (`account/login/start`): an API key, or the
// ChatGPT device code; the result is LoginStarted.
type StartLogin struct{ Params backend.LoginStartParams }

// LoginStarted is the answer to StartLogin.
type LoginStarted struct {
	Login backend.LoginStartResponse
	Err   error
}

func (a StartLogin) run(ctx context.Context, c backend.Client) tea.Msg {
	r, err := c.Login(ctx, a.Params)
	return LoginStarted{Login: r, Err: err}
}

// CancelLogin cancels the device-code login ID (`account/login/cancel`);
// its result is nil (nothing waits for it).
type CancelLogin struct{ ID string }

func (a CancelLogin) run(ctx context.Context, c backend.Client) tea.Msg {
	_ = c.CancelLogin(ctx, a.ID)
	return nil
}

package backend

import "time"

// This file holds the requests tandem answers without asking anyone:
// ChatGPT token refresh and attestation (which it cannot serve) and the
// current time.

// AuthTokensRefreshParams are the params of
// `account/chatgptAuthTokens/refresh`.
type AuthTokensRefreshParams struct {
	Reason            string  `json:"reason"`
	PreviousAccountID *string `json:"previousAccountId"`
}

// AuthTokensRefreshRequest is `account/chatgptAuthTokens/refresh`. tandem
// does not manage ChatGPT tokens, so it always answers with an error.
type AuthTokensRefreshRequest struct {
	*Request
	Params AuthTokensRefreshParams
}

// AuthRefreshMessage is the error message answering
// `account/chatgptAuthTokens/refresh`.
const AuthRefreshMessage = "tandem does not manage ChatGPT auth tokens; sign in again with `codex login`"

// AutoAnswer implements AutoAnswered: error CodeUnsupported.
func (r *AuthTokensRefreshRequest) AutoAnswer() error {
	return r.RespondError(CodeUnsupported, AuthRefreshMessage)
}

// Notice implements AutoAnswered.
func (r *AuthTokensRefreshRequest) Notice() string {
	return "codex asked for fresh ChatGPT tokens, which tandem cannot provide; run `codex login` if requests fail"
}

// Refuse implements ServerRequest: the same error.
func (r *AuthTokensRefreshRequest) Refuse() error { return r.AutoAnswer() }

// AttestationRequest is `attestation/generate`. tandem cannot attest, so
// it always answers with an error.
type AttestationRequest struct {
	*Request
}

// AttestationMessage is the error message answering `attestation/generate`.
const AttestationMessage = "tandem cannot generate client attestations"

// AutoAnswer implements AutoAnswered: error CodeUnsupported.
func (r *AttestationRequest) AutoAnswer() error {
	return r.RespondError(CodeUnsupported, AttestationMessage)
}

// Notice implements AutoAnswered (silent).
func (r *AttestationRequest) Notice() string { return "" }

// Refuse implements ServerRequest: the same error.
func (r *AttestationRequest) Refuse() error { return r.AutoAnswer() }

// CurrentTimeParams are the params of `currentTime/read`.
type CurrentTimeParams struct {
	ThreadID string `json:"threadId"`
}

// CurrentTimeRequest is `currentTime/read`: answered at once with the
// clock.
type CurrentTimeRequest struct {
	*Request
	Params CurrentTimeParams
	// Now is the clock (nil: time.Now; a test pins it).
	Now func() time.Time
}

// CurrentTimeResponse is the response of `currentTime/read`: Unix seconds.
type CurrentTimeResponse struct {
	CurrentTimeAt int64 `json:"currentTimeAt"`
}

// AutoAnswer implements AutoAnswered: {"currentTimeAt": unix seconds}.
func (r *CurrentTimeRequest) AutoAnswer() error {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	return r.Respond(CurrentTimeResponse{CurrentTimeAt: now().Unix()})
}

// Notice implements AutoAnswered (silent).
func (r *CurrentTimeRequest) Notice() string { return "" }

// Refuse implements ServerRequest: telling the time is harmless, so it
// answers the same way.
func (r *CurrentTimeRequest) Refuse() error { return r.AutoAnswer() }

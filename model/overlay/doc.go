// Package overlay is what takes the keyboard over the composer: the
// server requests waiting for this viewer's answer (queue.go), one form at
// a time, built by one adapter per request kind (adapters.go) from
// sanitized specs (safe.go); the grace that keeps typing in flight from
// answering a form (grace.go) and the rule that no form answers before it
// was seen whole (whole.go), full screen if need be; the pickers — the
// root's (Pick) and its own: /model, /approvals, the resume picker
// (pickers.go) — and the login form (login.go).
//
// The root asks it first for a key (Takes, Key), gives the form its keys
// after the view's (FormKey), routes pastes (Paste), and draws what it
// returns (FormView, FullView, PanelView, WaitingLine). It reads the rest
// of the model through World; a reply to a request is its own command; a
// call to the app-server goes through act (calls_overlay.go), and a
// choice is an intent for whoever acts on it (intents_overlay.go).
package overlay

// Package model is tandem's single Bubble Tea model: the state machine that
// folds backend events into the transcript, routes keys between the
// composer and inline forms, and turns form answers into replies to server
// requests.
//
// The transcript is built only from backend.Event values (the fold);
// per-viewer state — scroll position, focus, the composer's draft, width —
// stays here too but never feeds back into it. model draws through ui/ and
// builds forms through forms/; it must not import main.
package model

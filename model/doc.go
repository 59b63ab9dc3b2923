// Package model is tandem's single Bubble Tea model: a router over the
// thread's fold and the components one viewer drives.
//
// The transcript is a fold over events: backend.Event values go through
// thread.State.Apply (events.go), and what changed is drawn as ui cells
// (transcript.go). Nothing else writes the transcript's items. What one
// viewer owns stays here: the composer (composer.go, paste.go,
// history.go, popup.go), the recovery state (recovery.go), scrolling,
// width and the render caches. The request queue and its forms, the
// pickers and the login form are model/overlay's (overlay.go routes to
// it).
//
// The model talks to the app-server only through backend.Client, from
// commands (never inside Update); replies to server requests leave the
// same way. View draws the state and changes nothing Update decides by.
//
// model draws through ui/ and builds forms through forms/; it must not
// import main, internal/cli or internal/pair.
package model

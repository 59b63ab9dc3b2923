// Package model is tandem's single Bubble Tea model: a router over the
// thread's fold and the components one viewer drives.
//
// The transcript is a fold over events: backend.Event values go through
// thread.State.Apply (events.go), and what changed is drawn as ui cells
// (model/transcript). Nothing else writes the transcript's items. What one
// viewer owns is its components (model/status: the status line;
// model/composer: the draft, its history, pastes, images and popups, and
// the timing of keys, compose.go wires it; model/overlay: the server
// requests' queue and forms, the pickers and the login form, overlay.go
// routes to it; model/rewind: Esc Esc and /undo, going back to an
// earlier message and taking the agent's file changes back, rewind.go
// wires it; model/commands: the slash commands and /stop's question,
// commands.go wires them; model/transcript: the panes; model/turn: the
// session's client, the turns, the thread's lifecycle and recovery,
// turns.go wires it).
//
// The model talks to the app-server only through backend.Client, from
// commands (never inside Update); replies to server requests leave the
// same way. View draws the state and changes nothing Update decides by.
//
// model draws through ui/ and builds forms through forms/; it must not
// import main, internal/cli or internal/pair.
package model

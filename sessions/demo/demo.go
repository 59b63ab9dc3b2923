// Package demo holds the transcript `tandem demo` replays: a session
// recorded from the real `codex app-server` driven by the mock provider
// (internal/testkit/mockapi). Regenerate it with
//
//	go test ./sessions/demo -run TestGenerateDemo -generate
//
// It must not import the UI packages.
package demo

import _ "embed"

// Transcript is the embedded recording (the --record JSONL format of
// package sessions).
//
//go:embed demo.jsonl
var Transcript []byte

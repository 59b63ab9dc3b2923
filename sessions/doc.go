// Package sessions owns what tandem keeps on disk about sessions: per
// workspace (absolute cwd) the last thread and the composer's prompt
// history, in one small JSON file under $XDG_STATE_HOME/tandem/ (state.go);
// the scan of a thread's rollout file (codex's JSONL log) for tool calls
// left without output (rollout.go); and protocol recordings, their replay
// and exports (recording.go, replay.go, cast.go, export.go).
//
// It may use backend's protocol types but must not import the UI packages
// (model, ui, forms).
package sessions

// Package thread is the fold at the heart of tandem: a thread's state built
// only from the app-server's typed events (backend.Event) and the history
// `thread/resume` returns. State.Apply folds one event and says what
// changed; the live session, a replay and the pairing hub all feed the
// same Apply, so every viewer of the same stream holds the same state.
//
// Items are plain structs keyed by (turn id, item id): providers reuse
// item ids across turns ("msg_1" in every turn), so an id alone names
// nothing. What one viewer does with the state — scrolling, focus, the
// draft, render caches — lives in model/ and ui/, never here.
//
// thread imports backend for the event types, internal/lib/spill for command
// output too big to keep in memory and x/ansi to cut a tool's title to
// its display width (tools.go); it must not import lipgloss,
// bubbles, bubbletea, ui/, forms/ or model/.
package thread

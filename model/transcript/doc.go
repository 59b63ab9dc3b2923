// Package transcript is the model's panes: one per thread — the
// session's thread and each of its sub-agents — each the thread's fold
// (thread.State) drawn as ui cells, with its own scroll position, caches
// and earlier turns not read yet. Panes holds them, knows which one is
// shown, and owns what is drawn of them: the window of the transcript,
// the full-screen pager (Ctrl+T) and, with --no-alt-screen, the printing
// of finished cells into the terminal's scrollback.
//
// Events reach it already decoded (backend.Event): Fold applies the
// session thread's, FoldAgent a sub-agent's, each to its own pane —
// nothing is swapped in place, so a sub-agent on screen never hides the
// thread's own events, and switching back shows what happened meanwhile.
//
// It asks for what it can't do itself through act.Env's Out (client
// calls for earlier turns and sub-agents' histories, banners, notices)
// and never imports the root model or another component.
package transcript

package cli

import "tandem/internal/testkit/e2e"

// patience is how long a test waits for what it expects (a screen, a
// traced message, an exit, a request) before it calls it a hang and
// fails: e2e.Patience, minutes. It only catches hangs; a slow or busy
// machine makes a test slower, never failing. How fast tandem is lives in
// the benchmarks (docs/PERFORMANCE.md).
const patience = e2e.Patience

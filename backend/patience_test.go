package backend

import "time"

// patience is how long a test waits for what it expects before it calls
// it a hang and fails. It only catches hangs: a slow or busy machine (the
// race detector, packages tested in parallel) makes a test slower, never
// failing. How fast things are is measured by the benchmarks.
const patience = 3 * time.Minute

// Patience is patience, for the external tests (package backend_test).
const Patience = patience

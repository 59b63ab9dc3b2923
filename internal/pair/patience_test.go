package pair

import "time"

// patience is how long a test waits for what it expects (a screen, a
// login count, a connection to close) before it calls it a hang and
// fails. It only catches hangs: a slow or busy machine (the race
// detector, packages tested in parallel) makes a test slower, never
// failing. How fast the pairing server is lives in the benchmarks
// (BenchmarkServeLoad20Clients, scripts/load-pair.sh).
const patience = 3 * time.Minute

package model

import "time"

// patience is how long a test waits for a command's message before it
// calls it a hang and fails. It only catches hangs: a slow or busy machine
// makes a test slower, never failing. How fast the model is lives in the
// benchmarks (BenchmarkKeyWithPastedDraft and others).
const patience = 3 * time.Minute

package mockapi_test

import "time"

// patience is how long a test waits for what it expects (a reply from
// codex, a turn's end, a request at the mock, an exit) before it calls it
// a hang and fails. It only catches hangs: a slow or busy machine makes a
// test slower, never failing.
const patience = 3 * time.Minute

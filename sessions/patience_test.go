package sessions

import "time"

// patience is how long a test waits for what it expects before it calls
// it a hang and fails. It only catches hangs: a slow or busy machine makes
// a test slower, never failing.
const patience = 3 * time.Minute

// Package spill owns the temp files that hold command output on disk: the
// whole output of a command too big to keep in memory, and the file the
// output pager opens. Every byte written to one passes through
// redact.Writer first, so no secret reaches the disk in the clear.
//
// A spill file is named tandem-output-<pid>-<random>.log after the tandem
// process that made it, in os.TempDir(), mode 0600. The owner removes it
// when done; RemoveStale, called once at start-up, removes the files of
// tandems that are gone (one killed with SIGKILL cannot clean up).
//
// It imports only internal/lib/redact and the standard library.
package spill

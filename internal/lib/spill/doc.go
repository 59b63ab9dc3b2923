// Package spill owns the temp files that hold command output on disk: the
// whole output of a command too big to keep in memory, and the file the
// output pager opens. Every byte written to one is made safe for a
// terminal (termsafe.Writer: escape sequences and controls visible, as the
// transcript shows the output) and then passes through redact.Writer, so
// neither a secret nor a byte that drives a terminal reaches the disk.
//
// A spill file is named tandem-output-<pid>-<random>.log after the tandem
// process that made it, in os.TempDir(), mode 0600. The owner removes it
// when done; RemoveStale, called once at start-up, removes the files of
// tandems that are gone (one killed with SIGKILL cannot clean up).
//
// It imports only internal/lib/procfs, redact, termsafe and the standard
// library.
package spill

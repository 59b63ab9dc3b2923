package cli

import "github.com/spf13/cobra"

// newRootCmd is the command tree as the in-process tests run it: no
// linked version, and no usageArgs (Execute adds it).
func newRootCmd() *cobra.Command { return NewRootCmd("") }

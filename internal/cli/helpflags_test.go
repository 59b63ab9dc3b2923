package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// pflag takes the first `quoted` word of a usage string as the flag's
// value name ("--remote codex app-server --listen ws://…"). A backquote
// in a usage string must therefore hold a deliberate, upper-case value
// name such as `FILE`; every flag of every command is checked.
func TestFlagUsageBackquotes(t *testing.T) {
	valueName := regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check := func(fl *pflag.Flag) {
			if n := strings.Count(fl.Usage, "`"); n == 0 {
				return
			} else if n != 2 {
				t.Errorf("%s --%s: %d backquotes in usage %q", c.CommandPath(), fl.Name, n, fl.Usage)
				return
			}
			name, usage := pflag.UnquoteUsage(fl)
			if !valueName.MatchString(name) {
				t.Errorf("%s --%s: value name %q taken from backquotes (usage %q)", c.CommandPath(), fl.Name, name, usage)
			}
		}
		c.Flags().VisitAll(check)
		c.PersistentFlags().VisitAll(check)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}

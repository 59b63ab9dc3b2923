package cli

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// newRootCmd is the command tree as the in-process tests run it: no
// linked version, and no usageArgs (Execute adds it).
func newRootCmd() *cobra.Command { return NewRootCmd("") }

// TestHelpFilesAreCommands: every help/NAME.txt is a command's (none is
// left over), and each command's usage line names it.
func TestHelpFilesAreCommands(t *testing.T) {
	root := newRootCmd()
	byName := map[string]*cobra.Command{"chat": root}
	for _, c := range root.Commands() {
		byName[c.Name()] = c
	}
	files, err := fs.Glob(helpFiles, "help/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no help files (%v)", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")
		c, ok := byName[name]
		if !ok {
			t.Errorf("%s belongs to no command", f)
			continue
		}
		want := name
		if name == "chat" {
			want = "tandem" // the root command
		}
		if !strings.HasPrefix(c.Use, want) || c.Short == "" {
			t.Errorf("%s: use %q short %q", f, c.Use, c.Short)
		}
	}
}

package cli

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// docsText returns every docs/*.md file of the repository, run together.
func docsText(t *testing.T) []byte {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs/*.md: %v", err)
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, b...), '\n')
	}
	return all
}

// TestDocsNameEveryFlag: every flag of every command in --help — tandem's
// own and each subcommand's, local or persistent — is documented in
// docs/: its --name appears in some docs/*.md file. (Cobra's own help and
// completion commands and hidden flags are left out.)
func TestDocsNameEveryFlag(t *testing.T) {
	docs := docsText(t)
	root := newRootCmd()
	root.InitDefaultHelpFlag()
	root.InitDefaultVersionFlag()
	commands := map[string][]string{} // flag name → the commands that have it
	usage := map[string]string{}
	seen := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() == "help" || c.Name() == "completion" {
			return
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			seen++
			commands[f.Name] = append(commands[f.Name], c.CommandPath())
			usage[f.Name] = f.Usage
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if len(root.Commands()) < 5 || seen < 40 {
		t.Fatalf("walked %d commands' flags, %d in all: the command tree was not built", len(root.Commands()), seen)
	}
	for _, name := range slices.Sorted(maps.Keys(commands)) {
		if !regexp.MustCompile(`--` + regexp.QuoteMeta(name) + `([^A-Za-z0-9-]|$)`).Match(docs) {
			t.Errorf("--%s (%s; of %s) is documented in no docs/*.md", name, usage[name], strings.Join(commands[name], ", "))
		}
	}
}

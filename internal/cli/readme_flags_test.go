package cli

import (
	"os"
	"regexp"
	"testing"

	"github.com/spf13/pflag"
)

// Every flag of tandem (the chat's, which every session command shares)
// is in the README's flag table, by its long name.
func TestReadmeNamesEveryFlag(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	newRootCmd().Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		if !regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `([^a-z0-9-]|$)`).Match(readme) {
			t.Errorf("README.md does not name --%s", f.Name)
		}
	})
}

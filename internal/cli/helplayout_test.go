package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command's --help starts with its summary and the usage; the prose
// comes after the flags, and tandem's own is at most 8 lines (the rest is
// in docs/CLI.md).
func TestHelpShowsUsageFirst(t *testing.T) {
	root := newRootCmd()
	for _, c := range append([]*cobra.Command{root}, root.Commands()...) {
		if c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		r := newRootCmd()
		var out bytes.Buffer
		r.SetOut(&out)
		r.SetArgs(append(strings.Fields(c.CommandPath())[1:], "--help"))
		if err := r.Execute(); err != nil {
			t.Fatal(err)
		}
		help := out.String()
		before, _, ok := strings.Cut(help, "Usage:")
		if !ok || strings.Count(strings.TrimSpace(before), "\n") > 0 {
			t.Errorf("%s --help: more than the summary before the usage:\n%s", c.CommandPath(), before)
		}
		if c.Long != "" && strings.Index(help, "Flags:") > strings.Index(help, c.Long) {
			t.Errorf("%s --help: the prose comes before the flags", c.CommandPath())
		}
	}
	if n := strings.Count(root.Long, "\n") + 1; n > 8 {
		t.Errorf("tandem --help has %d lines of prose, want at most 8:\n%s", n, root.Long)
	}
}

// docs/CLI.md, where tandem --help points, holds what moved out of it and
// names every number and duration flag with the range it takes.
func TestCLIDocCoversHelp(t *testing.T) {
	doc, err := os.ReadFile("../../docs/CLI.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-i FILE", "--no-alt-screen", "paste-buffer", "--search", "--add-dir DIR", "--yolo",
		"/detach", "/stop", "--remote unix://PATH", "129 after SIGHUP", "--version"} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("docs/CLI.md does not mention %s", want)
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(fl *pflag.Flag) {
			if r, ok := fl.Value.(rangedFlag); ok && !bytes.Contains(doc, []byte("`--"+fl.Name+"`")) {
				t.Errorf("docs/CLI.md's table lacks %s --%s (%s)", c.CommandPath(), fl.Name, r.Range())
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}

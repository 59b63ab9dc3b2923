package cli

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// numberTypes are pflag's type names of number and duration flags.
var numberTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"float32": true, "float64": true, "duration": true}

// Every number and duration flag of every command checks its range: NaN,
// infinities, negatives and values too small to mean anything are a
// usage error (exit 2) that names the flag, and the flag's default is
// accepted. A number flag registered without a range fails here.
func TestNumberFlagsRejectNonsense(t *testing.T) {
	bad := []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "1e400", "-5", "-5s", "-0.5", "-1e-300", "1e-300", "1ns"}
	seen := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.Fields(c.CommandPath())[1:]
		check := func(fl *pflag.Flag) {
			if !numberTypes[fl.Value.Type()] {
				return
			}
			seen++
			if _, ok := fl.Value.(rangedFlag); !ok {
				t.Errorf("%s --%s is a %s flag without a range: register it with intFlag, floatFlag or durationFlag (numflags.go)",
					c.CommandPath(), fl.Name, fl.Value.Type())
				return
			}
			for _, v := range bad {
				args := append(append([]string{}, path...), "--"+fl.Name+"="+v)
				root := newRootCmd()
				usageArgs(root)
				root.SetArgs(args)
				root.SetOut(io.Discard)
				root.SetErr(io.Discard)
				err := root.Execute()
				var ue *usageError
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), `"--`+fl.Name+`"`) {
					t.Errorf("tandem %s: got %v, want a usage error naming --%s", strings.Join(args, " "), err, fl.Name)
				}
			}
			if err := fl.Value.Set(fl.DefValue); err != nil {
				t.Errorf("%s --%s refuses its default %q: %v", c.CommandPath(), fl.Name, fl.DefValue, err)
			}
		}
		c.Flags().VisitAll(check)
		c.PersistentFlags().VisitAll(check)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	if seen < 10 {
		t.Fatalf("found only %d number flags: the walk missed some", seen)
	}
}

// In range, a flag takes the value; zero, where it means "none", too.
func TestNumberFlagsTakeValues(t *testing.T) {
	cases := []struct {
		args []string
		want string // the flag's value after parsing
	}{
		{[]string{"replay", "--speed=2.5"}, "2.5"},
		{[]string{"replay", "--speed=0.01"}, "0.01"},
		{[]string{"replay", "--idle-limit=0"}, "0"},
		{[]string{"export", "--cols=0"}, "0"},
		{[]string{"export", "--cols=120"}, "120"},
		{[]string{"serve", "--idle-timeout=0"}, "0"},
		{[]string{"serve", "--idle-timeout=90s"}, "1m30s"},
		{[]string{"serve", "--idle-timeout=2h"}, "2h"},
		{[]string{"record", "--idle-time-limit=0.5"}, "0.5"},
	}
	for _, c := range cases {
		root := newRootCmd()
		cmd, rest, err := root.Find(c.args)
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.ParseFlags(rest); err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(c.args[1], "--"), "=")
		if got := cmd.Flags().Lookup(name).Value.String(); got != c.want {
			t.Errorf("%v: value %s, want %s", c.args, got, c.want)
		}
	}
}

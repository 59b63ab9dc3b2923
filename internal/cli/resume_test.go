package cli

import (
	"errors"
	"io"
	"testing"
)

func TestResumeCommandArgs(t *testing.T) {
	for _, args := range [][]string{
		{"resume", "--last", "019a0000-0000-7000-8000-000000000001"},
		{"resume", "a", "b"},
		{"resume", "--bogus"},
		{"resume", "-a", "sometimes"},
	} {
		root := newRootCmd()
		root.SetArgs(args)
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		err := root.Execute()
		var ue *usageError
		if err == nil || (!errors.As(err, &ue) && err.Error()[:7] != "accepts") {
			t.Errorf("%v: err = %v, want a usage error", args, err)
		}
	}
}

package config

import (
	"strings"
	"testing"
)

// resume_cwd: "session" by default, the file's or the profile's value
// otherwise; any other value stops tandem naming the allowed ones.
func TestResumeCwdSetting(t *testing.T) {
	cases := []struct {
		name, file, profile, want, err string
	}{
		{"default", "", "", "session", ""},
		{"top level", `resume_cwd = "current"`, "", "current", ""},
		{"profile wins", "resume_cwd = \"current\"\n[profiles.here]\nresume_cwd = \"session\"\n", "here", "session", ""},
		{"bad value", `resume_cwd = "there"`, "", "", `resume_cwd: invalid value "there": allowed values are session, current`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("config.toml", []byte(c.file))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s, err := Resolve(f, c.profile, Flags{Workspace: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if s.ResumeCwd != c.want {
				t.Errorf("resume_cwd %q, want %q", s.ResumeCwd, c.want)
			}
		})
	}
}

package config

import (
	"strings"
	"testing"
)

// notifications: "unfocused" by default, the file's or the profile's
// value otherwise; any other value stops tandem naming the allowed ones.
func TestNotificationsSetting(t *testing.T) {
	cases := []struct {
		name, file, profile, want, err string
	}{
		{"default", "", "", "unfocused", ""},
		{"top level", `notifications = "always"`, "", "always", ""},
		{"profile wins", "notifications = \"always\"\n[profiles.quiet]\nnotifications = \"off\"\n", "quiet", "off", ""},
		{"bad value", `notifications = "loud"`, "", "", `notifications: invalid value "loud": allowed values are unfocused, always, off`},
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
			if s.Notifications != c.want {
				t.Errorf("notifications %q, want %q", s.Notifications, c.want)
			}
		})
	}
}

package act

import "tandem/ui"

// Settings sets values the status line shows (status); a nil field
// leaves its value as it is.
type Settings struct {
	Model, Cwd, Approval, Sandbox, Peer *string
	// Mode is the collaboration mode's badge ("plan"; "" for the default).
	Mode *string
	// Goal and GoalStatus are the thread's goal ("" for none).
	Goal, GoalStatus *string
	RateLimits       *[]ui.RateLimit
	// LoggedOut is set once /logout ran, until a login.
	LoggedOut *bool
}

// ApplyTo sets the given values in info.
func (x Settings) ApplyTo(info *ui.StatusInfo) {
	for _, f := range []struct {
		v   *string
		dst *string
	}{{x.Model, &info.Model}, {x.Cwd, &info.Cwd}, {x.Approval, &info.Approval}, {x.Sandbox, &info.Sandbox},
		{x.Peer, &info.Peer}, {x.Mode, &info.Mode}, {x.Goal, &info.Goal}, {x.GoalStatus, &info.GoalStatus}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	if x.RateLimits != nil {
		info.RateLimits = *x.RateLimits
	}
}

// Str is &s, for a Settings field.
func Str(s string) *string { return &s }

// Bool is &b, for a Settings field.
func Bool(b bool) *bool { return &b }

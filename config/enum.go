package config

import (
	"fmt"
	"slices"
	"strings"
)

// Enum is an enumerated setting: its key in the config file, the flag
// that sets it on the command line, and its allowed values, which are the
// same in both places.
type Enum struct {
	// Key is the TOML key ("approval_policy"), in a profile too.
	Key string
	// Flag is the flag as errors name it ("-a/--ask-for-approval"); ""
	// when no flag sets the value.
	Flag string
	// Values are the allowed values, in the order help and errors list
	// them.
	Values []string
}

// The enumerated settings. The flags' --help text and every error list
// the allowed values from here.
var (
	// ApprovalPolicies are the values of approval_policy and
	// -a/--ask-for-approval (codex's `AskForApproval` names).
	ApprovalPolicies = Enum{Key: "approval_policy", Flag: "-a/--ask-for-approval", Values: []string{"untrusted", "on-request", "never"}}
	// SandboxModes are the values of sandbox and -s/--sandbox (codex's
	// `SandboxMode`).
	SandboxModes = Enum{Key: "sandbox", Flag: "-s/--sandbox", Values: []string{"read-only", "workspace-write", "danger-full-access"}}
	// Themes are the values of theme and --theme.
	Themes = Enum{Key: "theme", Flag: "--theme", Values: []string{"auto", "dark", "light"}}
	// CodexHomeModes are the values of codex_home: "shared" runs codex on
	// $CODEX_HOME itself, "per-run" on a fresh copy (see
	// backend.PrepareCodexHome). --isolated-home is a boolean, not this
	// enum, so Flag is "".
	CodexHomeModes = Enum{Key: "codex_home", Values: []string{"shared", "per-run"}}
	// NotificationModes are the values of notifications: when a turn
	// ends, or an approval or question waits, tandem sends a desktop
	// notification "always", only while the terminal is "unfocused" (the
	// default; see model/notify.go), or never ("off"). No flag sets it.
	NotificationModes = Enum{Key: "notifications", Values: []string{"unfocused", "always", "off"}}
	// ResumeCwdModes are the values of resume_cwd, codex's own key and
	// values (its [tui] resume_cwd, `ResumeCwdMode`): where a resumed or
	// forked thread runs, in the working directory recorded for the
	// thread ("session", the default) or in this run's workspace
	// ("current"). No flag sets it.
	ResumeCwdModes = Enum{Key: "resume_cwd", Values: []string{"session", "current"}}
)

// Allowed is the list of values as help and errors show it:
// "untrusted, on-request, never".
func (e Enum) Allowed() string { return strings.Join(e.Values, ", ") }

// Has reports whether v is one of the allowed values.
func (e Enum) Has(v string) bool { return slices.Contains(e.Values, v) }

// CheckFlag checks a flag value: "" (not given) and allowed values are
// fine; anything else is `invalid value "V" for FLAG: allowed values are
// A, B, C`.
func (e Enum) CheckFlag(v string) error {
	if v == "" || e.Has(v) {
		return nil
	}
	return fmt.Errorf("invalid value %q for %s: allowed values are %s", v, e.Flag, e.Allowed())
}

// checkValue is CheckFlag's message for a config-file value, which
// errAt prefixes with FILE:LINE: KEY.
func (e Enum) checkValue(v string) (string, bool) {
	if e.Has(v) {
		return "", true
	}
	return fmt.Sprintf("invalid value %q: allowed values are %s", v, e.Allowed()), false
}

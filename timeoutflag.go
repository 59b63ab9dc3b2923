package main

import (
	"time"

	"tandem/config"
)

// turnTimeoutValue is the --turn-timeout flag: a Go duration ("90s",
// "10m"), or "0", "off" or "none" for no timeout, the same values the
// config key turn_timeout accepts (config.ParseTurnTimeout).
type turnTimeoutValue struct{ d *time.Duration }

// Set implements pflag.Value.
func (v turnTimeoutValue) Set(s string) error {
	d, err := config.ParseTurnTimeout(s)
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}

// String implements pflag.Value.
func (v turnTimeoutValue) String() string {
	if v.d == nil {
		return ""
	}
	if *v.d == 0 {
		return "off"
	}
	return v.d.String()
}

// Type implements pflag.Value; it is the value name in --help.
func (v turnTimeoutValue) Type() string { return "duration" }

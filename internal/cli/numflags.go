package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Every number and duration flag is a rangeValue (or, for --turn-timeout,
// a turnTimeoutValue): its value is parsed and checked as it is set, so
// NaN, infinities, negatives and values too small to mean anything stop
// tandem before it starts — pflag's `invalid argument "NaN" for "--speed"
// flag: …`, a usage error (exit 2) naming the flag. numflags_test.go
// walks every command's flags and fails on a number flag that is not one.

// rangedFlag is a flag value that checks its range as it is set.
type rangedFlag interface {
	pflag.Value
	// Range says what the flag accepts, as its errors do.
	Range() string
}

// number is what a rangeValue holds.
type number interface{ int | float64 | time.Duration }

// rangeValue is a number or duration flag that accepts 0 when zero is
// set (it means "none", "no cap" or "the default") and otherwise only
// values from min to max.
type rangeValue[T number] struct {
	p        *T
	min, max T
	zero     bool
	unit     string // said after the range: "seconds"
	typ      string // pflag's type name: the value's name in --help
	parse    func(string) (T, error)
}

// intFlag registers an int flag, 0 (when zero) or from min to max.
func intFlag(fs *pflag.FlagSet, p *int, name string, def int, zero bool, min, max int, usage string) {
	*p = def
	parse := func(s string) (int, error) {
		n, err := strconv.ParseInt(s, 0, 64)
		if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return 0, fmt.Errorf("not a whole number")
		}
		return int(n), nil
	}
	fs.Var(&rangeValue[int]{p: p, min: min, max: max, zero: zero, typ: "int", parse: parse}, name, usage)
}

// floatFlag registers a float flag in unit ("" or "seconds"), 0 (when
// zero) or from min to max: NaN and the infinities are never in range.
func floatFlag(fs *pflag.FlagSet, p *float64, name string, def float64, zero bool, min, max float64, unit, usage string) {
	*p = def
	parse := func(s string) (float64, error) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("not a number")
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("not a finite number")
		}
		return f, nil
	}
	fs.Var(&rangeValue[float64]{p: p, min: min, max: max, zero: zero, unit: unit, typ: "float64", parse: parse}, name, usage)
}

// durationFlag registers a duration flag ("90s", "10m"), 0 (when zero)
// or from min to max.
func durationFlag(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, zero bool, min, max time.Duration, usage string) {
	*p = def
	parse := func(s string) (time.Duration, error) {
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("not a duration (a number with a unit: 90s, 10m, 1h)")
		}
		return d, nil
	}
	fs.Var(&rangeValue[time.Duration]{p: p, min: min, max: max, zero: zero, typ: "duration", parse: parse}, name, usage)
}

// Set implements pflag.Value: s parsed and in range, or an error saying
// the range (pflag names the flag and the value).
func (v *rangeValue[T]) Set(s string) error {
	n, err := v.parse(s)
	if err != nil {
		return fmt.Errorf("%v: want %s", err, v.Range())
	}
	if (n != 0 || !v.zero) && (n < v.min || n > v.max) {
		return fmt.Errorf("out of range: want %s", v.Range())
	}
	*v.p = n
	return nil
}

// Range implements rangedFlag: "0, or from 0.01 to 1000 seconds".
func (v *rangeValue[T]) Range() string {
	r := fmt.Sprintf("from %s to %s", v.show(v.min), v.show(v.max))
	if v.unit != "" {
		r += " " + v.unit
	}
	if v.zero {
		r = "0, or " + r
	}
	return r
}

// show writes n as it would be typed.
func (v *rangeValue[T]) show(n T) string {
	switch x := any(n).(type) {
	case time.Duration:
		if x == 0 {
			return "0"
		}
		s := x.String() // "8760h0m0s": the zero units are dropped
		if t, ok := strings.CutSuffix(s, "m0s"); ok {
			s = t + "m"
		}
		if t, ok := strings.CutSuffix(s, "h0m"); ok {
			s = t + "h"
		}
		return s
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(n)
}

// String implements pflag.Value: 0 as "0" (so --help leaves a zero
// default out).
func (v *rangeValue[T]) String() string {
	if v.p == nil {
		return "0"
	}
	return v.show(*v.p)
}

// Type implements pflag.Value: the value's name in --help ("float",
// "int", "duration"), as pflag's own flags of the type.
func (v *rangeValue[T]) Type() string { return v.typ }

// speedFlag registers --speed, a playback rate (default 1): from 0.01 (a
// hundred times slower) to 1000.
func speedFlag(fs *pflag.FlagSet, p *float64, usage string) {
	floatFlag(fs, p, "speed", 1, false, 0.01, 1000, "", usage)
}

// idleLimitFlag registers a cap on pauses in seconds (default 2): 0 for
// none, else from 0.01 s to a day.
func idleLimitFlag(fs *pflag.FlagSet, p *float64, name, usage string) {
	floatFlag(fs, p, name, 2, true, 0.01, 86400, "seconds", usage)
}

package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"tandem/internal/picture"
	"tandem/sessions"
)

// parseTurns reads --turns: a 1-based, inclusive range of turns — "2-4",
// one turn "3", or "2-" (turn 2 to the end) — as the picture bounds
// --from turn:A --to turn:B.
func parseTurns(s string) (from, to picture.Bound, err error) {
	bad := func(why string) error {
		return fmt.Errorf("%q: %s (--turns 2-4: turns 2 to 4, --turns 3: turn 3, --turns 2-: turn 2 to the end)", s, why)
	}
	a, b, isRange := strings.Cut(strings.TrimSpace(s), "-")
	first, err := strconv.Atoi(strings.TrimSpace(a))
	if err != nil || first < 1 {
		return from, to, bad("turns are numbered from 1")
	}
	last := first
	if isRange {
		if b = strings.TrimSpace(b); b == "" {
			last = 0 // to the end
		} else if last, err = strconv.Atoi(b); err != nil || last < 1 {
			return from, to, bad("turns are numbered from 1")
		} else if last < first {
			return from, to, bad("the range ends before it starts")
		}
	}
	if from, err = picture.ParseBound("turn:" + strconv.Itoa(first)); err != nil {
		return from, to, bad(err.Error())
	}
	if last > 0 {
		if to, err = picture.ParseBound("turn:" + strconv.Itoa(last)); err != nil {
			return from, to, bad(err.Error())
		}
	}
	return from, to, nil
}

// castVersionFlag registers --cast-version: the asciicast version a cast
// is written in, 3 (asciinema 3, the default) or 2.
func castVersionFlag(f *pflag.FlagSet, p *int) {
	intFlag(f, p, "cast-version", sessions.CastV3, false, sessions.CastV2, sessions.CastV3, "asciicast version of a .cast written: 3 (asciinema 3) or 2 (asciinema 2)")
}

// castVersion checks --cast-version: 0 (unset) is 3; other than 2 or 3
// is a usage error.
func castVersion(v int) (int, error) {
	switch v {
	case 0:
		return sessions.CastV3, nil
	case sessions.CastV2, sessions.CastV3:
		return v, nil
	}
	return 0, &usageError{fmt.Sprintf("invalid value %d for --cast-version: 3 or 2", v)}
}

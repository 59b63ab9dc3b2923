package pair

import (
	"fmt"
	"sync"
)

// Default caps on the terminals tandem serve hosts, each a program drawn
// on the host (Seats).
const (
	// DefaultSeatsPerKey is how many terminals one key may hold at once.
	DefaultSeatsPerKey = 4
	// DefaultSeats is how many terminals may be open in all.
	DefaultSeats = 100
)

// Seats counts the terminals open per key and in all, so that one key
// (or all of them together) cannot make the host draw without end. The
// zero value uses the defaults; its methods are safe for concurrent use.
type Seats struct {
	// PerKey and Total are the caps; zero means DefaultSeatsPerKey and
	// DefaultSeats.
	PerKey, Total int

	mu    sync.Mutex
	byKey map[string]int
	all   int
}

// Take reserves a seat for the key with fingerprint fp. It returns the
// function that gives the seat back (call it once, when the terminal
// ends) or an error saying which cap is full.
func (s *Seats) Take(fp string) (release func(), err error) {
	perKey, total := s.PerKey, s.Total
	if perKey <= 0 {
		perKey = DefaultSeatsPerKey
	}
	if total <= 0 {
		total = DefaultSeats
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKey == nil {
		s.byKey = map[string]int{}
	}
	switch {
	case s.byKey[fp] >= perKey:
		return nil, fmt.Errorf("this key already has %d terminals open here (the most one key may hold); close one and try again", perKey)
	case s.all >= total:
		return nil, fmt.Errorf("this session already has %d terminals open (the most it serves); try again later", total)
	}
	s.byKey[fp]++
	s.all++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.all--
			if s.byKey[fp]--; s.byKey[fp] <= 0 {
				delete(s.byKey, fp)
			}
		})
	}, nil
}

package deck

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// AgeEvery is how often the list and the inbox are drawn again while they
// are up and nothing else happens: their ages ("21s", how long a request
// has waited) move on by themselves.
const AgeEvery = time.Second

// ageTick is the list's clock: one is asked at a time, while the list or
// the inbox is up (ages).
type ageTick struct{}

// ages asks for the next ageTick while the list or the inbox is up and
// none is pending; nil otherwise. The tick changes nothing but the time
// the next View measures ages to.
func (d *Model) ages() tea.Cmd {
	if d.ticking || !d.ownsKeys() {
		return nil
	}
	d.ticking = true
	return d.opts.Every(AgeEvery, func(time.Time) tea.Msg { return ageTick{} })
}

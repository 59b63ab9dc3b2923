package act

// Role is what this viewer is and may do, asked in one place. A viewer is
// the host (tandem on its own terminal), a driver or a watcher of a
// shared session (tandem serve), or a replay; a guest is a driver or a
// watcher who came over SSH.
type Role struct {
	kind  roleKind
	guest bool
}

type roleKind int

const (
	host roleKind = iota
	driver
	watcher
	replay
)

// NewRole is the role of model.Options' flags: readOnly a watcher,
// shared a viewer fed by the pairing hub or a recording (a driver, or a
// replay when it has no hub), guest an SSH client of tandem serve.
func NewRole(readOnly, shared, guest bool) Role {
	switch {
	case readOnly:
		return Role{kind: watcher, guest: guest}
	case shared && guest:
		return Role{kind: driver, guest: true}
	case shared:
		return Role{kind: replay}
	}
	return Role{kind: host}
}

// SharedDriver is a driver of tandem serve on the host's own terminal
// (not over SSH).
func SharedDriver() Role { return Role{kind: driver} }

// Watches reports a watcher: it scrolls, opens the pager and leaves; it
// starts no turn and answers no request.
func (r Role) Watches() bool { return r.kind == watcher }

// Shared reports a viewer of a session others see too (a driver, a
// watcher or a replay): user messages are drawn from the thread's items,
// never echoed, and the thread can't be switched or restarted under the
// other viewers.
func (r Role) Shared() bool { return r.kind != host }

// Replays reports a replay of a recording: nothing it does reaches a
// server.
func (r Role) Replays() bool { return r.kind == replay }

// Guest reports an SSH client of tandem serve: nothing runs on the host
// for it ($EDITOR, $PAGER, the native clipboard), and the host's
// approval policy and sandbox are not its to change.
func (r Role) Guest() bool { return r.guest }

// String names the role: "host", "driver", "watcher" or "replay", with
// " (guest)" for an SSH client.
func (r Role) String() string {
	s := [...]string{"host", "driver", "watcher", "replay"}[r.kind]
	if r.guest {
		s += " (guest)"
	}
	return s
}

// GuestNoHostProgram is the notice for a key of a guest (Role.Guest)
// that would run a program on the host: $EDITOR (Ctrl+G) or $PAGER.
const GuestNoHostProgram = "not over tandem serve: $EDITOR and $PAGER would run on the host — Ctrl+T is the pager"

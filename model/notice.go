package model

import "slices"

// noticeKind says what a status-line notice is about, so it can be
// cleared when that ends without comparing its text.
type noticeKind int

const (
	noticeNone         noticeKind = iota
	noticeInfo                    // a passing hint or result ("copied the last answer")
	noticeStarting                // the app-server is starting
	noticeQuit                    // Ctrl+C is armed to quit
	noticeInterrupting            // turn/interrupt was sent
	noticeSteering                // turn/steer is on its way
	noticeBusy                    // a call waits to retry after -32001
	noticeFormWait                // keys keep a new form unfocused
	noticeLoginCheck              // the command line's prompt waits for the account check
	noticeDead                    // the app-server is gone
	noticeTimeout                 // the turn ran past --turn-timeout
	noticeHeld                    // Enter was refused until the server or thread is ready: "your message stays here"
	noticeOpening                 // a thread is being loaded (thread/resume)
	noticeImageCheck              // Enter waits for model/list: does the model take images
)

// notice is the status line's transient message.
type notice struct {
	kind noticeKind
	text string
}

// setNotice shows text as a notice of kind.
func (m *Model) setNotice(kind noticeKind, text string) { m.notice = notice{kind, text} }

// clearNotice removes the notice if it is of one of kinds (any kind when
// none is given).
func (m *Model) clearNotice(kinds ...noticeKind) {
	if len(kinds) == 0 || slices.Contains(kinds, m.notice.kind) {
		m.notice = notice{}
	}
}

package backend

import "time"

// A session's side of a server's silence (silence.go): how long it has
// owed tandem an answer, and the way to end a peer that does not answer.

// Unanswered implements Client (Conn.Unanswered).
func (s *Session) Unanswered() time.Time { return s.conn.Unanswered() }

// Kill is Close for a peer that does not answer: a process peer is sent
// SIGKILL at once, its whole process group with it (no grace for a
// server that reads nothing, such as one stopped with SIGSTOP); a peer
// that is no process is closed. It waits as Close does. On a lane it
// is Close without waiting for the server's answer.
func (s *Session) Kill() error {
	if s.lane {
		s.leave(false) // a lane ends only itself, waiting for no answer
		return nil
	}
	var err error
	s.once.Do(func() {
		s.closing.Store(true)
		if k, ok := s.stream.(interface{ Kill() error }); ok {
			err = k.Kill()
		} else {
			err = s.stream.Close()
		}
		<-s.conn.Done()
		<-s.closed
	})
	return err
}

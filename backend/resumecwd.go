package backend

import "path"

// ResumeCwd is where `thread/resume` and `thread/fork` run a thread: the
// config's resume_cwd, codex's own key and values (its `ResumeCwdMode`).
type ResumeCwd string

const (
	// ResumeCwdSession (the default; "" too) sends no cwd: codex runs the
	// thread in the working directory recorded for it, where its earlier
	// commands ran.
	ResumeCwdSession ResumeCwd = "session"
	// ResumeCwdCurrent sends the session's Cwd: the thread runs there,
	// wherever it was started.
	ResumeCwdCurrent ResumeCwd = "current"
)

// Elsewhere describes a thread resumed from another directory than the
// session's: Recorded is where it ran before, Current the session's Cwd,
// and Mode the rule that chose where it runs now (ResumeCwdSession: in
// Recorded; ResumeCwdCurrent: in Current). Absolute paths on the server's
// machine.
type Elsewhere struct {
	Mode              ResumeCwd
	Recorded, Current string
}

// openCwd is the cwd sent with `thread/resume` and `thread/fork`: the
// session's under ResumeCwdCurrent, else none (the thread's own).
func (s *Session) openCwd() string {
	if s.opts.ResumeCwd == ResumeCwdCurrent {
		return s.opts.Cwd
	}
	return ""
}

// elsewhere is the Elsewhere of a resume answered with cwd, recorded
// being the thread's directory read before it (ResumeCwdCurrent; "" when
// unknown): nil when the thread was and is in the session's Cwd, or the
// session has none (a remote server's own default).
func (s *Session) elsewhere(recorded, cwd string) *Elsewhere {
	here := s.opts.Cwd
	if here == "" {
		return nil
	}
	if s.opts.ResumeCwd == ResumeCwdCurrent {
		if recorded == "" || samePath(recorded, here) {
			return nil
		}
		return &Elsewhere{Mode: ResumeCwdCurrent, Recorded: recorded, Current: here}
	}
	if cwd == "" || samePath(cwd, here) {
		return nil
	}
	return &Elsewhere{Mode: ResumeCwdSession, Recorded: cwd, Current: here}
}

// samePath compares two absolute paths as codex reports them: equal
// once cleaned of a trailing slash.
func samePath(a, b string) bool {
	return path.Clean(a) == path.Clean(b)
}

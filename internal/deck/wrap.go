package deck

import (
	"reflect"

	tea "charm.land/bubbletea/v2"
)

// teaPkg is Bubble Tea's import path: a message of a type of that package
// is the program's own (quit, a printed line, an exec, the window title,
// a raw sequence, a batch or a sequence of commands).
var teaPkg = reflect.TypeOf(tea.BatchMsg(nil)).PkgPath()

// wrap makes cmd, a command lane's Update returned, give back what it
// produces tagged to that lane (LaneMsg). A batch or a sequence of
// commands comes back as the same batch or sequence of wrapped commands;
// any other message of Bubble Tea's own (tea.QuitMsg, tea.Println's,
// tea.Exec's, tea.RawMsg, …) passes through untouched, for the program.
func wrap(lane LaneID, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return tag(lane, cmd()) }
}

// tag is what wrap's command gives back for msg, a message lane's
// command produced.
func tag(lane LaneID, msg tea.Msg) tea.Msg {
	if msg == nil {
		return nil
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		out := make(tea.BatchMsg, 0, len(b))
		for _, c := range b {
			if c != nil {
				out = append(out, wrap(lane, c))
			}
		}
		return out
	}
	if cmds, ok := sequence(msg); ok {
		out := make([]tea.Cmd, 0, len(cmds))
		for _, c := range cmds {
			if c != nil {
				out = append(out, wrap(lane, c))
			}
		}
		if len(out) == 1 { // tea.Sequence would return the command itself
			return out[0]()
		}
		return tea.Sequence(out...)()
	}
	if ownType(msg) {
		return msg
	}
	return LaneMsg{Lane: lane, Msg: msg}
}

// sequence returns the commands of a tea.Sequence's message (a type
// Bubble Tea does not export: a slice of commands of its package that is
// not a BatchMsg).
func sequence(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	t := v.Type()
	if t.PkgPath() != teaPkg || t.Kind() != reflect.Slice || t.Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		return nil, false
	}
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i], _ = v.Index(i).Interface().(tea.Cmd)
	}
	return out, true
}

// ownType reports whether msg is of a type of Bubble Tea's package (or a
// pointer to one).
func ownType(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == teaPkg
}

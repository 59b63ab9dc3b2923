package main

import "tandem/backend"

// locateCodex finds the local codex executable from the resolved
// settings; an error names where a configured command came from (the
// --codex flag, or the config file, line and key). Over ssh or websocket
// (remote.go) no local codex is needed: it returns "" and no error. A bad
// --codex value is a usageError.
func (f *flags) locateCodex() (string, error) {
	if f.isRemote() {
		return "", nil
	}
	from := f.settings.CodexFrom
	if from == "" || f.settings.Codex != f.codex {
		from = "--codex"
	}
	p, err := backend.LocateCodexFrom(f.codex, from)
	if err != nil && f.codex != "" && from == "--codex" {
		return "", &usageError{err.Error()} // a bad flag value: exit 2
	}
	return p, err
}

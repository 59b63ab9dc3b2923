package main

import "tandem/backend"

// locateCodex finds the local codex executable from the resolved
// settings; an error names where a configured command came from (the
// --codex flag, or the config file, line and key).
func (f *flags) locateCodex() (string, error) {
	from := f.settings.CodexFrom
	if from == "" || f.settings.Codex != f.codex {
		from = "--codex"
	}
	return backend.LocateCodexFrom(f.codex, from)
}

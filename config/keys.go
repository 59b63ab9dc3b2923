package config

import (
	"fmt"
	"slices"
)

// KeyList is the value of one [keys] entry: the keys an action is bound
// to, in Bubble Tea's names ("alt+t", "f6"). The file may give an array
// of them or a single string (pager = "alt+t").
type KeyList []string

// UnmarshalTOML implements toml.Unmarshaler: a string is a list of one
// key, an array must hold only strings.
func (l *KeyList) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case string:
		*l = KeyList{x}
		return nil
	case []any:
		out := make(KeyList, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return fmt.Errorf("%s, got an array holding %s", keyListWords, valueWords(e))
			}
			out = append(out, s)
		}
		*l = out
		return nil
	}
	return fmt.Errorf("%s, got %s", keyListWords, valueWords(v))
}

// keyListWords says what a [keys] entry takes, for type errors.
const keyListWords = `expected a key or an array of keys ("alt+t" or ["alt+t", "f6"])`

// keyListFits reports whether the decoded TOML value v is a KeyList's: a
// string, or an array of strings.
func keyListFits(v any) (msg string, ok bool) {
	var l KeyList
	if err := l.UnmarshalTOML(v); err != nil {
		return err.Error(), false
	}
	return "", true
}

// Bindings returns the [keys] table: action name → its keys, as the
// keymap's Rebind takes it (nil when the file has no [keys]). The
// actions are the keymap's business: config checks only the shape.
func (f *File) Bindings() map[string][]string {
	if f == nil || len(f.Keys) == 0 {
		return nil
	}
	out := make(map[string][]string, len(f.Keys))
	for a, ks := range f.Keys {
		out[a] = slices.Clone(ks)
	}
	return out
}

// KeyError is an error about the [keys] entry of action, found after the
// file was loaded (an unknown action, a clash): it names the file and the
// entry's line (the [keys] table's when action is "" or not in it), with
// Key "keys" and msg as the message.
func (f *File) KeyError(action, msg string) *Error {
	e := &Error{Key: "keys", Msg: msg}
	if f == nil {
		return e
	}
	e.File = f.Path
	key := []string{"keys"}
	if action != "" {
		key = append(key, action)
	}
	e.Line = f.lines.line(key)
	return e
}

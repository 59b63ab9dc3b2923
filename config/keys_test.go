package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestKeysTable: [keys] decodes into action → keys, an array or a single
// string, in any of TOML's ways of writing a table; no table is no
// rebinding.
func TestKeysTable(t *testing.T) {
	tests := []struct {
		name string
		text string
		want map[string][]string
	}{
		{"none", "model = \"a\"\n", nil},
		{"empty table", "[keys]\n", nil},
		{"arrays", "[keys]\npager = [\"alt+t\"]\ncopy = [\"alt+c\", \"f6\"]\n",
			map[string][]string{"pager": {"alt+t"}, "copy": {"alt+c", "f6"}}},
		{"single string", "[keys]\npager = \"alt+t\"\n", map[string][]string{"pager": {"alt+t"}}},
		{"inline table", "keys = { pager = \"alt+t\", copy = [\"f6\"] }\n", map[string][]string{"pager": {"alt+t"}, "copy": {"f6"}}},
		{"dotted keys", "keys.pager = 'alt+t'\n", map[string][]string{"pager": {"alt+t"}}},
		// The names and the keys are the keymap's to check: config keeps
		// them as written, an empty list too.
		{"kept as written", "[keys]\nnot_an_action = []\nx = [\"\"]\n", map[string][]string{"not_an_action": {}, "x": {""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("config.toml", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Bindings(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Bindings() = %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestKeysTypeErrors: a [keys] entry that is neither a string nor an
// array of strings is an error at its line, in the file's own words.
func TestKeysTypeErrors(t *testing.T) {
	tests := []struct {
		name, text string
		line       int
		key, msg   string
	}{
		{"integer", "[keys]\npager = 3\n", 2, "keys.pager", `expected a key or an array of keys ("alt+t" or ["alt+t", "f6"]), got an integer`},
		{"array of integers", "model = \"a\"\n[keys]\n\ncopy = [\"alt+c\", 1]\n", 4, "keys.copy", "got an array holding an integer"},
		{"table", "[keys.pager]\nkey = \"alt+t\"\n", 1, "keys.pager", "got a table"},
		{"keys as string", "keys = \"alt+t\"\n", 1, "keys", `expected a table of key bindings ([keys] with ACTION = ["alt+t"]), got a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("config.toml", []byte(tt.text))
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("want *Error, got %v", err)
			}
			if ce.Line != tt.line || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) {
				t.Errorf("got line %d key %q msg %q; want line %d key %q msg ~%q", ce.Line, ce.Key, ce.Msg, tt.line, tt.key, tt.msg)
			}
		})
	}
}

// TestKeysNotInProfiles: a profile does not rebind keys; its [keys] is an
// unknown key, at its line.
func TestKeysNotInProfiles(t *testing.T) {
	_, err := Parse("config.toml", []byte("[profiles.p]\nmodel = \"a\"\n\n[profiles.p.keys]\npager = \"alt+t\"\n"))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("want *Error, got %v", err)
	}
	if ce.Line != 4 || !strings.Contains(ce.Msg, "profiles.p.keys (line 4)") || !strings.Contains(ce.Msg, "profiles.p.keys.pager (line 5)") || !strings.Contains(ce.Msg, "keys.ACTION (the top level's only)") {
		t.Errorf("got %v", err)
	}
}

// TestKeyError: an error the keymap finds after loading names the file
// and the line of the action's own entry (of [keys] when the action has
// none).
func TestKeyError(t *testing.T) {
	text := "model = \"a\"\n\n[keys]\npager = [\"alt+t\"]\n\ncopy = [\n  \"alt+c\",\n  \"f6\",\n]\nexpand = \"ctrl+t\"\n"
	f, err := Parse("/x/config.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		action string
		line   int
	}{{"pager", 4}, {"copy", 6}, {"expand", 10}, {"", 3}, {"not_there", 3}}
	for _, tt := range tests {
		e := f.KeyError(tt.action, "what is wrong")
		if e.File != "/x/config.toml" || e.Line != tt.line || e.Key != "keys" {
			t.Errorf("%q: got %+v, want line %d", tt.action, e, tt.line)
		}
		if want := fmt.Sprintf("/x/config.toml:%d: keys: what is wrong", tt.line); e.Error() != want {
			t.Errorf("%q: %q, want %q", tt.action, e.Error(), want)
		}
	}
	// Without a file (the defaults), no place.
	if got := (*File)(nil).KeyError("pager", "m").Error(); got != "keys: m" {
		t.Errorf("nil file: %q", got)
	}
}

package config

import (
	"bytes"
	"errors"
	"reflect"
	"strconv"

	"github.com/BurntSushi/toml"
)

// lineIndex finds the line each key of a TOML document is defined on, so
// that validation errors found after decoding can still name a line. The
// decoder keeps key positions private but puts them in the ParseError of
// a value's Unmarshaler; line asks it, decoding the document into a type
// that reaches just the key and fails there.
type lineIndex struct {
	data []byte
}

func indexLines(data []byte) *lineIndex { return &lineIndex{data: data} }

// line returns the 1-based line of key, or of its nearest defined parent,
// or 0 when none is defined (or idx is nil).
func (idx *lineIndex) line(key []string) int {
	if idx == nil {
		return 0
	}
	for l := len(key); l > 0; l-- {
		if n := definedAt(idx.data, key[:l]); n > 0 {
			return n
		}
	}
	return 0
}

// lineProbe fails whatever it is decoded from, so that the decoder's
// error carries the position of the key it sits at.
type lineProbe struct{}

// errProbe is what lineProbe fails with; the decoder's ParseError
// carries its text as Message.
var errProbe = errors.New("tandem: line probe")

// UnmarshalTOML implements toml.Unmarshaler.
func (lineProbe) UnmarshalTOML(any) error { return errProbe }

// definedAt decodes data into struct{F struct{F … lineProbe}} with one
// level per part of key and returns the line where the value the probe
// failed on begins: 0 when key is not in data (or lies inside an array of
// tables).
func definedAt(data []byte, key []string) int {
	t := reflect.TypeOf(lineProbe{})
	for i := len(key) - 1; i >= 0; i-- {
		t = reflect.StructOf([]reflect.StructField{{
			Name: "F", Type: t, Tag: reflect.StructTag("toml:" + strconv.Quote(key[i])),
		}})
	}
	var pe toml.ParseError
	if err := toml.Unmarshal(data, reflect.New(t).Interface()); errors.As(err, &pe) && pe.Message == errProbe.Error() {
		// Position.Line is where the lexer stood when the value ended
		// (the last line of a multi-line string); Start is where it began.
		if start := pe.Position.Start; start > 0 && start <= len(data) {
			return bytes.Count(data[:start], []byte("\n")) + 1
		}
		return pe.Position.Line
	}
	return 0
}

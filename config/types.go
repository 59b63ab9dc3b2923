package config

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// parseErrRE matches the decoder's type errors, which carry the line and
// the key only inside their text.
var parseErrRE = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// checkTypes compares the document's values with the types of rawFile
// before it is decoded, so a wrong type is reported in the file's own
// words ("profiles.x: expected a table ([profiles.x]), got an integer")
// instead of the decoder's Go type names, and a scalar where a table of
// profiles or servers belongs is not silently ignored. Keys rawFile does
// not know are left to unknownKeys. It returns the first error by line,
// or nil (also when the document does not parse: the decoder reports
// syntax errors).
func checkTypes(path string, data []byte, lines *lineIndex) error {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil
	}
	var errs []*Error
	walkTypes(doc, reflect.TypeFor[rawFile](), nil, func(key []string, msg string) {
		errs = append(errs, &Error{File: path, Line: lines.line(key), Key: toml.Key(key).String(), Msg: msg})
	})
	if len(errs) == 0 {
		return nil
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	return errs[0]
}

// walkTypes checks v against t at key, calling bad for each mismatch.
func walkTypes(v any, t reflect.Type, key []string, bad func(key []string, msg string)) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[KeyList]() { // a string or an array of strings
		if msg, ok := keyListFits(v); !ok {
			bad(key, msg)
		}
		return
	}
	if !fits(v, t) {
		bad(key, "expected "+typeWords(t, key)+", got "+valueWords(v))
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		m := v.(map[string]any)
		for k, e := range m {
			if ft, ok := fieldType(t, k); ok {
				walkTypes(e, ft, append(cloneKey(key), k), bad)
			}
		}
	case reflect.Map:
		for k, e := range v.(map[string]any) {
			walkTypes(e, t.Elem(), append(cloneKey(key), k), bad)
		}
	case reflect.Slice:
		for _, e := range v.([]any) {
			if !fits(e, derefType(t.Elem())) {
				bad(key, "expected "+typeWords(t, key)+", got an array holding "+valueWords(e))
				return
			}
		}
	}
}

func cloneKey(key []string) []string { return append([]string(nil), key...) }

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// fieldType finds the field of struct t whose toml name is k, looking
// into embedded structs.
func fieldType(t reflect.Type, k string) (reflect.Type, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if f.Anonymous && name == "" {
			if ft, ok := fieldType(f.Type, k); ok {
				return ft, true
			}
			continue
		}
		if name == k {
			return f.Type, true
		}
	}
	return nil, false
}

// fits reports whether the decoded TOML value v can go into t.
func fits(v any, t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		_, ok := v.(map[string]any)
		return ok
	case reflect.Slice:
		_, ok := v.([]any)
		return ok
	case reflect.String:
		_, ok := v.(string)
		return ok
	case reflect.Bool:
		_, ok := v.(bool)
		return ok
	case reflect.Int, reflect.Int64, reflect.Int32:
		_, ok := v.(int64)
		return ok
	case reflect.Float64, reflect.Float32:
		switch v.(type) {
		case int64, float64:
			return true
		}
		return false
	}
	return true
}

// typeWords names what t holds: "a string", "an array of strings", "a
// table ([profiles.x])".
func typeWords(t reflect.Type, key []string) string {
	t = derefType(t)
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		if t.Kind() == reflect.Map && derefType(t.Elem()).Kind() == reflect.String {
			return "a table of strings (" + toml.Key(key).String() + ".NAME = \"value\")"
		}
		if t.Kind() == reflect.Map && t.Elem() == reflect.TypeFor[KeyList]() {
			return "a table of key bindings ([" + toml.Key(key).String() + "] with ACTION = [\"alt+t\"])"
		}
		hdr := toml.Key(key).String()
		if t.Kind() == reflect.Map {
			hdr += ".NAME"
		}
		return "a table ([" + hdr + "])"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(typeWords(t.Elem(), key), "an "), "a ") + "s"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64, reflect.Float32:
		return "a number"
	}
	return "a " + t.Kind().String()
}

// valueWords names the TOML type of a decoded value.
func valueWords(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date/time"
	default:
		return "a value"
	}
}

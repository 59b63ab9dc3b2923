package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// codexProfilePath is codex's profile NAME in the codex home:
// CODEX_HOME/NAME.config.toml, the file `codex -p NAME` layers over
// config.toml (codex 0.169.0 and later).
func codexProfilePath(codexHome, name string) string {
	return filepath.Join(codexHome, name+".config.toml")
}

// codexProfileArgs reads the codex profile at path and returns its
// settings as app-server arguments, one "-c", "dotted.key=VALUE" pair per
// value that is not a table (VALUE in TOML, tables inside arrays inline),
// sorted by key: `codex app-server` takes no --profile, and a -c override
// is a layer over config.toml as the profile is. found is false (and the
// error nil) when the file does not exist. A key codex cannot take in a
// dotted path (one with a '.', a quote or a space) is an error naming it.
func codexProfileArgs(path string) (args []string, found bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("codex profile: %w", err)
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, true, fmt.Errorf("codex profile %s: %w", path, err)
	}
	var walk func(prefix string, m map[string]any) error
	walk = func(prefix string, m map[string]any) error {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !bareKey.MatchString(k) {
				where := "the top level"
				if prefix != "" {
					where = strings.TrimSuffix(prefix, ".")
				}
				return fmt.Errorf("codex profile %s: key %q in %s can't be passed to the app-server as a -c override (codex splits its keys at dots)", path, k, where)
			}
			if sub, ok := m[k].(map[string]any); ok {
				if err := walk(prefix+k+".", sub); err != nil {
					return err
				}
				continue
			}
			v, err := tomlInline(m[k])
			if err != nil {
				return fmt.Errorf("codex profile %s: %s%s: %w", path, prefix, k, err)
			}
			args = append(args, "-c", prefix+k+"="+v)
		}
		return nil
	}
	if err := walk("", doc); err != nil {
		return nil, true, err
	}
	return args, true, nil
}

// bareKey is a TOML bare key: what codex's dotted -c paths can name.
var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// tomlInline renders a decoded TOML value as inline TOML: strings as
// basic strings, tables as inline tables, arrays in brackets.
func tomlInline(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return tomlString(x), nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		switch {
		case math.IsInf(x, 1):
			return "inf", nil
		case math.IsInf(x, -1):
			return "-inf", nil
		case math.IsNaN(x):
			return "nan", nil
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s, nil
	case time.Time:
		// BurntSushi/toml marks local dates and times by their location.
		switch x.Location().String() {
		case "date-local":
			return x.Format("2006-01-02"), nil
		case "time-local":
			return x.Format("15:04:05.999999999"), nil
		case "datetime-local":
			return x.Format("2006-01-02T15:04:05.999999999"), nil
		}
		return x.Format(time.RFC3339Nano), nil
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := tomlInline(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case []map[string]any:
		parts := make([]string, len(x))
		for i, e := range x {
			s, err := tomlInline(e)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			s, err := tomlInline(x[k])
			if err != nil {
				return "", err
			}
			key := k
			if !bareKey.MatchString(k) {
				key = tomlString(k) // inside an inline table a quoted key is fine
			}
			parts[i] = key + " = " + s
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
	return "", fmt.Errorf("a value of type %T", v)
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"tandem/config"
	"tandem/internal/lib/redact"
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
	data, err := config.ReadSmallFile(path, config.MaxFileBytes)
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
			arg := prefix + k + "=" + v
			if redact.String(arg) != arg {
				// A -c argument is on codex's command line, which every
				// user of the machine can read (ps).
				return fmt.Errorf("codex profile %s: %s%s holds a secret, which tandem would have to pass on codex's command line, where any local user can read it (ps): put it in %s or the environment instead", path, prefix, k, "config.toml")
			}
			args = append(args, "-c", arg)
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

// tomlInline renders a decoded TOML value — a scalar or an array, tables
// inside arrays included — as inline TOML, with BurntSushi/toml's own
// encoder: it is encoded as the one element of an array (an element is
// always written inline) and the brackets are cut off again.
func tomlInline(v any) (string, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(map[string]any{"v": []any{v}}); err != nil {
		return "", err
	}
	s := strings.TrimSpace(b.String())
	if !strings.HasPrefix(s, "v = [") || !strings.HasSuffix(s, "]") || strings.Contains(s, "\n") {
		return "", fmt.Errorf("a value of type %T", v)
	}
	return s[len("v = [") : len(s)-1], nil
}

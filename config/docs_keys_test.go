package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// tomlKeys returns the keys a struct type reads from TOML, by its fields'
// toml tags: a field of struct type (or a pointer to one) gives its own
// keys under its name ("codex.command"); a map or a plain value is one
// key.
func tomlKeys(t reflect.Type, prefix string) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			out = append(out, tomlKeys(ft, prefix+name+".")...)
			continue
		}
		out = append(out, prefix+name)
	}
	return out
}

// TestConfigDocNamesEveryKey: every key the config reads — each of a
// layer's (the top level and a profile), and each of an MCP server's —
// is set in docs/CONFIG.md (`name = …`, in its full example or in the
// text), and a layer's keys are all in the unknown-keys message's list.
// The keys come from the structs the parser decodes into, so a key
// added there and documented nowhere fails here.
func TestConfigDocNamesEveryKey(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "CONFIG.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	set := func(key string) bool {
		_, last, ok := strings.Cut(key, ".")
		if !ok {
			last = key
		}
		return regexp.MustCompile(`(?m)(^|[^a-z0-9_.])` + regexp.QuoteMeta(last) + ` = `).MatchString(doc)
	}
	layer := tomlKeys(reflect.TypeFor[Layer](), "")
	mcp := tomlKeys(reflect.TypeFor[MCPServer](), "")
	if len(layer) < 10 || len(mcp) < 5 {
		t.Fatalf("read %d layer keys and %d MCP server keys from the structs", len(layer), len(mcp))
	}
	for _, k := range layer {
		if k == "mcp_servers" {
			if !strings.Contains(doc, "[mcp_servers.") {
				t.Error("docs/CONFIG.md shows no [mcp_servers.NAME] table")
			}
			continue
		}
		if !set(k) {
			t.Errorf("docs/CONFIG.md does not set %s", k)
		}
		if !slices.Contains(layerKeys, k) {
			t.Errorf("the unknown-keys message (layerKeys) does not list %s", k)
		}
	}
	for _, k := range mcp {
		if !set(k) {
			t.Errorf("docs/CONFIG.md does not set the MCP server key %s", k)
		}
	}
	if !strings.Contains(doc, "[keys]") {
		t.Error("docs/CONFIG.md does not name the [keys] table")
	}
}

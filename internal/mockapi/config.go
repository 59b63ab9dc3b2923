package mockapi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// DefaultModel is the model name WriteCodexHome and Overrides configure.
const DefaultModel = "mock-model"

// ProviderID is the model_providers key WriteCodexHome and Overrides use.
const ProviderID = "mock"

// setting is one config.toml key with its TOML-encoded value.
type setting struct{ key, value string }

// topSettings are the top-level keys, in file order.
func topSettings() []setting {
	return []setting{
		{"model", tomlString(DefaultModel)},
		{"model_provider", tomlString(ProviderID)},
		// No update check against GitHub/npm at startup.
		{"check_for_update_on_startup", "false"},
	}
}

// tableSettings are [table] key = value settings, in file order.
func tableSettings() []struct {
	table string
	kv    []setting
} {
	return []struct {
		table string
		kv    []setting
	}{
		{"analytics", []setting{{"enabled", "false"}}},
		{"feedback", []setting{{"enabled", "false"}}},
		// The curated-plugin sync at startup goes to github.com and chatgpt.com.
		{"features", []setting{{"plugins", "false"}}},
		// The update_plan checklist tool is off by default in 0.169.0;
		// with it a scripted {"call":"update_plan"} gives turn/plan/updated.
		{"tools.update_plan", []setting{{"enabled", "true"}}},
	}
}

// providerSettings are the [model_providers.mock] keys for baseURL.
func providerSettings(baseURL string) []setting {
	return []setting{
		{"name", tomlString("mock")},
		{"base_url", tomlString(baseURL)},
		{"wire_api", tomlString("responses")},
		{"request_max_retries", "0"},
		{"stream_max_retries", "0"},
		{"stream_idle_timeout_ms", "60000"},
		{"requires_openai_auth", "false"},
		{"supports_websockets", "false"},
	}
}

// CodexConfig returns the config.toml text that points codex at the mock
// served at baseURL (a URL ending in /v1) and keeps it off the network.
// If catalogPath is not empty it must be the absolute path of a file written
// by WriteModelCatalog; it is set as model_catalog_json.
func CodexConfig(baseURL, catalogPath string) string {
	var b strings.Builder
	b.WriteString("# Written by tandem/internal/mockapi: codex talks to a local mock of the\n")
	b.WriteString("# OpenAI Responses API instead of the network.\n")
	for _, s := range topSettings() {
		fmt.Fprintf(&b, "%s = %s\n", s.key, s.value)
	}
	if catalogPath != "" {
		fmt.Fprintf(&b, "model_catalog_json = %s\n", tomlString(catalogPath))
	}
	for _, t := range tableSettings() {
		fmt.Fprintf(&b, "\n[%s]\n", t.table)
		for _, s := range t.kv {
			fmt.Fprintf(&b, "%s = %s\n", s.key, s.value)
		}
	}
	fmt.Fprintf(&b, "\n[model_providers.%s]\n", ProviderID)
	for _, s := range providerSettings(baseURL) {
		fmt.Fprintf(&b, "%s = %s\n", s.key, s.value)
	}
	return b.String()
}

// CatalogFile is the name of the model catalog WriteCodexHome writes next to
// config.toml.
const CatalogFile = "mock-models.json"

// WriteCodexHome creates dir if needed and writes dir/config.toml with
// CodexConfig, plus the model catalog dir/mock-models.json (so codex knows
// DefaultModel and does not warn about missing model metadata). Point codex
// at it with the CODEX_HOME environment variable. No login (auth.json) is
// needed: the mock provider does not require OpenAI auth.
func WriteCodexHome(dir, baseURL string) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	catalog := filepath.Join(dir, CatalogFile)
	if err := WriteModelCatalog(catalog); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "config.toml"), []byte(CodexConfig(baseURL, catalog)), 0o644)
}

// ModelContextWindow is the context window the mock model catalog declares;
// codex reports it as modelContextWindow in thread/tokenUsage/updated.
const ModelContextWindow = 200000

// ModelCatalog returns a codex model catalog (the model_catalog_json format)
// with one entry, DefaultModel. These are the fields codex 0.169.0 requires
// plus a context window and reasoning levels.
func ModelCatalog() []byte {
	levels := []map[string]string{
		{"effort": "low", "description": "Fast responses with lighter reasoning"},
		{"effort": "medium", "description": "Balanced"},
		{"effort": "high", "description": "Greater reasoning depth"},
	}
	model := map[string]any{
		"slug":                         DefaultModel,
		"display_name":                 "Mock model",
		"description":                  "Scripted mock of the Responses API (tandem/internal/mockapi)",
		"base_instructions":            "You are a scripted mock model.",
		"supported_reasoning_levels":   levels,
		"default_reasoning_level":      "medium",
		"supports_reasoning_summaries": true,
		"shell_type":                   "unified_exec",
		"visibility":                   "list",
		"supported_in_api":             true,
		"priority":                     0,
		"support_verbosity":            false,
		"truncation_policy":            map[string]any{"mode": "tokens", "limit": 10000},
		"experimental_supported_tools": []string{},
		"supports_parallel_tool_calls": true,
		"context_window":               ModelContextWindow,
		"input_modalities":             []string{"text", "image"},
	}
	b, err := json.MarshalIndent(map[string]any{"models": []any{model}}, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// WriteModelCatalog writes ModelCatalog to path. Pass it to codex with
// `-c model_catalog_json="<abs path>"` when using Overrides.
func WriteModelCatalog(path string) error {
	return os.WriteFile(path, ModelCatalog(), 0o644)
}

// Overrides returns the settings of CodexConfig (without the model catalog)
// as codex command-line overrides ("-c", "key=value", ...), for use when the
// CODEX_HOME config cannot be replaced, e.g.
//
//	exec.Command(codex, append([]string{"app-server"}, mockapi.Overrides(url)...)...)
func Overrides(baseURL string) []string {
	var out []string
	for _, s := range topSettings() {
		out = append(out, "-c", s.key+"="+s.value)
	}
	for _, t := range tableSettings() {
		for _, s := range t.kv {
			out = append(out, "-c", t.table+"."+s.key+"="+s.value)
		}
	}
	var fields []string
	for _, s := range providerSettings(baseURL) {
		fields = append(fields, s.key+"="+s.value)
	}
	out = append(out, "-c", "model_providers."+ProviderID+"={"+strings.Join(fields, ",")+"}")
	return out
}

// tomlString returns s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

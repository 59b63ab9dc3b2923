package mockapi

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// DefaultModel is the model name WriteCodexHome and Overrides configure.
const DefaultModel = "mock-model"

// ProviderID is the model_providers key WriteCodexHome and Overrides use.
const ProviderID = "mock"

// codexConfig is the config.toml WriteCodexHome writes, encoded with
// BurntSushi/toml in field order.
type codexConfig struct {
	Model         string `toml:"model"`
	ModelProvider string `toml:"model_provider"`
	// No update check against GitHub/npm at startup.
	CheckForUpdateOnStartup bool    `toml:"check_for_update_on_startup"`
	ModelCatalogJSON        string  `toml:"model_catalog_json,omitempty"`
	Analytics               enabled `toml:"analytics"`
	Feedback                enabled `toml:"feedback"`
	// The curated-plugin sync at startup goes to github.com and chatgpt.com.
	Features struct {
		Plugins bool `toml:"plugins"`
	} `toml:"features"`
	// The update_plan checklist tool is off by default in 0.169.0; with it a
	// scripted {"call":"update_plan"} gives turn/plan/updated.
	Tools struct {
		UpdatePlan enabled `toml:"update_plan"`
	} `toml:"tools"`
	ModelProviders map[string]providerConfig `toml:"model_providers"`
}

type enabled struct {
	Enabled bool `toml:"enabled"`
}

// providerConfig is [model_providers.mock]: the Responses API at BaseURL,
// no retries, no OpenAI auth, no websockets.
type providerConfig struct {
	Name                string `toml:"name"`
	BaseURL             string `toml:"base_url"`
	WireAPI             string `toml:"wire_api"`
	RequestMaxRetries   int    `toml:"request_max_retries"`
	StreamMaxRetries    int    `toml:"stream_max_retries"`
	StreamIdleTimeoutMs int    `toml:"stream_idle_timeout_ms"`
	RequiresOpenAIAuth  bool   `toml:"requires_openai_auth"`
	SupportsWebsockets  bool   `toml:"supports_websockets"`
}

// newCodexConfig is the configuration pointing codex at the mock at baseURL.
func newCodexConfig(baseURL, catalogPath string) codexConfig {
	c := codexConfig{Model: DefaultModel, ModelProvider: ProviderID, ModelCatalogJSON: catalogPath}
	c.Tools.UpdatePlan.Enabled = true
	c.ModelProviders = map[string]providerConfig{ProviderID: {
		Name: "mock", BaseURL: baseURL, WireAPI: "responses", StreamIdleTimeoutMs: 60000,
	}}
	return c
}

// CodexConfig returns the config.toml text that points codex at the mock
// served at baseURL (a URL ending in /v1) and keeps it off the network.
// If catalogPath is not empty it must be the absolute path of a file written
// by WriteModelCatalog; it is set as model_catalog_json.
func CodexConfig(baseURL, catalogPath string) string {
	var b strings.Builder
	b.WriteString("# Written by tandem/internal/testkit/mockapi: codex talks to a local mock of the\n")
	b.WriteString("# OpenAI Responses API instead of the network.\n")
	if err := toml.NewEncoder(&b).Encode(newCodexConfig(baseURL, catalogPath)); err != nil {
		panic("mockapi: encoding config.toml: " + err.Error()) // plain values only: cannot fail
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
		"description":                  "Scripted mock of the Responses API (tandem/internal/testkit/mockapi)",
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
// as codex command-line overrides ("-c", "dotted.key=value", ...), for use
// when the CODEX_HOME config cannot be replaced, e.g.
//
//	exec.Command(codex, append([]string{"app-server"}, mockapi.Overrides(url)...)...)
func Overrides(baseURL string) []string {
	var doc map[string]any
	if _, err := toml.Decode(CodexConfig(baseURL, ""), &doc); err != nil {
		panic("mockapi: decoding own config: " + err.Error())
	}
	var out []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if sub, ok := m[k].(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			out = append(out, "-c", prefix+k+"="+tomlValue(m[k]))
		}
	}
	walk("", doc)
	return out
}

// tomlValue is v in TOML syntax, as a -c override's value.
func tomlValue(v any) string {
	var b strings.Builder
	if err := toml.NewEncoder(&b).Encode(map[string]any{"v": v}); err != nil {
		panic("mockapi: encoding an override: " + err.Error())
	}
	return strings.TrimSpace(strings.TrimPrefix(b.String(), "v = "))
}

// NewHome starts a mock answering with responses (New) and writes a
// CODEX_HOME for it (WriteCodexHome) in a temp dir of t; the mock is
// closed and the dir removed when t ends. A failure fails t.
func NewHome(t testing.TB, responses ...Response) (srv *Server, home string) {
	t.Helper()
	srv = New(responses...)
	t.Cleanup(srv.Close)
	home = t.TempDir()
	if err := WriteCodexHome(home, srv.URL); err != nil {
		t.Fatal(err)
	}
	return srv, home
}

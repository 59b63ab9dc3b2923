// Command tandem is a terminal client for the OpenAI Codex agent: it runs
// `codex app-server` and drives it over JSON-RPC from a Bubble Tea TUI.
// The commands live in internal/cli.
package main

import (
	"os"

	"tandem/internal/cli"
)

// version is set with -ldflags "-X main.version=…"; otherwise the module
// build info is used.
var version = ""

func main() {
	os.Exit(cli.Execute(cli.NewRootCmd(version)))
}

#!/usr/bin/env bash
# Load of a shared session: one streaming `tandem serve` session (the real
# codex app-server against the mock provider, which runs in a process of
# its own) with 1, 10, 50 and 100 SSH
# clients on loopback — 2 drivers, the rest watchers, two of them slow
# readers — and prints a Markdown table: time until every client has its
# first frame, the session's turn time against the same turn with no
# client, the process's CPU and RSS, and frames a second per client. It is
# bounded (one turn per count, a 15-minute cap) and stops by itself.
#
# Usage: scripts/load-pair.sh            (CLIENTS=1,10,50,100 by default)
#        CLIENTS=5,20 scripts/load-pair.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLIENTS="${CLIENTS:-1,10,50,100}"
TANDEM_CODEX="${TANDEM_CODEX:-$(./scripts/install-codex.sh)}"
export TANDEM_CODEX
TANDEM_LOAD_CLIENTS="$CLIENTS" go test -count=1 -timeout 15m -run 'TestServeLoadScale$' -v ./internal/pair |
  grep -E '^\||^(ok|FAIL)|--- FAIL|_test.go'

#!/usr/bin/env bash
# Installs the pinned Codex CLI (@openai/codex) into .codex-bin/ inside the
# project and prints the path of the codex binary. Idempotent: a second run
# with the right version installed only prints the path.
set -euo pipefail
VERSION="${CODEX_VERSION:-0.169.0}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/.codex-bin"
BIN="$DEST/node_modules/.bin/codex"
have() {
  [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "$VERSION"
}
if ! have; then
  mkdir -p "$DEST"
  [ -f "$DEST/package.json" ] || echo '{"name":"tandem-codex","private":true}' > "$DEST/package.json"
  npm install --prefix "$DEST" --no-audit --no-fund --loglevel=error "@openai/codex@$VERSION" >&2
fi
have || { echo "install-codex: codex $VERSION did not install" >&2; exit 1; }
echo "$BIN"

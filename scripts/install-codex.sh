#!/usr/bin/env bash
# Installs the Codex CLI (@openai/codex) inside the project and prints the
# path of the codex binary. The pinned version goes into .codex-bin/;
# another one, asked for with CODEX_VERSION (CODEX_VERSION=0.171.0
# scripts/install-codex.sh), into its own .codex-bin/VERSION/, so both can
# be installed at once. Idempotent: a second run with the right version
# installed only prints the path.
set -euo pipefail
PINNED=0.169.0
VERSION="${CODEX_VERSION:-$PINNED}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/.codex-bin"
if [ "$VERSION" != "$PINNED" ]; then
  case "$VERSION" in
    *[!A-Za-z0-9.+-]* | "" | .*) echo "install-codex: bad CODEX_VERSION '$VERSION'" >&2; exit 1 ;;
  esac
  DEST="$DEST/$VERSION"
fi
BIN="$DEST/node_modules/.bin/codex"
have() {
  [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -qF "$VERSION"
}
if ! have; then
  mkdir -p "$DEST"
  [ -f "$DEST/package.json" ] || echo '{"name":"tandem-codex","private":true}' > "$DEST/package.json"
  npm install --prefix "$DEST" --no-audit --no-fund --loglevel=error "@openai/codex@$VERSION" >&2
fi
have || { echo "install-codex: codex $VERSION did not install" >&2; exit 1; }
echo "$BIN"

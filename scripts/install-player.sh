#!/usr/bin/env bash
# Installs what the "a cast that a real player reads" test needs (the
# sessions/castplayer test): asciinema-player and playwright-core (npm),
# inside the project in .cache/player/, and prints that directory. The
# browser is Debian's chromium (scripts/test.sh installs it when missing).
# Idempotent: a second run with the right versions installed only prints
# the directory.
set -euo pipefail
PLAYER_VERSION=3.17.0
PLAYWRIGHT_VERSION=1.65.1
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/.cache/player"
have() {
  [ -f "$DEST/node_modules/asciinema-player/package.json" ] &&
    [ -f "$DEST/node_modules/playwright-core/package.json" ] &&
    grep -qF "\"version\": \"$PLAYER_VERSION\"" "$DEST/node_modules/asciinema-player/package.json" &&
    grep -qF "\"version\": \"$PLAYWRIGHT_VERSION\"" "$DEST/node_modules/playwright-core/package.json"
}
if ! have; then
  mkdir -p "$DEST"
  [ -f "$DEST/package.json" ] || echo '{"name":"tandem-castplayer","private":true}' > "$DEST/package.json"
  # playwright-core alone downloads no browser.
  npm install --prefix "$DEST" --no-audit --no-fund --loglevel=error \
    "asciinema-player@$PLAYER_VERSION" "playwright-core@$PLAYWRIGHT_VERSION" >&2
fi
have || { echo "install-player: asciinema-player $PLAYER_VERSION / playwright-core $PLAYWRIGHT_VERSION did not install" >&2; exit 1; }
echo "$DEST"

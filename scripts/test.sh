#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what the tests need —
# the pinned codex into .codex-bin/, the newest tested one (CODEX_NEXT)
# into .codex-bin/CODEX_NEXT/, and on Debian the OpenSSH server/client,
# tmux, fish (a non-POSIX login shell for the ssh tests) and chromium (it
# renders an exported SVG to a PNG, and runs asciinema-player) when missing,
# and asciinema-player with playwright-core (npm) into .cache/player/ —
# then checks formatting and vet, runs every test (end-to-end ones against
# the real codex app-server and the mock provider) and a bounded fuzz run
# of the JSON-RPC line dispatcher; then runs the packages that drive the
# real app-server again against CODEX_NEXT. TestProtocolDrift (backend)
# compares tandem's protocol use with both codexes' schemas. Each phase
# prints how long it took, and the end the whole run's time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The newest codex the end-to-end tests also run against (the pinned one
# is in scripts/install-codex.sh).
CODEX_NEXT=0.171.0
# The packages whose tests start the real codex app-server.
E2E_PACKAGES=(./backend ./internal/testkit/e2e ./internal/cli ./internal/pair ./internal/testkit/mockapi ./sessions/demo ./teatest)

# phase runs a phase of the run and prints how long it took (CI reads
# them: the whole run must stay well inside its 90 minutes).
phase() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "test.sh: phase '$name' took $((SECONDS - start))s" >&2
}

install_needs() {
  need=()
  command -v tmux >/dev/null || need+=(tmux)
  command -v fish >/dev/null || need+=(fish)
  [ -x /usr/sbin/sshd ] || need+=(openssh-server)
  command -v ssh >/dev/null || need+=(openssh-client)
  command -v ssh-keygen >/dev/null || need+=(openssh-client)
  command -v chromium >/dev/null || need+=(chromium)
  if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "test.sh: installing ${need[*]}" >&2
      apt-get update -qq >/dev/null
      # chromium on its own: Ubuntu has it only as a snap, so its absence
      # skips the picture tests rather than stopping the run.
      local base=() want_chromium=
      for p in "${need[@]}"; do
        if [ "$p" = chromium ]; then want_chromium=1; else base+=("$p"); fi
      done
      [ ${#base[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${base[@]}" >/dev/null
      if [ -n "$want_chromium" ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 ||
          echo "test.sh: could not install chromium (Ubuntu has it only as a snap); the picture tests are skipped and TestCastInARealPlayer fails" >&2
      fi
    else
      echo "test.sh: missing ${need[*]} (install them, or run as root on Debian)" >&2
    fi
  fi
}

install_codexes() {
  TANDEM_CODEX="$(./scripts/install-codex.sh)"
  TANDEM_CODEX_NEXT="$(CODEX_VERSION="$CODEX_NEXT" ./scripts/install-codex.sh)"
  export TANDEM_CODEX TANDEM_CODEX_NEXT
}

# The cast player test (internal/cli TestCastInARealPlayer) runs
# asciinema-player in headless chromium; with TANDEM_REQUIRE_PLAYER set a
# missing piece fails it instead of skipping it.
install_player() {
  TANDEM_PLAYER_DIR="$(./scripts/install-player.sh)"
  TANDEM_REQUIRE_PLAYER=1
  export TANDEM_PLAYER_DIR TANDEM_REQUIRE_PLAYER
}

run_start=$SECONDS
phase "system packages" install_needs
phase "codex $CODEX_NEXT and the pinned one" install_codexes
phase "asciinema-player and playwright-core" install_player

# Run the tests in a scratch HOME: tandem's state and config, and the login
# shells codex starts for commands (bash -lc), then never read or write the
# user's own dotfiles. Go keeps its caches where they were.
GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)" GOPATH="$(go env GOPATH)"
export GOCACHE GOMODCACHE GOPATH
TEST_HOME="$(mktemp -d "${TMPDIR:-/tmp}/tandem-test-home.XXXXXX")"
trap 'rm -rf "$TEST_HOME"' EXIT
export HOME="$TEST_HOME"
unset XDG_CONFIG_HOME XDG_STATE_HOME XDG_DATA_HOME CODEX_HOME

check_format() {
  local unformatted
  unformatted="$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.codex-bin/*'))"
  if [ -n "$unformatted" ]; then
    echo "gofmt needed on:" >&2; echo "$unformatted" >&2; return 1
  fi
}
phase "gofmt" check_format
phase "go vet" go vet ./...
phase "every test" go test -count=1 -timeout 25m ./...
phase "race" go test -count=1 -race -timeout 15m ./backend/... ./internal/hub ./internal/lib/shellwords ./internal/lib/redact ./internal/pair ./internal/lib/screen ./internal/lib/spill
# The pairing server runs one program per SSH client at once: its tests
# (real app-server, real SSH clients) run under the race detector too —
# internal/pair's in the line above, the serve command's here.
phase "race (tandem serve)" go test -count=1 -race -timeout 15m -run 'TestServe' ./internal/cli
if grep -q "func FuzzDispatch" backend/*_test.go 2>/dev/null; then
  phase "fuzz" go test -run='^$' -fuzz=FuzzDispatch -fuzztime="${FUZZTIME:-30s}" ./backend
fi
# The end-to-end packages once more, against the newest tested codex
# (about 1.5 minutes on 2 cores).
TANDEM_CODEX="$TANDEM_CODEX_NEXT" phase "end-to-end on codex $CODEX_NEXT" go test -count=1 -timeout 20m "${E2E_PACKAGES[@]}"
echo "test.sh: passed in $((SECONDS - run_start))s" >&2

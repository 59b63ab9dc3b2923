#!/usr/bin/env bash
# scripts/bench.sh — whole-process benchmark of tandem against codex's own
# TUI and a trivial app-server client (issue #4, docs/PERFORMANCE.md).
#
# Each run serves the BigMarkdown stream (100 KB of Markdown in 8,500
# deltas, mockapi script keyword big_markdown) from a fresh mock Responses
# API and runs one prompt through:
#   tandem   the TUI in tmux at 120×40, against the real `codex app-server`
#   codex    codex 0.169.0's own TUI in tmux at 120×40, same CODEX_HOME/mock
#   trivial  scripts/trivialclient: app-server + a minimal JSON-RPC client
# and reports, per client, the median over RUNS of
#   cpu   process-tree CPU seconds (user+sys of the client and every
#         process it waited for — the app-server included), from
#         /usr/bin/time; for codex plus the app-server daemon its TUI
#         starts detached (read from /proc, then the daemon is stopped)
#   rss   peak RSS in MiB: for tandem its own process (VmHWM), for the
#         others the largest process of the tree
#   wall  seconds from launch until the whole answer is on screen (TUIs,
#         polled every 40 ms) or turn/completed arrived (trivial)
# then the ratios against the targets, and the keystroke-echo p99 from the
# Go benchmark (model.BenchmarkKeystrokeEcho). Then (DECK=0 skips it) the
# many-threads numbers of issue #28: e2e.BenchmarkDeckStream (1 vs 10
# threads streaming at once), deck.BenchmarkSwitch1000Turns and
# deck.BenchmarkListIdle50. Then (SEARCH=0 skips it) `tandem search` over
# 1 GB of rollouts beside grep (#29).
#
# Usage: scripts/bench.sh            (RUNS=3 by default; needs go, tmux,
#                                     /usr/bin/time and codex 0.169.0 —
#                                     scripts/install-codex.sh installs it)
#        RUNS=5 CODEX=/path/to/codex scripts/bench.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
W=120
H=40
TIMEOUT=${TIMEOUT:-180}

# Install what a fresh Debian machine lacks (as root), like scripts/test.sh.
need=()
command -v tmux >/dev/null || need+=(tmux)
[[ -x /usr/bin/time ]] || need+=(time)
command -v bc >/dev/null || need+=(bc)
command -v pgrep >/dev/null || need+=(procps)
if ((${#need[@]})) && [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
	echo "bench.sh: installing ${need[*]}" >&2
	apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
for tool in go tmux /usr/bin/time bc pgrep; do
	command -v "$tool" >/dev/null || { echo "bench.sh: $tool is required" >&2; exit 2; }
done
[[ -x "$ROOT/.codex-bin/node_modules/.bin/codex" ]] || "$ROOT/scripts/install-codex.sh" >/dev/null

# The native codex binary (not the node wrapper, whose start-up would be
# billed to every client).
if [[ -z "${CODEX:-}" ]]; then
	CODEX=$(find "$ROOT/.codex-bin/node_modules/@openai" -type f -name codex -path '*vendor*' 2>/dev/null | head -1 || true)
	[[ -n "$CODEX" ]] || CODEX=$(command -v codex || true)
fi
[[ -x "$CODEX" ]] || { echo "bench.sh: codex not found; run scripts/install-codex.sh or set CODEX" >&2; exit 2; }
"$CODEX" --version | grep -q '0.169.0' || echo "bench.sh: warning: $("$CODEX" --version) is not codex 0.169.0" >&2

OUT=$(mktemp -d "${TMPDIR:-/tmp}/tandem-bench.XXXXXX")
SESS="tandem-bench-$$"
MOCKPID=""
cleanup() {
	tmux kill-session -t "$SESS" 2>/dev/null || true
	[[ -n "$MOCKPID" ]] && kill "$MOCKPID" 2>/dev/null || true
}
trap cleanup EXIT

echo "building into $OUT …"
(cd "$ROOT" && go build -o "$OUT/tandem" . && go build -o "$OUT/mockapi" ./internal/testkit/mockapi/cmd/mockapi && go build -o "$OUT/trivial" ./scripts/trivialclient)
echo '{"responses": [{"big_markdown": {"bytes": 100000, "deltas": 8500}}]}' >"$OUT/script.json"
PROMPT="write the benchmark document"

now() { date +%s.%N; }
mkfifo "$OUT/tick"
exec 9<>"$OUT/tick" # read -t on it is a sleep without a fork

# start_mock HOME: a fresh mock whose script starts over, and a CODEX_HOME
# pointing at it.
start_mock() {
	local home=$1
	mkdir -p "$home"
	"$OUT/mockapi" --script "$OUT/script.json" --codex-home "$home" --quiet >"$home/url" 2>"$home/mock.err" &
	MOCKPID=$!
	for _ in $(seq 100); do [[ -s "$home/url" ]] && return 0; sleep 0.05; done
	echo "bench.sh: mock did not start" >&2; exit 1
}
stop_mock() { kill "$MOCKPID" 2>/dev/null || true; wait "$MOCKPID" 2>/dev/null || true; MOCKPID=""; }

screen() { tmux capture-pane -p -t "$SESS" 2>/dev/null || true; }

# stop_daemons HOME: prints the CPU seconds of the processes running from
# HOME/packages (codex's app-server daemon) and stops them.
stop_daemons() {
	local home=$1 cpu=0 pid t
	for pid in $(pgrep -f "$home/packages/" || true); do
		t=$(awk '{print ($14 + $15 + $16 + $17) / 100}' "/proc/$pid/stat" 2>/dev/null || echo 0)
		cpu=$(echo "$cpu + $t" | bc -l)
		kill "$pid" 2>/dev/null || true
	done
	echo "$cpu"
}

# run_tui NAME DONE_REGEX ABSENT_REGEX QUITKEYS CMD… — runs CMD under
# /usr/bin/time in tmux, waits until the screen matches DONE_REGEX and not
# ABSENT_REGEX, records wall time, then quits with QUITKEYS.
run_tui() {
	local name=$1 done_re=$2 absent_re=$3 quit=$4
	shift 4
	local home="$OUT/home-$name-$RUN" ws="$OUT/ws-$name-$RUN"
	mkdir -p "$ws"
	start_mock "$home"
	local tf="$OUT/$name-$RUN.time" t0f="$OUT/$name-$RUN.t0"
	local t0
	# The clock starts inside the pane, right before the client: tmux's
	# own start-up is not the client's.
	tmux new-session -d -s "$SESS" -x $W -y $H \
		"cd '$ws' && date +%s.%N >'$t0f' && CODEX_HOME='$home' XDG_STATE_HOME='$OUT/state' /usr/bin/time -f '%e %U %S %M' -o '$tf' $*; sleep 0.2"
	# Poll the pane every 40 ms with as few forks as possible (one
	# capture-pane; bash matching; a builtin sleep), since the poller
	# competes for the same cores as the client it measures.
	local ok=0 s
	for _ in $(seq $((TIMEOUT * 25))); do
		s=$(screen)
		if [[ $s =~ $done_re && ! $s =~ $absent_re ]]; then ok=1; break; fi
		read -r -t 0.04 -u 9 _ || true
	done
	local t1
	t1=$(now)
	t0=$(cat "$t0f")
	if [[ $ok != 1 ]]; then
		echo "bench.sh: $name did not finish within ${TIMEOUT}s; last screen:" >&2
		screen >&2
		exit 1
	fi
	local own=""
	if [[ $name == tandem ]]; then
		local pid
		pid=$(pgrep -f "^$OUT/tandem " | head -1 || true)
		[[ -n "$pid" ]] && own=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
	fi
	screen >"$OUT/$name-$RUN.screen"
	for k in $quit; do tmux send-keys -t "$SESS" "$k" 2>/dev/null || true; sleep 0.3; done
	for _ in $(seq 200); do [[ -s "$tf" ]] && break; sleep 0.05; done
	tmux kill-session -t "$SESS" 2>/dev/null || true
	# codex's TUI runs the turn in an app-server daemon it starts detached
	# under CODEX_HOME/packages: bill its CPU to codex, then stop it.
	local daemon_cpu
	daemon_cpu=$(stop_daemons "$home")
	stop_mock
	rm -rf "$home/packages" # codex copies ~400 MB of daemon binaries here
	[[ -s "$tf" ]] || { echo "bench.sh: $name did not exit" >&2; exit 1; }
	read -r _ u sy maxrss <"$tf"
	u=$(echo "$u + $daemon_cpu" | bc -l)
	local rss=${own:-$maxrss}
	echo "$(echo "$t1 - $t0" | bc -l) $(echo "$u + $sy" | bc -l) $((rss / 1024))" >>"$OUT/$name.results"
	printf '  %-8s run %d: wall %.2fs  cpu %.2fs  rss %d MiB\n' "$name" "$RUN" "$(echo "$t1 - $t0" | bc -l)" "$(echo "$u + $sy" | bc -l)" $((rss / 1024))
}

run_trivial() {
	local home="$OUT/home-trivial-$RUN" ws="$OUT/ws-trivial-$RUN"
	mkdir -p "$ws"
	start_mock "$home"
	local tf="$OUT/trivial-$RUN.time" t0 t1
	t0=$(now)
	(cd "$ws" && CODEX_HOME="$home" /usr/bin/time -f '%e %U %S %M' -o "$tf" "$OUT/trivial" -codex "$CODEX" -cwd "$ws" "$PROMPT" >/dev/null)
	t1=$(now)
	stop_mock
	read -r _ u sy maxrss <"$tf"
	echo "$(echo "$t1 - $t0" | bc -l) $(echo "$u + $sy" | bc -l) $((maxrss / 1024))" >>"$OUT/trivial.results"
	printf '  %-8s run %d: wall %.2fs  cpu %.2fs  rss %d MiB\n' trivial "$RUN" "$(echo "$t1 - $t0" | bc -l)" "$(echo "$u + $sy" | bc -l)" $((maxrss / 1024))
}

command -v bc >/dev/null || { echo "bench.sh: bc is required" >&2; exit 2; }

for RUN in $(seq "$RUNS"); do
	echo "run $RUN/$RUNS"
	run_trivial
	# tandem: done when the token count is in the status line and the turn
	# no longer runs; Ctrl+D quits with an empty composer.
	run_tui tandem ' tokens' 'esc to interrupt' 'C-d' \
		"'$OUT/tandem' --codex '$CODEX' -a never -s read-only '$PROMPT'"
	# codex TUI: done when it prints "Worked for …" after the turn; Ctrl+C
	# twice quits.
	run_tui codex 'Worked for' 'esc to interrupt' 'C-c C-c' \
		"'$CODEX' -a never -s read-only '$PROMPT'"
done

# median COLUMN FILE
median() { awk -v c="$1" '{print $c}' "$2" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo
echo "keystroke echo while streaming (go test -bench KeystrokeEcho) …"
ECHO=$(cd "$ROOT" && go test ./model -run '^$' -bench 'KeystrokeEcho' -benchtime 3x 2>/dev/null | awk '/KeystrokeEcho/ {for (i=1;i<=NF;i++) if ($i=="p99-ms") print $(i-1)}')

# Many threads at once (issue #28): 1 vs 10 threads streaming through the
# command center against the real app-server (tandem's own CPU per KB,
# echo, peak RSS), switching to a 1,000-turn thread, the list of 50 idle
# threads. DECK=0 skips them.
if [[ ${DECK:-1} != 0 ]]; then
	echo
	echo "many threads at once (go test -bench DeckStream, Switch1000Turns, ListIdle50) …"
	DS=$(cd "$ROOT" && go test ./internal/testkit/e2e -run '^$' -bench DeckStream -benchtime 1x 2>/dev/null || true)
	DK=$(cd "$ROOT" && go test ./internal/deck -run '^$' -bench 'Switch1000Turns|ListIdle50' -benchtime 10x 2>/dev/null || true)
fi
# Search across threads (#29, docs/PERFORMANCE.md "Search"): `tandem
# search --all` over SEARCH_BYTES (1G) of generated rollouts
# (scripts/genrollouts, in a temp dir, removed after), pinned to 2 cores
# (taskset -c 0,1), best of 3 with a warm page cache, beside `grep -rl`
# and `grep -rli` over the same files: a word in 3 files, and one in none
# (every byte read). SEARCH=0 skips it.
if [[ ${SEARCH:-1} != 0 ]]; then
	echo "search across threads over ${SEARCH_BYTES:-1G} of rollouts …"
	SH="$OUT/search-home"
	(cd "$ROOT" && go run ./scripts/genrollouts -dir "$SH" -bytes "${SEARCH_BYTES:-1G}" -needle zebra42fish -hits 3) >/dev/null
	PIN=()
	command -v taskset >/dev/null && PIN=(taskset -c 0,1)
	# best3 CMD…: the best wall seconds and the peak RSS (MiB) of 3 runs.
	best3() {
		local best="" rss=0 t
		for _ in 1 2 3; do
			/usr/bin/time -f '%e %M' -o "$OUT/search.time" "${PIN[@]}" "$@" >/dev/null 2>&1 || true
			read -r t m <"$OUT/search.time"
			[[ -z "$best" || $(echo "$t < $best" | bc -l) == 1 ]] && best=$t
			((m / 1024 > rss)) && rss=$((m / 1024))
		done
		echo "$best $rss"
	}
	SR_HIT=$(CODEX_HOME="$SH" best3 "$OUT/tandem" search --all zebra42fish)
	SR_NONE=$(CODEX_HOME="$SH" best3 "$OUT/tandem" search --all absentword)
	GR_HIT=$(best3 grep -rl zebra42fish "$SH/sessions")
	GR_NONE=$(best3 grep -rl absentword "$SH/sessions")
	GRI_NONE=$(best3 grep -rli absentword "$SH/sessions")
	rm -rf "$SH"
fi
# metric REGEX UNIT: the value before UNIT on the benchmark lines matching REGEX.
metric() { awk -v re="$1" -v u="$2" '$1 ~ re {for (i=1;i<=NF;i++) if ($i==u) print $(i-1)}' | head -1; }

echo
printf '%-8s %8s %8s %8s   (median of %d runs, 100 KB / 8,500 deltas, %d×%d)\n' client wall_s cpu_s rss_MiB "$RUNS" $W $H
for n in trivial tandem codex; do
	printf '%-8s %8.2f %8.2f %8d\n' "$n" "$(median 1 "$OUT/$n.results")" "$(median 2 "$OUT/$n.results")" "$(median 3 "$OUT/$n.results")"
done
TC=$(median 2 "$OUT/tandem.results")
CC=$(median 2 "$OUT/codex.results")
TW=$(median 1 "$OUT/tandem.results")
BW=$(median 1 "$OUT/trivial.results")
TR=$(median 3 "$OUT/tandem.results")
echo
verdict() { if [[ $(echo "$1" | bc -l) == 1 ]]; then echo "ok"; else echo "MISSED"; fi; }
printf 'cpu  tandem+app-server / codex TUI   = %.2f  (target ≤ 0.35: %s)\n' "$(echo "$TC / $CC" | bc -l)" "$(verdict "$TC / $CC <= 0.35")"
printf 'wall tandem / trivial client         = %.2f  (target ≤ 1.2: %s)\n' "$(echo "$TW / $BW" | bc -l)" "$(verdict "$TW / $BW <= 1.2")"
# the same ratio paired run by run (steadier when the machine's load drifts)
PAIRED=$(paste "$OUT/tandem.results" "$OUT/trivial.results" | awk '{print $1/$4}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
printf '     paired per run, median             = %.2f  (runs: %s)\n' "$PAIRED" "$(paste "$OUT/tandem.results" "$OUT/trivial.results" | awk '{printf "%.2f ", $1/$4}')"
printf 'rss  tandem                          = %d MiB (target ≤ 60: %s)\n' "$TR" "$(verdict "$TR <= 60")"
printf 'keystroke echo p99 while streaming   = %s ms (target < 16: %s)\n' "${ECHO:-?}" "$(verdict "${ECHO:-99} < 16")"
if [[ -n "${DS:-}" ]]; then
	C1=$(echo "$DS" | metric 'threads=1-' cpu-ms/KB)
	C10=$(echo "$DS" | metric 'threads=10-' cpu-ms/KB)
	E10=$(echo "$DS" | metric 'threads=10-' echo-p99-ms)
	R10=$(echo "$DS" | metric 'threads=10-' peak-MiB)
	SW=$(echo "$DK" | awk '/Switch1000Turns.*never-drawn/ {print $3 / 1e6}' | sort -g | tail -1)
	LI=$(echo "$DK" | awk '/ListIdle50\/frame/ {print $3 / 1e6}')
	printf 'cpu  10 threads / 1 thread, per KB   = %.2f  (%s vs %s ms/KB; target ≤ 1.3: %s)\n' "$(echo "$C10 / $C1" | bc -l)" "$C10" "$C1" "$(verdict "$C10 / $C1 <= 1.3")"
	printf 'keystroke echo p99, 10 threads       = %s ms (target < 16: %s)\n' "$E10" "$(verdict "$E10 < 16")"
	printf 'rss  tandem, 10 threads              = %s MiB (target ≤ 120: %s)\n' "$R10" "$(verdict "$R10 <= 120")"
	printf 'switch to a 1,000-turn thread        = %s ms (target < 100: %s)\n' "$SW" "$(verdict "$SW < 100")"
	printf 'list of 50 idle threads, a frame     = %s ms\n' "$LI"
fi
if [[ -n "${SR_HIT:-}" ]]; then
	read -r st sr <<<"$SR_NONE"
	printf 'search 1 GB, a word in 3 files       = %s s, %s MiB (grep -rl: %s s)\n' "${SR_HIT% *}" "${SR_HIT#* }" "${GR_HIT% *}"
	printf 'search 1 GB, a word in none          = %s s (target < 2: %s), %s MiB (target < 100: %s); grep -rl %s s, grep -rli %s s\n' \
		"$st" "$(verdict "$st < 2")" "$sr" "$(verdict "$sr < 100")" "${GR_NONE% *}" "${GRI_NONE% *}"
fi
echo "raw results and last screens: $OUT"

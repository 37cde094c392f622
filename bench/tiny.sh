#!/bin/bash
# tiny.sh - table 3's small requests, the daemon against the bare server in
# the same run (issue 22): requests/s, p99 and the server's CPU per request.
#
#   bench/tiny.sh BIN BARE_SERVER [SERVER_SPEC...]
#
# A SERVER_SPEC is LABEL=ARGS: `bare=epoll 2` runs BARE_SERVER PORT epoll 2
# (so does any label starting with "bare"; ratios are to the one named
# bare), any other label runs BIN serve --port PORT ARGS (ARGS may be empty), or
# with LABEL written NAME:PATH, the binary at PATH (a build from before a
# change, run in the same rounds).  The
# default specs are the bare server in its fastest mode (epoll, a pool of
# as many threads as CPUs, the daemon's default --io-threads) and the
# daemon in its default configuration with --cache-bytes 0, so that every
# request is solved.  Each round runs every spec on every game's sample
# (bench/samples/; the bare server on matrix-game's), one wrk run each,
# specs interleaved so that a round sees the same machine; the table is the
# median of TINY_ROUNDS (default 5) rounds, and each ratio is the median of
# the per-round ratios to that round's bare server, which is what a shared,
# noisy machine allows.  CPU per request is the server's task-clock (perf
# stat, or utime + stime from /proc when perf is missing) over the run,
# divided by wrk's request count.
#
# TINY_PIN=1 runs every server on the last CPU and wrk on the others, a
# thread for each (taskset).  wrk shares the cores with the server
# otherwise, and each wake-up of wrk that lands on the server's core may
# preempt it, which a server costing more per request meets more often;
# pinned, that share of the kernel's time drops out of both sides.
#
# Output (stdout): one line per spec and game with the medians, then the
# ratio lines; TINY_RAW names a file that receives every run.  With
# GAME_LOOP naming bench/game_loop, each game's own in-process cost is
# measured first and a last table gives issue 34's CPU target per server
# and game: the bare server's CPU per request plus the game's own plus a
# quarter of the bare server's, against the server's median.
set -u
BIN=$(realpath "$1")
BARE=$(realpath "$2")
shift 2
ROUNDS=${TINY_ROUNDS:-5}
SECONDS_PER_RUN=${TINY_SECONDS:-3}
PORT=${TINY_PORT:-18090}
CONNS=${TINY_CONNECTIONS:-64}
GAMES=${TINY_GAMES:-$(scripts/games)}
CPUS=$(nproc)
SERVER_ON=
CLIENT_ON=
WRK_THREADS=2
if [ -n "${TINY_PIN:-}" ]; then
    if [ "$CPUS" -lt 2 ] || ! command -v taskset > /dev/null; then
        echo "tiny: TINY_PIN needs two CPUs and taskset" >&2
        exit 1
    fi
    SERVER_ON="taskset -c $((CPUS - 1))"
    CLIENT_ON="taskset -c 0-$((CPUS - 2))"
    WRK_THREADS=$((CPUS - 1))
fi
RAW=${TINY_RAW:-$(mktemp)}
: > "$RAW"
if [ $# -eq 0 ]; then
    set -- "bare=epoll $CPUS" "daemon=--cache-bytes 0"
fi
WORK=$(mktemp -d)
PID=
stop() {
    if [ -n "$PID" ]; then
        kill "$PID" 2>/dev/null
        wait "$PID" 2>/dev/null
        PID=
    fi
}
trap 'stop; rm -rf "$WORK"' EXIT

# start LABEL ARGS: start that server on PORT and wait until it answers.
start() {
    local label=$1 args=$2
    if [ "${label#bare}" != "$label" ]; then
        # shellcheck disable=SC2086 # ARGS are words
        $SERVER_ON "$BARE" "$PORT" $args > /dev/null 2>&1 &
    else
        local bin=$BIN
        [ "${label#*:}" = "$label" ] || bin=${label#*:}
        # shellcheck disable=SC2086
        $SERVER_ON "$bin" serve --port "$PORT" $args > /dev/null 2> "$WORK/log" &
    fi
    PID=$!
    for _ in $(seq 200); do
        curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && return 0
        sleep 0.05
    done
    echo "tiny: $label did not start" >&2
    exit 1
}

# cpu_ticks: the server's utime + stime in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }

# run URL BODY: "rps p99_ms cpu_us_per_request" for one wrk run.
run() {
    local url=$1 body=$2 t0 t1 out
    t0=$(cpu_ticks)
    rm -f "$WORK/perf"
    # perf counts the server exactly while wrk runs (wrk is its workload).
    local perf=
    command -v perf > /dev/null && perf="perf stat -x, -e task-clock -p $PID -o $WORK/perf --"
    # shellcheck disable=SC2086 # CLIENT_ON is words
    out=$(BODY_FILE=$body $perf $CLIENT_ON wrk -t"$WRK_THREADS" -c"$CONNS" \
        -d"${SECONDS_PER_RUN}s" --latency -s bench/post.lua "$url" 2>&1)
    t1=$(cpu_ticks)
    local msec
    msec=$(awk -F, '/task-clock/ { print $1 }' "$WORK/perf" 2>/dev/null)
    [ -n "$msec" ] || msec=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" \
        'BEGIN { print (b - a) * 1000 / hz }')
    echo "$out" | awk -v ms="$msec" '
        /requests in/ { n = $1 }
        /Requests\/sec/ { rps = $2 }
        /^ +99%/ { p = $2; v = p + 0; if (p ~ /us$/) v /= 1000; else if (p ~ /ms$/) v += 0;
                   else if (p ~ /s$/) v *= 1000; p99 = v }
        END { printf "%s %.2f %.2f\n", rps, p99, (n > 0 ? ms * 1000 / n : 0) }'
}

# The games' own CPU per request in process, "game=us,...", when asked.
OWN=
if [ -n "${GAME_LOOP:-}" ]; then
    for g in $GAMES; do
        read -r _ us < <("$GAME_LOOP" "$g" "bench/samples/$g.txt" 1)
        OWN="$OWN$g=$us,"
        echo "tiny: $g in process: $us us CPU per parse, solve and write" >&2
    done
fi

for round in $(seq "$ROUNDS"); do
    for spec in "$@"; do
        label=${spec%%=*} args=${spec#*=}
        start "$label" "$args"
        label=${label%%:*}
        if [ "${label#bare}" != "$label" ]; then
            games=matrix-game
        else
            games=$GAMES
        fi
        for g in $games; do
            path=/solve/$g
            [ "${label#bare}" != "$label" ] && path=/
            read -r rps p99 cpu < <(run "http://127.0.0.1:$PORT$path" "bench/samples/$g.txt")
            echo "$round $label $g $rps $p99 $cpu" >> "$RAW"
            echo "tiny: round $round $label $g: $rps req/s, p99 $p99 ms, $cpu us CPU/request" >&2
        done
        stop
    done
done

# Medians per label and game, then each round's ratio to its bare server.
awk -v own="$OWN" '
    function median(key,   n, i, j, t, v) {
        n = split(vals[key], v, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { rps[$1, $2, $3] = $4; cpu[$1, $2, $3] = $6
      k = $2 " " $3; if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
      vals["rps " k] = vals["rps " k] " " $4; vals["p99 " k] = vals["p99 " k] " " $5
      vals["cpu " k] = vals["cpu " k] " " $6; rounds[$1] = 1 }
    END {
        for (r in rounds) for (i = 1; i <= nk; i++) {
            split(order[i], lg, " ")
            if (lg[1] == "bare" || !((r, "bare", "matrix-game") in rps)) continue
            vals["ratio " order[i]] = vals["ratio " order[i]] " " rps[r, lg[1], lg[2]] / rps[r, "bare", "matrix-game"]
            vals["cpur " order[i]] = vals["cpur " order[i]] " " cpu[r, lg[1], lg[2]] / cpu[r, "bare", "matrix-game"]
        }
        printf "%-12s %-16s %10s %8s %8s %8s %8s\n", "server", "game", "req/s", "p99 ms", "CPU us", "x bare", "CPU x"
        for (i = 1; i <= nk; i++) {
            k = order[i]; split(k, lg, " ")
            printf "%-12s %-16s %10.0f %8.2f %8.2f %8s %8s\n", lg[1], lg[2], median("rps " k), median("p99 " k),
                median("cpu " k), lg[1] == "bare" ? "1" : sprintf("%.2f", median("ratio " k)),
                lg[1] == "bare" ? "1" : sprintf("%.2f", median("cpur " k))
        }
        if (own == "" || !(("cpu bare matrix-game") in vals)) exit
        n = split(own, pairs, ",")
        for (i = 1; i <= n; i++) if (split(pairs[i], kv, "=") == 2) us[kv[1]] = kv[2]
        bare = median("cpu bare matrix-game")
        printf "\n%-12s %-16s %8s %8s %8s %8s %8s\n", "server", "game", "bare us", "game us", "target", "CPU us", "verdict"
        for (i = 1; i <= nk; i++) {
            k = order[i]; split(k, lg, " ")
            if (lg[1] == "bare" || !(lg[2] in us)) continue
            t = bare * 1.25 + us[lg[2]]; c = median("cpu " k)
            printf "%-12s %-16s %8.2f %8.2f %8.2f %8.2f %8s\n", lg[1], lg[2], bare, us[lg[2]], t, c, c <= t ? "met" : "missed"
        }
    }' "$RAW"

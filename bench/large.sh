#!/bin/bash
# large.sh - table 2's large inputs through HTTP against `gamejudge solve`,
# in the same rounds, with the daemon's own split of each request (issue 22).
#
#   bench/large.sh BIN TOOLDIR
#
# TOOLDIR holds bench/measure, bench/bare_server and bench/gen as `make
# bench-tools` builds them, and the inputs in TOOLDIR/in (generated here
# with run.sh's seeds when missing).  Each round runs, for every input, the
# curl floor (the same curl command against the bare server, which reads
# the body and answers a fixed small JSON), the solve command and curl
# against the daemon (`--cache-bytes 0`: every request solves), each a
# fresh process timed by bench/measure; the table is the median of
# LARGE_ROUNDS (default 5) rounds, and curl / solve the median of the
# per-round ratios, which is what a shared machine allows.
#
# The daemon's split comes from its answer's Server-Timing (parse, solve,
# write) and its JSON access log (duration from the request's first byte
# to the answer sent): "waiting" is that duration less the work, the time
# the request spent receiving its body and sending its answer, and "outside
# the daemon" is curl's time less that duration (curl's start, reading its
# input, connecting, its exit).  An input whose name ends in .json (the
# JSON twin of the 2000 x 2000 matrix, generated here) is sent as application/json, which the daemon
# reads as it arrives: its parse then runs during the waiting, which the
# split counts once, as parse.  "overlap
# bound" is what a perfect overlap of the parse with the upload could at
# best give: curl less the smaller of the parse and the waiting, over the
# solve command.  "daemon / command" is issue 34's target (at most 1.15):
# the daemon's own time (the access log's duration) over the solve
# command's parse + solve + write, which `solve --timing` prints.
# Output (stdout): one markdown row per input.
set -u
BIN=$(realpath "$1")
DIR=$(realpath "$2")
ROUNDS=${LARGE_ROUNDS:-5}
PORT=${LARGE_PORT:-18180}
BARE_PORT=$((PORT + 1))
INPUTS=${LARGE_INPUTS:-matrix-2000-k1 matrix-2000-k1000 grid-100-10pct nim-1e5-wide \
choc-2000-1pct-odd chess-10x10}
IN=$DIR/in
WORK=$(mktemp -d)
mkdir -p "$IN"

# gen NAME GENERATOR-ARGS...: make IN/NAME once (run.sh's seeds).
gen() {
    local name=$1
    shift
    [ -s "$IN/$name" ] || "$DIR/gen" "$@" > "$IN/$name" || exit 1
}
gen matrix-2000-k1 matrix 2000 1 101
gen matrix-2000-k1.json matrix 2000 1 101 json
gen matrix-2000-k1000 matrix 2000 1000 102
gen grid-100-10pct grid 100 100 100 202
gen nim-1e5-wide nim 100000 100000 1000000000 301
gen choc-2000-1pct-odd chocolate 2000 10 odd 404
gen chess-10x10 chess 10 10 501

game_of() {
    case $1 in
    matrix*) echo matrix-game ;; grid*) echo grid-walk ;; nim*) echo nim-shortcuts ;;
    choc*) echo prime-chocolate ;; chess*) echo staircase-chess ;;
    esac
}

BARE_PID='' DAEMON_PID=''
stop() {
    for p in $BARE_PID $DAEMON_PID; do kill "$p" 2> /dev/null && wait "$p" 2> /dev/null; done
    rm -rf "$WORK"
}
trap stop EXIT

# wait_for PORT: until the server answers.
wait_for() {
    for _ in $(seq 100); do
        curl -s -o /dev/null "http://127.0.0.1:$1/healthz" && return 0
        sleep 0.05
    done
    echo "large: no server on port $1" >&2
    exit 1
}

"$DIR/bare_server" "$BARE_PORT" > /dev/null 2>&1 &
BARE_PID=$!
"$BIN" serve --port "$PORT" --cache-bytes 0 --log-format json > /dev/null 2> "$WORK/log" &
DAEMON_PID=$!
wait_for "$BARE_PORT"
wait_for "$PORT"

# One line per run: input round floor solve http parse solve write (seconds; ms for the split).
for round in $(seq "$ROUNDS"); do
    for name in $INPUTS; do
        g=$(game_of "$name")
        f=$IN/$name
        read -r floor _ _ _ < <("$DIR/measure" 1 "$f" /dev/null curl -sS -f --data-binary @- \
            "http://127.0.0.1:$BARE_PORT/")
        read -r solo _ _ _ < <("$DIR/measure" 1 "$f" /dev/null "$BIN" solve "$g" --timing \
            2> "$WORK/cli")
        cli=$(sed 's/[a-z]*;dur=//g; s/,//g' "$WORK/cli") # the command's parse solve write
        type=text/plain
        [ "${name%.json}" = "$name" ] || type=application/json
        read -r http _ _ _ < <("$DIR/measure" 1 "$f" /dev/null curl -sS -f -D "$WORK/head" \
            -H "Content-Type: $type" --data-binary @- "http://127.0.0.1:$PORT/solve/$g?format=text")
        timing=$(tr -d '\r' < "$WORK/head" | sed -n 's/^[Ss]erver-[Tt]iming: //p')
        split=$(echo "$timing" | sed 's/[a-z]*;dur=//g; s/,//g') # queue parse solve write
        echo "$name $round $floor $solo $http $split $cli" >> "$WORK/runs"
    done
done
kill "$DAEMON_PID" && wait "$DAEMON_PID" 2> /dev/null # the stop flushes the access log
DAEMON_PID=''
# The daemon's durations, in the order the requests came.
grep '"path":"/solve/' "$WORK/log" | sed 's/.*"duration_us":\([0-9]*\).*/\1/' > "$WORK/durations"
paste -d' ' "$WORK/runs" "$WORK/durations" > "$WORK/all"

echo "| input | solve ms | curl ms | curl / solve | curl floor ms | daemon queue ms | parse ms |" \
    "solve ms | write ms | waiting ms | outside the daemon ms | overlap bound | daemon ms |" \
    "command's parse + solve + write ms | daemon / command |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for name in $INPUTS; do
    awk -v n="$name" '
        function median(a, k,    i, j, t) {
            for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
                t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
            }
            return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
        }
        $1 == n {
            k++
            floor[k] = $3 * 1000; solo[k] = $4 * 1000; http[k] = $5 * 1000
            queue[k] = $6; parse[k] = $7; solve[k] = $8; write[k] = $9
            outside[k] = http[k] - $13 / 1000
            waitv[k] = $13 / 1000 - $6 - $7 - $8 - $9
            hide = $7 < waitv[k] ? $7 : waitv[k]
            ratio[k] = http[k] / solo[k]
            best[k] = (http[k] - hide) / solo[k]
            own[k] = $13 / 1000
            work[k] = $10 + $11 + $12
            mine[k] = own[k] / work[k]
        }
        END {
            printf "| %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f |\n",
                n, median(solo, k), median(http, k), median(ratio, k), median(floor, k),
                median(queue, k), median(parse, k), median(solve, k), median(write, k),
                median(waitv, k), median(outside, k), median(best, k), median(own, k),
                median(work, k), median(mine, k)
        }' "$WORK/all"
done

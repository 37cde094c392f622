#!/bin/bash
# peak.sh - the daemon's peak memory per body, judge text against JSON, at
# about 1, 8 and 31 MB (issue 34's "peak RSS per body").
#
#   bench/peak.sh BIN TOOLDIR
#
# TOOLDIR holds bench/gen as `make bench-tools` builds it; the inputs go to
# TOOLDIR/in (seeded matrices: n = 380, 1000 and 2000, each as text, as
# JSON, the same permutation, and as that JSON in an /analyze request).
# For each input and route, PEAK_ROUNDS (default 2) times: a fresh
# `gamejudge serve --cache-bytes 0 --memory-budget 0` (nothing kept,
# nothing refused), one POST of the body with curl, then the daemon's
# VmHWM; (peak - idle) / body is what the request itself cost, which the
# idle daemon hides at 1 MB.  Memory does not depend on the machine's load
# the way time does, so two rounds show the spread.  Output (stdout): one
# markdown row per input and route.
set -u
BIN=$(realpath "$1")
DIR=$(realpath "$2")
ROUNDS=${PEAK_ROUNDS:-2}
PORT=${PEAK_PORT:-18280}
IN=$DIR/in
mkdir -p "$IN"

# gen NAME GENERATOR-ARGS...: make IN/NAME once.
gen() {
    local name=$1
    shift
    [ -s "$IN/$name" ] || "$DIR/gen" "$@" > "$IN/$name" || exit 1
}
gen matrix-380-k1 matrix 380 1 111
gen matrix-380-k1.json matrix 380 1 111 json
gen matrix-1000-k1 matrix 1000 1 112
gen matrix-1000-k1.json matrix 1000 1 112 json
gen matrix-2000-k1 matrix 2000 1 101
gen matrix-2000-k1.json matrix 2000 1 101 json
# The same JSON as an /analyze request: the opening's best move, its after
# as a diff (a whole after of a large matrix passes the answer's bound).
for n in 380 1000 2000; do
    f=$IN/matrix-$n-k1.json
    [ -s "$f.analyze" ] || sed '$ s/}[[:space:]]*$/, "after": "diff", "max_moves": 1}/' "$f" > "$f.analyze"
done

PID=''
stop() { [ -n "$PID" ] && kill "$PID" 2> /dev/null && wait "$PID" 2> /dev/null; PID=''; }
trap stop EXIT

# kib FIELD: the daemon's /proc status field in KiB.
kib() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$PID/status"; }

# one FILE TYPE ROUTE: "idle peak status" of a fresh daemon after one POST.
one() {
    "$BIN" serve --host 127.0.0.1 --port "$PORT" --store none --cache-bytes 0 \
        --memory-budget 0 > /dev/null 2>&1 &
    PID=$!
    for _ in $(seq 100); do
        curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break
        sleep 0.1
    done
    local idle status
    idle=$(kib VmHWM)
    status=$(curl -s -o /dev/null -w '%{http_code}' -H "Content-Type: $2" \
        --data-binary @"$1" "http://127.0.0.1:$PORT$3")
    echo "$idle $(kib VmHWM) $status"
    stop
}

echo "| body | route | bytes | idle KiB | peak KiB ($ROUNDS rounds) | peak / body | (peak - idle) / body | status |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for name in matrix-380-k1 matrix-1000-k1 matrix-2000-k1; do
    for form in text json analysis; do
        f=$IN/$name type=text/plain route=/solve/matrix-game
        [ $form = json ] && f=$IN/$name.json type=application/json
        [ $form = analysis ] && f=$IN/$name.json.analyze type=application/json \
            route=/analyze/matrix-game
        bytes=$(stat -c %s "$f")
        lo='' hi='' idle='' status=''
        for _ in $(seq "$ROUNDS"); do
            read -r idle peak status < <(one "$f" "$type" "$route")
            { [ -z "$lo" ] || [ "$peak" -lt "$lo" ]; } && lo=$peak
            { [ -z "$hi" ] || [ "$peak" -gt "$hi" ]; } && hi=$peak
        done
        ratio=$(awk -v p="$hi" -v b="$bytes" 'BEGIN { printf "%.2f", p * 1024 / b }')
        own=$(awk -v p="$hi" -v i="$idle" -v b="$bytes" 'BEGIN { printf "%.2f", (p - i) * 1024 / b }')
        echo "| $form | \`$route\` | $bytes | $idle | $lo - $hi | $ratio | $own | $status |"
    done
done

#!/bin/bash
# peak.sh - the daemon's peak memory per body, judge text against JSON, at
# about 1, 8 and 31 MB (issue 34's "peak RSS per body").
#
#   bench/peak.sh BIN TOOLDIR
#
# TOOLDIR holds bench/gen as `make bench-tools` builds it; the inputs go to
# TOOLDIR/in (seeded matrices: n = 380, 1000 and 2000, each as text, as
# JSON, the same permutation, and as that JSON in an /analyze request;
# a grid-walk /analyze request whose path snakes through all but the last
# row of an open grid, 300 and 1000 a side; and a nim-shortcuts /analyze
# request of 250,000 distinct shortcuts of small numbers).
# For each input and route, PEAK_ROUNDS (default 2) times: a fresh
# `gamejudge serve --cache-bytes 0 --memory-budget 0` (nothing kept,
# nothing refused), one POST of the body with curl, then the daemon's
# VmHWM; (peak - idle) / body is what the request itself cost, which the
# idle daemon hides at 1 MB.  PEAK_ONLY, a regular expression, keeps the
# rows whose body column it matches (text, json, analysis, walk, nim).  Memory does not depend on the machine's load
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

# The walks: side x side open cells, the path along the rows,
# every other one backwards, the last row left to play on.
for side in 300 1000; do
    f=$IN/walk-$side.analyze
    [ -s "$f" ] || awk -v n="$side" 'BEGIN {
        printf "{\"grid\": ["
        row = sprintf("%*s", n, ""); gsub(/ /, ".", row)
        for (r = 0; r < n; r++) printf "%s\"%s\"", r ? "," : "", row
        printf "], \"after\": \"diff\", \"max_moves\": 1, \"path\": ["
        for (i = 0; i < n * (n - 1); i++) {
            r = int(i / n); c = r % 2 == 0 ? i % n : n - 1 - i % n
            printf "%s[%d,%d]", i ? "," : "", r + 1, c + 1
        }
        printf "]}\n"
    }' > "$f"
done

f=$IN/nim-250k.analyze
[ -s "$f" ] || awk 'BEGIN {
    printf "{\"heaps\": [2, 5], \"after\": \"diff\", \"max_moves\": 1, \"shortcuts\": ["
    for (i = 0; i < 250000; i++) printf "%s[%d,%d]", i ? "," : "", 7 + i % 300, 7 + int(i / 300)
    printf "]}\n"
}' > "$f"

PID=''
stop() { [ -n "$PID" ] && kill "$PID" 2> /dev/null && wait "$PID" 2> /dev/null; PID=''; }
trap stop EXIT

# kib FIELD: the daemon's /proc status field in KiB.
kib() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$PID/status"; }

# one FILE TYPE ROUTE [ARG...]: "idle peak status" of a fresh daemon
# (given the ARGs besides) after one POST.
one() {
    "$BIN" serve --host 127.0.0.1 --port "$PORT" --store none --cache-bytes 0 \
        --memory-budget 0 "${@:4}" > /dev/null 2>&1 &
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
# row FORM FILE TYPE ROUTE [ARG...]: the table's row for one input.
row() {
    local form=$1 f=$2 type=$3 route=$4
    shift 4
    [[ $form =~ ${PEAK_ONLY:-.} ]] || return 0
    local bytes lo='' hi='' idle='' peak status='' ratio own
    bytes=$(stat -c %s "$f")
    for _ in $(seq "$ROUNDS"); do
        read -r idle peak status < <(one "$f" "$type" "$route" "$@")
        { [ -z "$lo" ] || [ "$peak" -lt "$lo" ]; } && lo=$peak
        { [ -z "$hi" ] || [ "$peak" -gt "$hi" ]; } && hi=$peak
    done
    ratio=$(awk -v p="$hi" -v b="$bytes" 'BEGIN { printf "%.2f", p * 1024 / b }')
    own=$(awk -v p="$hi" -v i="$idle" -v b="$bytes" 'BEGIN { printf "%.2f", (p - i) * 1024 / b }')
    echo "| $form | \`$route\` | $bytes | $idle | $lo - $hi | $ratio | $own | $status |"
}

for name in matrix-380-k1 matrix-1000-k1 matrix-2000-k1; do
    row text "$IN/$name" text/plain /solve/matrix-game
    row json "$IN/$name.json" application/json /solve/matrix-game
    row analysis "$IN/$name.json.analyze" application/json /analyze/matrix-game
done
for side in 300 1000; do
    row "walk $side" "$IN/walk-$side.analyze" application/json /analyze/grid-walk \
        --limit grid-walk.rows=$side --limit grid-walk.cols=$side
done
row nim "$IN/nim-250k.analyze" application/json /analyze/nim-shortcuts \
    --limit nim-shortcuts.shortcuts=250000

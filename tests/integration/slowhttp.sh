#!/bin/sh
# slowhttp.sh: the slow-client bounds as the field tests them, with Debian's
# slowhttptest against a daemon on 127.0.0.1 (--timeout 2, --request-timeout
# 4), one attack at a time, each 30 connections:
#
#   slow headers, a header line every 5 s   (-H -i 5): longer than --timeout,
#       so libmicrohttpd's inactivity timeout closes them, 2 s in;
#   slow headers, a header line every 1 s   (-H -i 1): each line resets the
#       inactivity timeout, so only the request deadline can end them, 4 s in;
#   slow body, a body chunk every 1 s       (-B -i 1): the same, 4 s in;
#   slow read, 32 bytes a second of GET /docs (2.3 MB) through a window of at
#       most 32 bytes (-X): the daemon can write nothing more once the socket
#       buffers are full, so the inactivity timeout ends the request, 2 s in.
#
# Held for each: (a) the daemon closes the connections around its bound:
# slowhttptest's CSV (-g -o, one row a second) shows all 30 connected and
# none closed before the bound less 1 s, and the run ends ("No open
# connections left") within the bound plus 4 s.  Slow read is the exception:
# the daemon closes its socket (its access log says end=timeout after about
# 2 s, which is checked per request), but the kernel keeps delivering what
# is already in each socket's send buffer (about 1.6 MB on loopback here),
# so slowhttptest still counts the connection as open until it stops
# reading; that memory is the kernel's, not the daemon's.  (b) a normal client is served throughout:
# during each attack, every 0.2 s, curl GET /healthz and POST the first
# grid-walk sample must each be answered right within 1 s (--max-time 1).
#
# The 30 connections and the normal client all come from 127.0.0.1, below
# --max-connections-per-ip 64, so no connection is refused: this holds the
# time bounds.  With more connections than that limit, the rest would be
# closed at accept: the daemon protecting itself, which
# tests/integration/test_slow_clients.c holds.  Loopback only; the daemon is
# stopped by its PID, slowhttptest bounded by -l.  About 20 s.
set -u
bin=${GJ_BIN:-build/gamejudge}
timeout=2
deadline=4
conns=30
work=$(mktemp -d)
pid=""
attacker=""
cleanup() {
    [ -n "$attacker" ] && kill "$attacker" 2>/dev/null
    [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
command -v slowhttptest >/dev/null || { echo "slowhttp: slowhttptest not installed (make test-deps)"; exit 1; }

"$bin" serve --host 127.0.0.1 --port 0 --store none --timeout $timeout --request-timeout $deadline \
    --max-connections-per-ip 64 --workers 2 > "$work/out" 2> "$work/log" &
pid=$!
for _ in $(seq 200); do grep -q listening "$work/out" && break; sleep 0.05; done
port=$(sed -n 's/^listening on http:\/\/127.0.0.1://p' "$work/out")
[ -n "$port" ] || { echo "slowhttp: the daemon did not start"; cat "$work/log"; exit 1; }
base=http://127.0.0.1:$port

passed=0 failed=0
verdict() { if [ "$2" = yes ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "slowhttp: FAILED: $1"; fi; }
# running PID: the process exists and has not exited (a zombie has).
running() { [ -r "/proc/$1/stat" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]; }
now() { date +%s.%N; }

# poll: one normal client's round, each answer within 1 s; counts into
# polls, bad and slowest (seconds).
poll() {
    h=$(curl -s -o "$work/healthz" -w '%{http_code} %{time_total}' --max-time 1 "$base/healthz")
    s=$(curl -s -o "$work/solve" -w '%{http_code} %{time_total}' --max-time 1 \
        --data-binary @tests/data/grid-walk/01.in "$base/solve/grid-walk?format=text")
    polls=$((polls + 1))
    if [ "${h%% *}" != 200 ] || [ "${s%% *}" != 200 ] || ! cmp -s "$work/solve" tests/data/grid-walk/01.out; then
        bad=$((bad + 1))
        echo "slowhttp: $name: a normal request failed: healthz $h, solve $s" >&2
    fi
    slowest=$(echo "$slowest ${h#* } ${s#* }" | awk '{ m = $1; for (i = 2; i <= NF; i++) if ($i > m) m = $i; print m }')
}

# attack NAME ARGS...: slowhttptest ARGS against the daemon, its CSV in
# $work/NAME.csv, the normal client polling while it runs; sets took.
attack() {
    name=$1
    shift
    polls=0 bad=0 slowest=0
    start=$(now)
    slowhttptest "$@" -c $conns -r $conns -g -o "$work/$name" -p 1 > "$work/$name.out" 2>&1 &
    attacker=$!
    while running "$attacker"; do
        poll
        sleep 0.2
    done
    wait "$attacker"
    attacker=""
    took=$(echo "$start $(now)" | awk '{ printf "%.1f", $2 - $1 }')
    echo "slowhttp: $name: ran $took s; the normal client answered in $((polls - bad)) of $polls rounds, slowest ${slowest} s"
    verdict "$name: a normal client was served throughout ($bad of $polls rounds failed, slowest answer ${slowest} s)" \
        "$([ "$polls" -ge 3 ] && [ "$bad" -eq 0 ] && echo yes)"
}

# closed_around NAME BOUND: the CSV's rows (seconds, closed, pending,
# connected, ...) show every connection held until BOUND - 1 s and the run
# ended with none left by BOUND + 4 s: slowhttptest reports by the whole
# second and libmicrohttpd checks its timeouts about once a second, and a
# loaded machine (CI) adds a second more; the attack itself lasts (-l)
# well past that, so a connection never closed still fails.  A row is written once a second, so
# when all close within one second the run ends before a row shows any
# closed: the first close is then the second it ended on.
closed_around() {
    held=$(awk -F, 'NR > 1 && $4 > m { m = $4 } END { print m + 0 }' "$work/$1.csv")
    ended=$(sed -n 's/.*Test ended on \([0-9]*\).*/\1/p' "$work/$1.out")
    first=$(awk -F, 'NR > 1 && $2 > 0 { print $1; exit }' "$work/$1.csv")
    first=${first:-$ended}
    grep -q 'No open connections left' "$work/$1.out" && none_left=yes || none_left=no
    echo "slowhttp: $1: $held of $conns connected, first closed by second ${first:-none}, none left by second ${ended:-?} (bound $2 s)"
    verdict "$1: all $conns connections accepted ($held)" "$([ "$held" -eq $conns ] && echo yes)"
    verdict "$1: none closed before $(($2 - 1)) s (first by second ${first:-none})" \
        "$([ -n "$first" ] && [ "$first" -ge "$2" ] && echo yes)"
    verdict "$1: all closed by the server within $(($2 + 4)) s (ended on second ${ended:-?}, none left: $none_left)" \
        "$([ "$none_left" = yes ] && [ -n "$ended" ] && [ "$ended" -le $(($2 + 4)) ] && echo yes)"
}

# cut_in_log NAME PATTERN BOUND: the access log's lines matching PATTERN
# (the attack's requests the daemon cut) are one per connection, each after
# BOUND - 1 to BOUND + 4 s (DURATIONus; the slack is closed_around's).
cut_in_log() {
    sleep 1.5 # access lines reach the log within a second of their end (server/runtime/log.h)
    grep -a "$2" "$work/log" | sed 's/.* \([0-9]*\)us .*/\1/' > "$work/$1.us"
    n=$(wc -l < "$work/$1.us")
    span=$(awk 'NR == 1 { lo = hi = $1 } { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
        END { printf "%.2f %.2f", lo / 1e6, hi / 1e6 }' "$work/$1.us")
    echo "slowhttp: $1: the daemon's log has $n requests cut after ${span% *} to ${span#* } s (bound $3 s)"
    verdict "$1: the log has each of the $conns requests cut ($n)" "$([ "$n" -eq $conns ] && echo yes)"
    verdict "$1: each cut after $(($3 - 1)) to $(($3 + 4)) s (${span% *} to ${span#* } s)" \
        "$(echo "$span" | awk -v lo=$(($3 - 1)) -v hi=$(($3 + 4)) '{ print ($1 >= lo && $2 <= hi) ? "yes" : "no" }')"
}

attack headers-idle -H -i 5 -l 10 -u "$base/healthz"
closed_around headers-idle $timeout
attack headers-trickle -H -i 1 -l 12 -u "$base/healthz"
closed_around headers-trickle $deadline
attack body-trickle -B -i 1 -s 8192 -l 12 -u "$base/solve/grid-walk"
closed_around body-trickle $deadline
# A body cut off is logged as the request it was (no answer: status 0).
cut_in_log body-trickle 'POST /solve/grid-walk 0 0 .* end=error' $deadline

attack slow-read -X -n 1 -w 1 -y 32 -z 32 -k 1 -l 5 -u "$base/docs"
held=$(awk -F, 'NR > 1 && $4 > m { m = $4 } END { print m + 0 }' "$work/slow-read.csv")
verdict "slow-read: all $conns connections accepted ($held)" "$([ "$held" -eq $conns ] && echo yes)"
echo "slowhttp: slow-read: slowhttptest counted $(awk -F, 'END { print $4 }' "$work/slow-read.csv") still connected at its end (the kernel's send buffers)"
# Only slowhttptest reads /docs slowly; its probe reads it at once (end=ok).
cut_in_log slow-read 'GET /docs .* end=timeout' $timeout

reaped=$(curl -s --max-time 5 "$base/metrics" | awk '$1 == "gamejudge_deadline_closed_total" { print $2 }')
verdict "the request deadline closed the 60 trickling connections (gamejudge_deadline_closed_total $reaped)" \
    "$([ "${reaped:-0}" -ge $((2 * conns)) ] && echo yes)"
kill -TERM "$pid"
wait "$pid"
status=$?
pid=""
verdict "the daemon stopped with status 0 ($status)" "$([ "$status" -eq 0 ] && echo yes)"
echo "slowhttp: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

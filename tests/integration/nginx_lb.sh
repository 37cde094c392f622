#!/bin/sh
# nginx_lb.sh: two daemons behind Debian's nginx running docker/nginx.conf
# (only ports and paths substituted).  Requests must be spread over both;
# one daemon is stopped with SIGTERM in the middle of the load, and not one
# request may fail or be answered wrongly.  Loopback only; stops all it starts.
#
# Before the load, the edge: every public case by GET through nginx (the
# test config adds X-Cache-Status, and X-GJ-Bypass to skip nginx's cache).
# A first GET reaches exactly one daemon (its /metrics request counters say
# which); repeated GETs are answered by nginx with neither daemon's counters
# moving; uncached repeats of one position always reach the same daemon; and
# once the first daemon is stopped its positions move to the second.  Every
# answer is checked against the case's .out.  The share of GETs nginx
# answered from its cache is printed.  The daemons meter every client
# (a quota far above the load, nginx trusted for X-Forwarded-For): no GET
# answer through nginx may carry one client's RateLimit headers, which a
# shared cache would hand to every other client, while a POST does.
#
# GJ_LB_IMAGE=IMAGE runs the two daemons as containers of that image
# (host networking, each on its own free loopback port) and stops the first
# with `docker stop` (scripts/container-test).
# shellcheck source=tests/integration/nginx_edge.sh
. "$(dirname "$0")/nginx_edge.sh"
start_daemon 1
start_daemon 2

# The same file compose uses (tests/integration/nginx_edge.sh says what is
# substituted), its per-client rate raised: the test's three load clients
# are one address, whose sum a fast machine pushes past the deployed 200 a
# second.
start_nginx "$port_1" "$port_2"

# ---- the edge: cached GETs, consistent hashing ------------------------------
passed=0 failed=0
verdict() { if [ "$2" = yes ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "nginx: FAILED: $1"; fi; }
solves() { # solves N: the solve requests daemon N has answered, from its own /metrics
    eval "p=\$port_$1"
    curl -s --max-time 5 "http://127.0.0.1:$p/metrics" |
        awk '/^gamejudge_requests_total[{]game="/ && !/game="none"/ { s += $2 } END { print s + 0 }'
}
cases=$(ls tests/data/*/*.in | sed 's/[.]in$//')
gets=0 hits=0 wrong=0 ratelimited=0
fetch() { # fetch CASE [HEADER]: GET the case through nginx, check the answer; X-Cache-Status in cstat
    game=$(basename "$(dirname "$1")")
    code=$(curl -s --max-time 30 -G -D "$work/h" -o "$work/b" -w '%{http_code}' \
        --data-urlencode "input@$1.in" --data format=text ${2:+-H "$2"} "http://127.0.0.1:$port/solve/$game")
    cstat=$(tr -d '\r' < "$work/h" | sed -n 's/^X-Cache-Status: //p')
    grep -qi '^RateLimit' "$work/h" && ratelimited=$((ratelimited + 1))
    if [ "$code" != 200 ] || ! cmp -s "$work/b" "$1.out"; then
        wrong=$((wrong + 1))
        echo "GET $1: $code $cstat" >> "$work/failures"
    fi
    if [ -z "${2:-}" ]; then gets=$((gets + 1)); [ "$cstat" = HIT ] && hits=$((hits + 1)); fi
    return 0
}
# First sight of each position: one miss, answered by exactly one daemon.
owners="" misses=0 unowned=0
for c in $cases; do
    a=$(solves 1) b=$(solves 2)
    fetch "$c"
    [ "$cstat" = MISS ] && misses=$((misses + 1))
    da=$(( $(solves 1) - a )) db=$(( $(solves 2) - b ))
    if [ "$da" = 1 ] && [ "$db" = 0 ]; then owners="$owners $c=1"
    elif [ "$da" = 0 ] && [ "$db" = 1 ]; then owners="$owners $c=2"
    else unowned=$((unowned + 1)); fi
done
ncases=$(printf '%s\n' $cases | wc -l)
verdict "each of $ncases first GETs was a miss ($misses) that reached exactly one daemon ($unowned did not)" \
    "$([ "$misses" -eq "$ncases" ] && [ "$unowned" -eq 0 ] && echo yes)"
# Repeats: answered by nginx, the daemons untouched.
before=$(( $(solves 1) + $(solves 2) ))
repeat_hits=$hits
for round in 1 2 3 4; do for c in $cases; do fetch "$c"; done; done
after=$(( $(solves 1) + $(solves 2) ))
verdict "4 x $ncases repeated GETs were cache hits ($((hits - repeat_hits))) and reached no daemon (counters moved by $((after - before)))" \
    "$([ $((hits - repeat_hits)) -eq $((4 * ncases)) ] && [ "$after" -eq "$before" ] && echo yes)"
owner_of() { printf '%s\n' $owners | sed -n "s|^$1=||p"; }
# Past the cache: one position, one daemon, every time.
strays=0 own1=0
for c in $cases; do
    o=$(owner_of "$c")
    [ "$o" = 1 ] && own1=$((own1 + 1))
    a=$(solves 1) b=$(solves 2)
    fetch "$c" "X-GJ-Bypass:1"
    fetch "$c" "X-GJ-Bypass:1"
    da=$(( $(solves 1) - a )) db=$(( $(solves 2) - b ))
    if [ "$o" = 1 ]; then [ "$da" = 2 ] && [ "$db" = 0 ] || strays=$((strays + 1)); fi
    if [ "$o" = 2 ]; then [ "$db" = 2 ] && [ "$da" = 0 ] || strays=$((strays + 1)); fi
done
verdict "uncached repeats of a position reached its first daemon ($own1 positions on the first, $((ncases - own1)) on the second; $strays strayed)" \
    "$([ "$strays" -eq 0 ] && echo yes)"
echo "nginx: consistent hash: $own1 of $ncases positions on the first daemon, $((ncases - own1)) on the second"

# Three clients, 120 solves each, every answer checked.
client() { # client N
    i=0 bad=0
    while [ $i -lt 120 ]; do
        got=$(curl -s --max-time 30 -w ' %{http_code}' --data-binary @tests/data/prime-chocolate/06.in \
              "http://127.0.0.1:$port/solve/prime-chocolate?format=text")
        [ "$got" = "RUBY
 200" ] || { bad=$((bad + 1)); echo "client $1 request $i: $got" >> "$work/failures"; }
        i=$((i + 1))
    done
    echo "$bad" > "$work/client$1.bad"
}
client 1 & c1=$!
client 2 & c2=$!
client 3 & c3=$!

# Mid-load: once both daemons have served some, stop the first.
for _ in $(seq 200); do
    n1=$(grep -c 'POST /solve' "$work/d1.log")
    n2=$(grep -c 'POST /solve' "$work/d2.log")
    [ "$n1" -ge 20 ] && [ "$n2" -ge 20 ] && break
    sleep 0.05
done
stop_daemon 1
wait $c1 $c2 $c3

bad=$(( $(cat "$work/client1.bad") + $(cat "$work/client2.bad") + $(cat "$work/client3.bad") ))
sleep 1.5 # the running daemon writes its access lines within a second (server/runtime/log.h)
served1=$(grep -c 'POST /solve' "$work/d1.log")
served2=$(grep -c 'POST /solve' "$work/d2.log")

# The first daemon is gone: its positions move to the second, the cached
# answers are still served.
moved=0 kept=0
for c in $cases; do
    b=$(solves 2)
    fetch "$c" "X-GJ-Bypass:1"
    [ $(( $(solves 2) - b )) -eq 1 ] && moved=$((moved + 1))
    fetch "$c"
    [ "$cstat" = HIT ] && kept=$((kept + 1))
done
verdict "with the first daemon stopped, all $ncases positions reach the second ($moved did)" \
    "$([ "$moved" -eq "$ncases" ] && echo yes)"
verdict "and nginx still answers each from its cache ($kept did)" "$([ "$kept" -eq "$ncases" ] && echo yes)"
verdict "every GET answered right ($wrong wrong)" "$([ "$wrong" -eq 0 ] && echo yes)"
verdict "no GET answer through the shared cache carried RateLimit headers ($ratelimited did)" \
    "$([ "$ratelimited" -eq 0 ] && echo yes)"
posted=$(curl -s --max-time 30 -D - -o /dev/null --data-binary @tests/data/prime-chocolate/06.in \
    "http://127.0.0.1:$port/solve/prime-chocolate?format=text" | tr -d '\r' | grep -c '^RateLimit: ')
verdict "a POST through nginx carries its client's RateLimit header ($posted)" \
    "$([ "$posted" -eq 1 ] && echo yes)"
echo "nginx: answered $hits of $gets GET requests from its cache ($((100 * hits / gets))%), the daemons the other $((gets - hits))"
verdict "both daemons served (first $served1, second $served2)" "$([ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && echo yes)"
verdict "every one of 360 requests answered right ($bad failed)" "$([ "$bad" -eq 0 ] && echo yes)"
verdict "the stopped daemon exited 0 (status $stop_status)" "$([ "$stop_status" -eq 0 ] && echo yes)"
verdict "the second daemon took the rest ($served2 of 360)" "$([ $((served1 + served2)) -ge 360 ] && echo yes)"
[ -f "$work/failures" ] && head -5 "$work/failures"
[ "$failed" -eq 0 ] || tail -5 "$work/nginx.err" 2>/dev/null
echo "nginx: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# nginx_lb.sh: two daemons behind Debian's nginx running docker/nginx.conf
# (only ports and paths substituted).  Requests must be spread over both;
# one daemon is stopped with SIGTERM in the middle of the load, and not one
# request may fail or be answered wrongly.  Loopback only; stops all it starts.
#
# GJ_LB_IMAGE=IMAGE runs the two daemons as containers of that image
# (host networking, each on its own free loopback port) and stops the first
# with `docker stop` (scripts/container-test).
set -u
bin=${GJ_BIN:-build/gamejudge}
image=${GJ_LB_IMAGE:-}
docker=${DOCKER:-/usr/bin/docker}
work=$(mktemp -d)
pids=""
cids=""
cleanup() {
    [ -f "$work/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null
    for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    for c in $cids; do "$docker" rm -f "$c" >/dev/null 2>&1; done
    rm -rf "$work"
}
trap cleanup EXIT
command -v nginx >/dev/null || { echo "nginx: not installed (make deps)"; exit 1; }

start_daemon() { # start_daemon N: sets port_N and pid_N (cid_N for a container)
    if [ -n "$image" ]; then
        # Port 0 would leave the image's healthcheck no port to ask.
        p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 30000))
        while curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$p/"; do p=$((p + 1)); done
        c=$("$docker" run -d --network host -e GAMEJUDGE_HOST=127.0.0.1 -e GAMEJUDGE_PORT="$p" \
            -e GAMEJUDGE_WORKERS=2 -e GAMEJUDGE_LOG_FORMAT=text "$image")
        cids="$cids $c"
        eval "cid_$1=$c"
        # docker logs ends when the container does; its stdout and stderr
        # go where a process's would.
        "$docker" logs -f "$c" > "$work/d$1.out" 2> "$work/d$1.log" &
        pids="$pids $!"
    else
        "$bin" serve --host 127.0.0.1 --port 0 --workers 2 > "$work/d$1.out" 2> "$work/d$1.log" &
        eval "pid_$1=$!"
        pids="$pids $!"
    fi
    for _ in $(seq 200); do grep -q listening "$work/d$1.out" && break; sleep 0.05; done
    eval "port_$1=$(sed -n 's/^listening on http:\/\/127.0.0.1://p' "$work/d$1.out")"
}
stop_daemon() { # stop_daemon N: SIGTERM, then the exit status in stop_status
    if [ -n "$image" ]; then
        eval "c=\$cid_$1"
        "$docker" stop -t 40 "$c" >/dev/null
        stop_status=$("$docker" inspect -f '{{.State.ExitCode}}' "$c")
    else
        eval "p=\$pid_$1"
        kill -TERM "$p"
        wait "$p"
        stop_status=$?
    fi
}
start_daemon 1
start_daemon 2

# The same file compose uses, with the marked lines substituted.
port=$(( 20000 + $$ % 20000 ))
for attempt in 1 2 3 4 5; do
    sed -e "s|^pid .*;.*|pid $work/nginx.pid;|" \
        -e "s|^error_log .*;.*|error_log $work/nginx.err warn;|" \
        -e "s|access_log /dev/stdout;.*|access_log $work/nginx.access;|" \
        -e "s|server gamejudge:8080 \(.*\);.*|server 127.0.0.1:$port_1 \1; server 127.0.0.1:$port_2 \1;|" \
        -e "s|listen 80;.*|listen 127.0.0.1:$port;|" \
        docker/nginx.conf > "$work/nginx.conf"
    printf 'client_body_temp_path %s/body;\nproxy_temp_path %s/proxy;\n' "$work" "$work" > "$work/temp.conf"
    sed -i "s|^http {|http {\n    include $work/temp.conf;|" "$work/nginx.conf"
    nginx -c "$work/nginx.conf" -p "$work" 2>> "$work/nginx.start" && break
    port=$((port + 1))
done
for _ in $(seq 100); do [ -s "$work/nginx.pid" ] && break; sleep 0.05; done
[ -s "$work/nginx.pid" ] || { echo "nginx did not start:"; cat "$work/nginx.start" "$work/nginx.err"; exit 1; }

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
served1=$(grep -c 'POST /solve' "$work/d1.log")
served2=$(grep -c 'POST /solve' "$work/d2.log")
passed=0 failed=0
verdict() { if [ "$2" = yes ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "nginx: FAILED: $1"; fi; }
verdict "both daemons served (first $served1, second $served2)" "$([ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && echo yes)"
verdict "every one of 360 requests answered right ($bad failed)" "$([ "$bad" -eq 0 ] && echo yes)"
verdict "the stopped daemon exited 0 (status $stop_status)" "$([ "$stop_status" -eq 0 ] && echo yes)"
verdict "the second daemon took the rest ($served2 of 360)" "$([ $((served1 + served2)) -ge 360 ] && echo yes)"
[ -f "$work/failures" ] && head -5 "$work/failures"
echo "nginx: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

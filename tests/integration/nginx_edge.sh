# nginx_edge.sh: sourced (not run) by the tests that put daemons behind
# Debian's nginx running docker/nginx.conf: nginx_lb.sh and
# nginx_framing.sh.  It makes the work directory and the EXIT trap that
# stops, by PID, everything started through it, and gives:
#
#   start_daemon N [OPTION...]  one daemon on a free loopback port (port 0,
#                    or a container of $GJ_LB_IMAGE); sets port_N and pid_N
#                    (cid_N); its access log is $work/dN.log, stdout $work/dN.out
#   stop_daemon N    SIGTERM (docker stop), the exit status in stop_status
#   start_nginx PORT...  nginx on a free loopback port ($port) with the
#                    daemons on PORT... as its upstream servers
#
# The nginx config is docker/nginx.conf with only its marked lines
# substituted (ports and paths), its per-client rate raised for a one-address
# load, X-Cache-Status and X-GJ-Bypass added beside its cache, and its access
# log in $work/nginx.access in the `edge` format: client address, method,
# request URI as sent, status, and the upstream asked ("-" when nginx
# answered itself).
#
# Reads GJ_BIN, GJ_LB_IMAGE and DOCKER as the tests document them.
set -u
bin=${GJ_BIN:-build/gamejudge}
image=${GJ_LB_IMAGE:-}
docker=${DOCKER:-/usr/bin/docker}
work=$(mktemp -d)
# nginx's workers drop root and must reach the cache directory inside.
chmod 711 "$work"
pids=""
cids=""
# Stop nginx, every daemon and container started here (with its anonymous
# volume, the image's store), and remove $work.
cleanup() {
    [ -f "$work/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null
    for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    for c in $cids; do "$docker" rm -f -v "$c" >/dev/null 2>&1; done
    rm -rf "$work"
}
trap cleanup EXIT
command -v nginx >/dev/null || { echo "nginx: not installed (make deps)"; exit 1; }

# start_daemon N [OPTION...]: start daemon N, wait for its listening line;
# the options are added to the native daemon's command line.
start_daemon() {
    n=$1
    shift
    if [ -n "$image" ]; then
        # Port 0 would leave the image's healthcheck no port to ask.
        p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 30000))
        while curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$p/"; do p=$((p + 1)); done
        c=$("$docker" run -d --network host -e GAMEJUDGE_HOST=127.0.0.1 -e GAMEJUDGE_PORT="$p" \
            -e GAMEJUDGE_WORKERS=2 -e GAMEJUDGE_LOG_FORMAT=text -e GAMEJUDGE_QUOTA_RATE=100000 \
            -e GAMEJUDGE_QUOTA_BURST=10000000 -e GAMEJUDGE_TRUSTED_PROXIES=127.0.0.1 "$image")
        cids="$cids $c"
        eval "cid_$n=$c"
        # docker logs ends when the container does; its stdout and stderr
        # go where a process's would.
        "$docker" logs -f "$c" > "$work/d$n.out" 2> "$work/d$n.log" &
        pids="$pids $!"
    else
        "$bin" serve --host 127.0.0.1 --port 0 --store none --workers 2 --quota-rate 100000 \
            --quota-burst 10000000 --trusted-proxies 127.0.0.1 "$@" > "$work/d$n.out" 2> "$work/d$n.log" &
        eval "pid_$n=$!"
        pids="$pids $!"
    fi
    for _ in $(seq 200); do grep -qs listening "$work/d$n.out" && break; sleep 0.05; done
    eval "port_$n=$(sed -n 's/^listening on http:\/\/127.0.0.1://p' "$work/d$n.out")"
}

# stop_daemon N: SIGTERM daemon N (docker stop a container) and wait for it;
# its exit status in stop_status.
stop_daemon() {
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

# start_nginx PORT...: nginx on $port in front of the daemons on PORT...;
# exits the test when it does not start.
start_nginx() {
    servers=""
    for u in "$@"; do servers="$servers server 127.0.0.1:$u \\1;"; done
    port=$(( 20000 + $$ % 20000 ))
    for _ in 1 2 3 4 5; do
        sed -e "s|^pid .*;.*|pid $work/nginx.pid;|" \
            -e "s|^error_log .*;.*|error_log $work/nginx.err warn;|" \
            -e "s|access_log /dev/stdout;.*|access_log $work/nginx.access edge;|" \
            -e "s|server gamejudge:8080 \(.*\);.*|$servers|" \
            -e "s|listen 80;.*|listen 127.0.0.1:$port;|" \
            -e "s|proxy_cache_path /var/cache/nginx/gamejudge \(.*\);.*|proxy_cache_path $work/cache \1;|" \
            -e "s|zone=per_client:10m rate=[0-9]*r/s;|zone=per_client:10m rate=100000r/s;|" \
            -e "s|^\( *\)proxy_cache answers;|&\n\1add_header X-Cache-Status \$upstream_cache_status always;\n\1proxy_cache_bypass \$http_x_gj_bypass;|" \
            docker/nginx.conf > "$work/nginx.conf"
        printf 'client_body_temp_path %s/body;\nproxy_temp_path %s/proxy;\n' "$work" "$work" > "$work/temp.conf"
        # shellcheck disable=SC2016 # nginx's variables, not the shell's
        printf 'log_format edge "$remote_addr $request_method $request_uri $status $upstream_addr";\n' >> "$work/temp.conf"
        sed -i "s|^http {|http {\n    include $work/temp.conf;|" "$work/nginx.conf"
        nginx -c "$work/nginx.conf" -p "$work" 2>> "$work/nginx.start" && break
        port=$((port + 1))
    done
    for _ in $(seq 100); do [ -s "$work/nginx.pid" ] && break; sleep 0.05; done
    [ -s "$work/nginx.pid" ] || { echo "nginx did not start:"; cat "$work/nginx.start" "$work/nginx.err"; exit 1; }
}

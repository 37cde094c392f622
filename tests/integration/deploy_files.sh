#!/bin/sh
# deploy_files.sh: the deployment files agree with the binary, and the
# installed layout runs with nothing but its runtime libraries.
#  - every GAMEJUDGE_* variable in Dockerfile, docker/ and README.md is one
#    that `gamejudge serve --help` documents;
#  - the Dockerfile's runtime packages are exactly the ones owning the
#    libraries the binary links directly, and it has HEALTHCHECK,
#    STOPSIGNAL SIGTERM, a non-root USER and EXPOSEs its port;
#  - the stop grace periods of compose and k8s exceed the daemon's grace;
#  - `make install DESTDIR=...` into an empty root, plus the shared
#    libraries ldd names, runs under chroot: solve, serve, healthcheck, stop.
set -u
bin=${GJ_BIN:-build/gamejudge}
passed=0
failed=0
check() { # check WHAT COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "deploy: FAILED: $what"; fi
}

help=$("$bin" serve --help)
vars=$(grep -ohE 'GAMEJUDGE_[A-Z_]+' Dockerfile docker/compose.yml docker/k8s/*.yaml README.md | sort -u)
for v in $vars; do
    check "$v is documented by serve --help" sh -c "printf '%s' \"\$1\" | grep -q \"\$2\"" _ "$help" "$v"
done
check "Dockerfile has a HEALTHCHECK on the binary" grep -q 'CMD \["gamejudge", "healthcheck"\]' Dockerfile
check "Dockerfile stops with SIGTERM" grep -q '^STOPSIGNAL SIGTERM' Dockerfile
check "Dockerfile runs as a non-root user" grep -q '^USER gamejudge' Dockerfile
check "Dockerfile exposes GAMEJUDGE_PORT" sh -c 'grep -q "^EXPOSE 8080" Dockerfile && grep -q "GAMEJUDGE_PORT=8080" Dockerfile'

# The packages owning the binary's direct libraries, against the runtime stage.
needed=$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | grep -v '^libc\.so' | grep -v '^ld-linux' | grep -v 'asan\|ubsan\|libm\.so\|libstdc')
owners=""
for lib in $needed; do
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
    owners="$owners $(dpkg -S "$(readlink -f "$path")" 2>/dev/null | cut -d: -f1 | head -n 1)"
done
runtime=$(sed -n '/^FROM debian:bookworm-slim/,$p' Dockerfile | grep -oE 'lib[a-z0-9.-]+[0-9]' | sort -u | tr '\n' ' ')
for p in $owners; do
    check "the runtime stage installs $p" sh -c "printf '%s' \"\$1\" | grep -qw \"\$2\"" _ "$runtime" "$p"
done

grace=30
compose_stop=$(sed -n 's/.*stop_grace_period: *\([0-9]*\)s.*/\1/p' docker/compose.yml)
k8s_stop=$(sed -n 's/.*terminationGracePeriodSeconds: *\([0-9]*\).*/\1/p' docker/k8s/deployment.yaml)
check "compose waits longer than the grace" test "${compose_stop:-0}" -gt "$grace"
check "k8s waits longer than preStop + grace" test "${k8s_stop:-0}" -gt $((grace + 5))
check "the k8s probes use /healthz and /readyz" sh -c 'grep -q "path: /healthz" docker/k8s/deployment.yaml && grep -q "path: /readyz" docker/k8s/deployment.yaml'

# ---- the installed layout, alone in a root ----------------------------------
if [ "$(id -u)" != 0 ]; then
    echo "deploy: the chroot run needs root; skipped"
else
    root=$(mktemp -d)
    trap 'rm -rf "$root"' EXIT
    make --no-print-directory -s install DESTDIR="$root" PREFIX=/usr/local BUILD="$(dirname "$bin")" >/dev/null
    for lib in $(ldd "$root/usr/local/bin/gamejudge" | grep -oE '/[^ ]+'); do
        mkdir -p "$root$(dirname "$lib")"
        cp -L "$lib" "$root$lib"
    done
    mkdir -p "$root/tmp"
    got=$(chroot "$root" /usr/local/bin/gamejudge solve grid-walk < tests/data/grid-walk/01.in)
    check "the installed binary solves under chroot" test "$got" = "$(cat tests/data/grid-walk/01.out)"
    chroot "$root" /usr/local/bin/gamejudge serve --host 127.0.0.1 --port 0 > "$root/tmp/out" 2> "$root/tmp/err" &
    pid=$!
    for _ in $(seq 100); do grep -q listening "$root/tmp/out" && break; sleep 0.05; done
    port=$(sed -n 's/^listening on http:\/\/127.0.0.1://p' "$root/tmp/out")
    check "the installed binary serves under chroot" test -n "$port"
    check "its healthcheck passes" chroot "$root" /usr/local/bin/gamejudge healthcheck "$port"
    kill -TERM $pid
    wait $pid
    check "it stops with status 0" test $? -eq 0
fi

echo "deploy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

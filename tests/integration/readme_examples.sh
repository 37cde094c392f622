#!/bin/sh
# readme_examples.sh BIN: run every command of README.md's "Using it" section
# against a fresh daemon and compare each with the "# expected" line that
# follows it ("..." matches anything).  The README promises these work as
# printed; this keeps the promise checked.
#
# GJ_BASE_URL=http://HOST:PORT runs them against a daemon already serving
# there (scripts/container-test: the container) instead of starting one,
# which must hold the README's key in its --api-keys and a fresh store;
# GJ_CLI replaces build/gamejudge in the commands that run the binary.
set -u
bin=${GJ_BIN:-${1:-build/gamejudge}}
cli=${GJ_CLI:-build/gamejudge}
log=$(mktemp)
if [ -n "${GJ_BASE_URL:-}" ]; then
    base=$GJ_BASE_URL
    trap 'rm -f "$log"' EXIT
else
    # The searches the examples bound by `tries` must end by their count, not
    # by the default 2 s ceiling, on a loaded or sanitised build: the answer
    # shown is the one the count gives.  The rated examples play on a store
    # of their own, fresh, with the site's key the README names.
    store=$(mktemp -d)
    printf 'site-backend-key-0123456789 1000000 1000000\n' > "$store/keys"
    "$bin" serve --host 127.0.0.1 --port 0 --generate-budget-ms 60000 \
        --store "sqlite:$store/store.db" --api-keys "$store/keys" > "$log.out" 2> "$log" &
    pid=$!
    trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$log" "$log.out" "$store"' EXIT
    for _ in $(seq 100); do
        grep -q listening "$log.out" 2>/dev/null && break
        sleep 0.05
    done
    base=$(sed -n 's/^listening on //p' "$log.out")
fi
[ -n "$base" ] || { echo "readme: the daemon did not start"; exit 1; }

# The commands: lines of ```sh blocks in the "Using it" section that start
# with printf, curl or build/, each optionally followed by "# expected".
awk '/^## Using it/{on=1} /^## Configuration/{on=0} on' README.md |
    awk '/^```sh/{b=1; next} /^```/{b=0} b' > "$log.cmds"

passed=0
failed=0
prev=""
check() {
    cmd=$1 want=$2
    got=$(sh -c "$(printf '%s' "$cmd" | sed -e "s|http://127.0.0.1:8080|$base|g" -e "s|build/gamejudge|$cli|g")" 2>&1)
    status=$?
    ok=1
    [ $status -eq 0 ] || ok=0
    if [ -n "$want" ]; then
        pattern=$(printf '%s' "$want" | sed -e 's/[][\.*^$/]/\\&/g' -e 's/\\\.\\\.\\\./.*/g')
        printf '%s' "$got" | grep -q "^$pattern\$" || ok=0
    else
        [ -n "$got" ] || ok=0
    fi
    if [ $ok -eq 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "readme: FAILED: $cmd"
        echo "  expected: ${want:-any output}"
        echo "  got:      $got"
    fi
}
while IFS= read -r line; do
    case "$line" in
    "# "*)
        [ -n "$prev" ] && check "$prev" "${line#\# }"
        prev=""
        ;;
    printf*|curl*|build/*)
        [ -n "$prev" ] && check "$prev" ""
        prev=$line
        ;;
    esac
done < "$log.cmds"
[ -n "$prev" ] && check "$prev" ""
rm -f "$log.cmds"
echo "readme: $passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -gt 0 ]

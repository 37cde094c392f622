#!/bin/sh
# run.sh FUZZ_BUILD SECONDS|replay TARGET...: for each target, replay every
# reproducer in tests/fuzz/regress/<target>/ (each must now pass), then
# either fuzz for SECONDS from the committed seeds or, given `replay`, run
# each committed seed once and stop (what `make check` does: the same
# inputs every time, so it passes or fails the same way every time).  The
# committed corpus is only read: new inputs go to FUZZ_BUILD/work/<target>/,
# crashes and hangs to FUZZ_BUILD/artifacts/.  Prints executions per target
# and in total; exits 1 when any replay or run found something.
set -u
build=$1
seconds=$2
shift 2
mkdir -p "$build/artifacts"
total=0
failed=""
for t in "$@"; do
    bin=$build/bin/$t
    # The HTTP target's access log would drown libFuzzer's output; sanitizer
    # reports still get through (close_fd_mask keeps them on a copy of fd 2).
    opts=""
    [ "$t" = http ] && opts=-close_fd_mask=2
    [ -f "tests/fuzz/$t.dict" ] && opts="$opts -dict=tests/fuzz/$t.dict"
    regress=tests/fuzz/regress/$t
    reproducers=0
    if [ -d "$regress" ] && [ -n "$(ls -A "$regress")" ]; then
        reproducers=$(ls -A "$regress" | wc -l)
        if ! "$bin" $opts -timeout=10 "$regress"/* > "$build/$t.replay.log" 2>&1; then
            echo "fuzz $t: a reproducer fails again; see $build/$t.replay.log"
            failed="$failed $t"
            continue
        fi
    fi
    if [ "$seconds" = replay ]; then
        # -runs=0: load (and so run) every seed once, then stop.
        log=$build/$t.seeds.log
        seeds=$(ls -A "tests/fuzz/corpus/$t" | wc -l)
        if "$bin" $opts -runs=0 -timeout=10 -artifact_prefix="$build/artifacts/$t-" \
            "tests/fuzz/corpus/$t" > "$log" 2>&1; then
            echo "fuzz $t: $seeds seeds and $reproducers reproducers replayed, nothing found"
        else
            echo "fuzz $t: a seed FAILS; see $log and $build/artifacts/"
            failed="$failed $t"
        fi
        runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
        total=$((total + ${runs:-0} + reproducers))
        continue
    fi
    mkdir -p "$build/work/$t"
    log=$build/$t.log
    # -timeout: one input taking 10 s is a hang, not a slow input.
    "$bin" $opts -max_total_time="$seconds" -timeout=10 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$build/artifacts/$t-" "$build/work/$t" "tests/fuzz/corpus/$t" \
        > "$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    runs=${runs:-0}
    total=$((total + runs))
    if [ "$rc" -ne 0 ]; then
        echo "fuzz $t: FOUND something after $runs runs (exit $rc); see $log and $build/artifacts/"
        failed="$failed $t"
    else
        echo "fuzz $t: $runs runs in ${seconds}s, nothing found"
    fi
done
echo "fuzz: $total executions in total"
[ -z "$failed" ] || { echo "fuzz: findings in:$failed"; exit 1; }

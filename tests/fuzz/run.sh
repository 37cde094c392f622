#!/bin/sh
# run.sh FUZZ_BUILD SECONDS TARGET...: for each target, replay every
# reproducer in tests/fuzz/regress/<target>/ (each must now pass), then fuzz
# for SECONDS from the committed seeds.  The committed corpus is only read:
# new inputs go to FUZZ_BUILD/work/<target>/, crashes and hangs to
# FUZZ_BUILD/artifacts/.  Prints executions per target and in total; exits 1
# when any replay or run found something.
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
    if [ -d "$regress" ] && [ -n "$(ls -A "$regress")" ]; then
        if ! "$bin" $opts "$regress"/* > "$build/$t.replay.log" 2>&1; then
            echo "fuzz $t: a reproducer fails again; see $build/$t.replay.log"
            failed="$failed $t"
            continue
        fi
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

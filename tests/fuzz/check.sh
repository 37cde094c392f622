#!/bin/sh
# check.sh: the fuzz targets' part of `make check`.  Builds every target and
# replays what is committed - every reproducer in tests/fuzz/regress/ and
# every seed in tests/fuzz/corpus/, each input once - so a regression in a
# parser or in the HTTP path fails the suite, and the same tree always gives
# the same result.  Fuzzing for time, which finds new inputs, is
# `make fuzz FUZZ_SECONDS=N`.
set -u
exec make --no-print-directory -s fuzz-replay

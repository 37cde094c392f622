#!/bin/sh
# check.sh: the fuzz targets' part of `make check`.  Builds every target,
# replays every committed reproducer and fuzzes each target for a short,
# bounded time (FUZZ_CHECK_SECONDS, default 10), so a regression in a parser
# or in the HTTP path fails the suite.  `make fuzz FUZZ_SECONDS=N` runs
# longer.
set -u
exec make --no-print-directory -s fuzz FUZZ_SECONDS="${FUZZ_CHECK_SECONDS:-10}"

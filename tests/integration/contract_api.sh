#!/bin/sh
# contract_api.sh: the API integration suites again (solve; analyze, judge,
# batch and the cache; judge test sets; the GET forms and their caching
# headers; the scripted games through /analyze; the puzzles; the store's
# routes on SQLite), with every
# request and answer passing the validating proxy (GJ_CONTRACT=1; see
# daemon.h).  Large bodies stay out: the proxy refuses bodies over 10 MB.
set -eu
bin=${GJ_BIN:-build/gamejudge}
dir=$(dirname "$bin")/tests
export GJ_CONTRACT=1
"$dir/itest_api"
"$dir/itest_beyond"
"$dir/itest_judge_set"
"$dir/itest_edge"
"$dir/itest_puzzle"
"$dir/itest_store_http"
GJ_PLAY_GAMES=20 "$dir/itest_play"

#!/bin/sh
# sixth_game.sh - docs/adding-a-game.md's steps are all a new game needs.
#
# The toy game of tests/fixtures/toy_game/ (a one-pile take-1-to-k game,
# written as a real game's folder is) is dropped into a copy of the tree
# (git's files, in a temporary directory; the tree itself is never
# touched) exactly as the steps say: its folder as solvers/games/toy_game,
# its one line in games.def, its spec fragment, its playground renderer,
# its test data, its unit test and its part of the tests that walk every
# game (tests/oracle/<ident>_rules.c).  The copy is then built (its own
# build/, -O1) and checked through every layer: the include lint and the layered
# build accept it and refuse it once it includes a sibling game's header;
# the registry lists it; a daemon on 127.0.0.1 (a free port, stopped by
# its PID) lists it in /games and answers /solve (text and JSON, the test
# data), /analyze with a line, /move, /generate and /puzzle for it and
# serves its renderer; the assembled spec has its paths and lints; the
# fuzz targets include it.  Last, the proof is the suite: every unit test
# of the copy runs as `make test-unit` runs them (test_play holds the toy's
# gj_play to the JSON adapter, test_toy_game the toy to a brute force,
# test_puzzle_oracle its puzzles and test_picture its pictures, and every
# other test that walks the registry takes it in), and so do the daemon's
# tests that walk every game (itest_generate, itest_puzzle).
#
# SIXTH_GAME_KEEP=1 leaves the temporary directory for a look afterwards.
set -u
cd "$(dirname "$0")/../.."
real=$(pwd)
fixture=$real/tests/fixtures/toy_game
fails=0
checks=0
pid=""

# fail MESSAGE: count a failed check.
fail() {
    echo "sixth_game: FAIL: $1"
    fails=$((fails + 1))
}

# ok: count a passed check.
ok() {
    checks=$((checks + 1))
}

# The copy builds with the pinned Node.js tools of this tree, read in place
# (node_modules is half a gigabyte): they must be installed already.
if [ ! -f node_modules/.gj-installed ]; then
    echo "sixth_game: node_modules is not installed here (make test-deps)"
    exit 1
fi

tmp=$(mktemp -d)
tree=$tmp/tree
cleanup() {
    if [ -n "$pid" ]; then
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    fi
    if [ "${SIXTH_GAME_KEEP:-}" = 1 ]; then
        echo "sixth_game: kept $tmp"
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A make of the copy's own, free of any outer make's variables (BUILD, -j
# and its job server reach a child through MAKEFLAGS).
jobs=$(nproc 2>/dev/null || echo 2)
mk() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD make --no-print-directory -C "$tree" \
        OPT="-O1 -g" "$@"
}

# 1. The copy: the tree's files (scripts/tree-files) as they are in the work tree.
mkdir -p "$tree"
scripts/tree-files | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$tree"
ln -s "$real/node_modules" "$tree/node_modules"

# 2. The steps of docs/adding-a-game.md, in order.
game=$tree/solvers/games/toy_game
mkdir -p "$game" "$tree/tests/data/toy-game"
cp "$fixture"/toy_game*.c "$fixture"/toy_game*.h "$game/"
echo 'GAME(toy_game, "toy-game")' >> "$tree/solvers/registry/games.def"
cp "$fixture/toy-game.yaml" "$tree/api/games/"
sed -i "/^const Games = {};/r $fixture/playground.js" "$tree/web/playground.html"
cp "$fixture"/data/* "$tree/tests/data/toy-game/"
cp "$fixture/test_toy_game.c" "$tree/tests/unit/"
cp "$fixture"/oracle/*.c "$tree/tests/oracle/"

# 3. The layers: the toy is a layer of its own, blind to its siblings.
layers=$(mk -s print-layers)
case " $layers " in
*" solvers/games/toy_game=solvers/base,solvers/kit,solvers/games/toy_game "*) ok ;;
*) fail "print-layers has no layer solvers/games/toy_game seeing base, kit and itself: $layers" ;;
esac
if (cd "$tree" && node scripts/include-graph.mjs --quiet $layers); then ok; else
    fail "the include graph refuses the toy"
fi
cp "$game/toy_game_generate.c" "$tmp/generate.c"
sed -i 's/#include "toy_game.h"/#include "toy_game.h"\n#include "nim_shortcuts.h"/' \
    "$game/toy_game_generate.c"
if (cd "$tree" && node scripts/include-graph.mjs --quiet $layers) 2>"$tmp/graph"; then
    fail "the include graph let the toy include a sibling game's header"
elif grep -q 'toy_game_generate.c:[0-9]*: includes solvers/games/nim_shortcuts/nim_shortcuts.h' \
    "$tmp/graph"; then ok; else
    fail "the sibling include was refused without naming it: $(cat "$tmp/graph")"
fi
if mk build/obj/solvers/games/toy_game/toy_game_generate.o >"$tmp/cc" 2>&1; then
    fail "the layered build compiled the toy with a sibling game's header"
elif grep -q 'nim_shortcuts.h' "$tmp/cc"; then ok; else
    fail "the layered build refused the toy for another reason: $(tail -3 "$tmp/cc")"
fi
cp "$tmp/generate.c" "$game/toy_game_generate.c"

# 4. The build: the daemon, its spec, the tools, every unit test (the
# Makefile's UNIT_BINS: one program per tests/unit/test_*.c) and the
# daemon's tests that walk every game.
units=""
for t in "$tree"/tests/unit/test_*.c; do
    units="$units build/tests/$(basename "${t%.c}")"
done
itests="build/tests/itest_generate build/tests/itest_puzzle"
# shellcheck disable=SC2086 # the lists split on spaces
if ! mk -j"$jobs" build/gamejudge build/tools/registry-examples $units $itests \
    >"$tmp/build.log" 2>&1; then
    tail -30 "$tmp/build.log"
    fail "the copy with the toy does not build"
    echo "sixth_game: $checks passed, $fails failed"
    exit 1
fi
ok
bin=$tree/build/gamejudge

# 5. The registry.
if "$tree/build/tools/registry-examples" | grep -q '"toy-game"'; then ok; else
    fail "the registry's examples have no toy-game"
fi
if "$bin" solve --help 2>&1 | grep -q 'games: .*staircase-chess, toy-game$'; then ok; else
    fail "gamejudge solve --help does not list toy-game last"
fi
for f in "$tree"/tests/data/toy-game/*.in; do
    if "$bin" solve toy-game <"$f" | cmp -s - "${f%.in}.out"; then ok; else
        fail "gamejudge solve toy-game < $(basename "$f") differs from its .out"
    fi
done

# 6. The daemon.
"$bin" serve --host 127.0.0.1 --port 0 --store none >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
for _ in $(seq 200); do
    grep -q listening "$tmp/serve.out" 2>/dev/null && break
    sleep 0.05
done
base=$(sed -n 's/^listening on //p' "$tmp/serve.out")
if [ -z "$base" ]; then
    fail "the daemon did not start: $(cat "$tmp/serve.err")"
    echo "sixth_game: $checks passed, $fails failed"
    exit 1
fi

# expect WHAT PATTERN CURL-ARGS...: curl's answer (body, then the status
# on a line of its own) must match the extended regular expression.
expect() {
    what=$1 pattern=$2
    shift 2
    got=$(curl -s --max-time 30 -w '\n%{http_code}' "$@")
    if printf '%s' "$got" | tr '\n' ' ' | grep -Eq "$pattern"; then ok; else
        fail "$what: $(printf '%s' "$got" | head -c 400)"
    fi
}
json='-H Content-Type:application/json'
expect "/games" '"name": ?"staircase-chess".*"name": ?"toy-game".* 200$' "$base/games"
for f in "$tree"/tests/data/toy-game/*.in; do
    want=$(tr '\n' ' ' <"${f%.in}.out")
    expect "/solve/toy-game $(basename "$f")" "^$want 200\$" --data-binary @"$f" \
        "$base/solve/toy-game?format=text"
done
expect "/solve/toy-game JSON" '^\{"game":"toy-game","answers":\["WIN","LOSE"\]\} 200$' $json \
    --data-binary '{"k": 3, "piles": [5, 8]}' "$base/solve/toy-game"
expect "/solve/toy-game malformed" '"field":"piles\[1\]".* 400$' $json \
    --data-binary '{"k": 3, "piles": [5, -1]}' "$base/solve/toy-game"
expect "/analyze/toy-game with a line" \
    '^\{"game":"toy-game","to_move":"first","value":"win","remoteness":5,"moves_total":3,"winning_moves":1,"truncated":true,"moves":\[\{"move":2,"outcome":"win","remoteness":4,.*"line":\[\{"move":2,.*\{"move":1,.*\{"move":3,.*"stones":4,.*\].* 200$' \
    $json --data-binary '{"k": 3, "stones": 10, "max_moves": 1, "line": true, "max_line": 3}' \
    "$base/analyze/toy-game"
expect "/move/toy-game" '^\{"game":"toy-game","level":5,"seed":42,"move":2,"outcome":"win","remoteness":4,"after":\{"k":3,"stones":8,"to_move":"second"\}\} 200$' \
    $json --data-binary '{"k": 3, "stones": 10, "level": 5, "seed": 42}' "$base/move/toy-game"
expect "/generate/toy-game" '^\{"game":"toy-game","seed":42,"position":\{"k":3,"stones":[0-9]+\},"answer":\{"game":"toy-game",.*"winning_moves":1,.* 200$' \
    $json --data-binary '{"seed": 42, "k": 3, "stones": 20, "winning_moves": 1}' \
    "$base/generate/toy-game"
expect "/puzzle/toy-game" '^\{"game":"toy-game","id":"[^"]+",.*"legal_moves":[2-9],.* 200$' \
    "$base/puzzle/toy-game"
expect "the playground's renderer" "Games\['toy-game'\] = \{.* 200\$" "$base/"
kill "$pid"
wait "$pid" 2>/dev/null
pid=""

# 7. The spec: its paths and schemas assembled, and the document lints.
spec=$tree/build/openapi.yaml
for p in '/solve/toy-game:' '/analyze/toy-game:' '/move/toy-game:' '/generate/toy-game:' \
    'ToyGameBatchItem:' '"toy-game"]'; do
    if grep -q -- "$p" "$spec"; then ok; else fail "the spec has no $p"; fi
done
if mk lint-spec >"$tmp/lint.log" 2>&1; then ok; else
    fail "the spec with the toy does not lint: $(tail -20 "$tmp/lint.log")"
fi

# 8. The fuzz targets, from the one list.
if mk -n fuzz-build 2>/dev/null | grep -q -- '-o build/fuzz/bin/toy-game-analyze$'; then ok; else
    fail "the fuzz targets have no toy-game-analyze"
fi

# 9. The suite: make test-unit's run (its test-deps left out: it would
# install into the node_modules this copy shares with the tree), then the
# daemon's tests that walk every game.  The copy is built at -O1 and runs
# beside whatever else the machine does (make check runs this after the
# tree's own tests), so Check's timeouts are stretched: a test is judged
# by what it checks, never by how fast a loaded machine ran it.  The toy
# must be among what the oracle and picture tests checked.
# shellcheck disable=SC2086
if (cd "$tree" && CK_EXCLUDE_TAGS=large CK_TIMEOUT_MULTIPLIER="${CK_TIMEOUT_MULTIPLIER:-4}" \
    scripts/run-tests -j "$jobs" build/gamejudge $units \
    >"$tmp/unit.log" 2>&1); then ok; else
    fail "the unit tests with the toy: $(tail -25 "$tmp/unit.log")"
fi
for said in 'toy-game: depth 1: [1-9][0-9]* puzzles checked' \
    'toy-game: depth 2: [1-9][0-9]* puzzles checked' 'toy-game: the largest picture'; do
    if grep -q "$said" "$tmp/unit.log"; then ok; else
        fail "the unit tests never said '$said'"
    fi
done
# shellcheck disable=SC2086
if (cd "$tree" && CK_TIMEOUT_MULTIPLIER="${CK_TIMEOUT_MULTIPLIER:-4}" \
    scripts/run-tests build/gamejudge $itests >"$tmp/itest.log" 2>&1); then ok; else
    fail "the daemon's tests with the toy: $(tail -25 "$tmp/itest.log")"
fi

echo "sixth_game: $checks passed, $fails failed"
[ "$fails" -eq 0 ]

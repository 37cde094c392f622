#!/bin/sh
# include_graph.sh - the layers hold: the tree's include graph is clean, and
# an include that points up, reaches a sibling game or closes a cycle is
# caught twice, by scripts/include-graph.mjs (make lint) and by the layered
# build itself (each layer compiles with only what it may see on its path);
# two .c files that call each other are caught by the graph.
#
# Each injection is made in a copy of the sources, never in the tree.
set -eu
cd "$(dirname "$0")/../.."
layers=$(make --no-print-directory -s print-layers)
graph="node scripts/include-graph.mjs"
fails=0

# fail MESSAGE: count a failed check.
fail() {
    echo "FAIL: $1"
    fails=$((fails + 1))
}

# The tree as it is: clean.
if ! $graph --quiet $layers; then
    fail "the tree's include graph is not clean"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# builds LAYER FILE HEADER WHO: the copy's FILE, compiled with LAYER's include
# path as the build has it (from print-layers), must fail on HEADER.
builds() {
    incs=""
    for d in $(echo "$layers" | tr ' ' '\n' | sed -n "s|^$1=||p" | tr ',' ' '); do
        incs="$incs -I$tmp/tree/$d"
    done
    if [ -z "$incs" ]; then
        fail "no include path for $1 in print-layers"
    elif cc -std=c11 -fsyntax-only $incs $(pkg-config --cflags libmicrohttpd jansson libxxhash) \
        -D_POSIX_C_SOURCE=200809L "$tmp/tree/$2" 2>"$tmp/cc"; then
        fail "$4 compiled with an include of $3"
    elif ! grep -q "$3" "$tmp/cc"; then
        fail "the layered build of $2 failed for another reason: $(head -3 "$tmp/cc")"
    fi
}

# copy: a fresh copy of the layers' folders in $tmp/tree.
copy() {
    rm -rf "$tmp/tree"
    mkdir -p "$tmp/tree"
    cp -r solvers server "$tmp/tree/"
}

# 1. The runtime (below the HTTP layer) includes an HTTP header.
copy
sed -i '0,/#include "jobs.h"/s//#include "jobs.h"\n#include "http_error.h"/' "$tmp/tree/server/runtime/jobs.c"
if $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "an upward include (runtime -> http) passed the graph check"
elif ! grep -q 'server/runtime/jobs.c:[0-9]*: includes server/http/http_error.h' "$tmp/out"; then
    fail "the upward include was refused without naming the file and the header: $(cat "$tmp/out")"
fi
# The build refuses it too: the runtime's include path has no server/http.
builds server/runtime server/runtime/jobs.c http_error.h 'the runtime'

# 2. A solver includes a server header.
copy
sed -i '0,/#include "games.h"/s//#include "games.h"\n#include "cache.h"/' "$tmp/tree/solvers/registry/games.c"
if $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "a solver including a server header passed the graph check"
fi

# 3. A cycle inside one layer: cache.h includes pool.h, pool.c includes cache.h.
copy
sed -i '0,/#include "pool.h"/s//#include "pool.h"\n#include "cache.h"/' "$tmp/tree/server/runtime/pool.c"
sed -i '0,/#include "buf.h"/s//#include "buf.h"\n#include "pool.h"/' "$tmp/tree/server/runtime/cache.h"
if $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "a cycle between pool and cache passed the graph check"
elif ! grep -q 'cycle: .*server/runtime/\(pool\|cache\) -> .*server/runtime/\(pool\|cache\)' "$tmp/out"; then
    fail "the cycle was refused without naming it: $(cat "$tmp/out")"
fi

# 4. An include of a header from outside every layer.
copy
sed -i '0,/#include "jobs.h"/s//#include "jobs.h"\n#include "harness.h"/' "$tmp/tree/server/runtime/jobs.c"
if $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "an include of a header of no layer passed the graph check"
fi

# 5. A game includes a sibling's private header.
copy
f=solvers/games/grid_walk/grid_walk_analysis.c
sed -i '0,/#include "analysis.h"/s//#include "analysis.h"\n#include "matrix_game_core.h"/' "$tmp/tree/$f"
if $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "a game including another game's header passed the graph check"
elif ! grep -q "$f:[0-9]*: includes solvers/games/matrix_game/matrix_game_core.h: .*may not include" "$tmp/out"; then
    fail "the sibling include was refused without naming the file and the header: $(cat "$tmp/out")"
fi
builds solvers/games/grid_walk $f matrix_game_core.h grid-walk

# 6. Play (the puzzles) includes a game's header instead of the registry's.
copy
f=solvers/play/puzzle_search.c
sed -i '0,/#include "puzzle_search.h"/s//#include "puzzle_search.h"\n#include "grid_walk.h"/' "$tmp/tree/$f"
if $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "play including a game's header passed the graph check"
elif ! grep -q "$f:[0-9]*: includes solvers/games/grid_walk/grid_walk.h" "$tmp/out"; then
    fail "play's include of a game was refused without naming it: $(cat "$tmp/out")"
fi
builds solvers/play $f grid_walk.h play

# 7. The registry includes a game's header: it names games by symbol only.
copy
sed -i '0,/#include "games.h"/s//#include "games.h"\n#include "nim_shortcuts_core.h"/' "$tmp/tree/solvers/registry/games.c"
if $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "the registry including a game's header passed the graph check"
fi
builds solvers/registry solvers/registry/games.c nim_shortcuts_core.h 'the registry'

# 8. Two .c files that call each other through a header neither owns (as
#    /batch and /judge once did through fanout.h): no include closes the
#    circle, the calls do.
copy
printf 'void batch_poke(int n);\nvoid judge_poke(int n);\n' >"$tmp/tree/server/endpoints/poke.h"
printf '\nvoid batch_poke(int n)\n{\n    if (n > 0)\n        judge_poke(n - 1);\n}\n' \
    >>"$tmp/tree/server/endpoints/batch_job.c"
printf '\nvoid judge_poke(int n)\n{\n    if (n > 0)\n        batch_poke (n - 1);\n}\n' \
    >>"$tmp/tree/server/endpoints/judge_job.c"
if $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "batch_job.c and judge_job.c calling each other passed the graph check"
elif ! grep -q 'call cycle: server/endpoints/[a-z]*_job -> server/endpoints/[a-z]*_job -> .*server/endpoints/[a-z]*_job.c:[0-9]* calls [a-z]*_poke' "$tmp/out"; then
    fail "the circle of calls was refused without naming it: $(cat "$tmp/out")"
fi
# A call one way only is no circle, and a static function of the same name
# is the file's own, no call to the other file.
copy
printf '\nvoid batch_poke(int n)\n{\n    judge_poke(n);\n}\n' >>"$tmp/tree/server/endpoints/batch_job.c"
printf '\nstatic void batch_poke(int n)\n{\n    (void)n;\n}\n\nvoid judge_poke(int n)\n{\n    batch_poke(n);\n}\n' \
    >>"$tmp/tree/server/endpoints/judge_job.c"
if ! $graph --quiet --root "$tmp/tree" $layers 2>"$tmp/out"; then
    fail "a call one way, or a static of the same name, was taken for a circle: $(cat "$tmp/out")"
fi

if [ "$fails" -gt 0 ]; then
    echo "include_graph: $fails check(s) failed"
    exit 1
fi
echo "include_graph: the tree is clean; upward and sibling includes, a cycle of includes or of calls and a stray header are caught"

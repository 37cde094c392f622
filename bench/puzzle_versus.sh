#!/bin/sh
# puzzle_versus.sh OLD_TREE [ROUNDS] [SEEDS]: bench/puzzle_time.c built on
# this tree and against OLD_TREE's solvers (a checkout with
# build/libsolvers.a made; from before issue 33, so compiled with
# -DPUZZLE_TIME_BEFORE_SPLIT), both run ROUNDS times (default 5),
# interleaved, on seeds 0..SEEDS-1 (default 10).  Prints bench/results.md
# 5b's puzzle table: per game and depth the median ms of each tree and
# old / new, and whether the two found the same puzzles (by id; "refused":
# the tree answered the search as a bad request).
set -eu
old=$1
rounds=${2:-5}
seeds=${3:-10}
make -s build/bench/puzzle_time
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -DPUZZLE_TIME_BEFORE_SPLIT \
    -I"$old/solvers/base" -I"$old/solvers" bench/puzzle_time.c "$old/build/libsolvers.a" \
    $(pkg-config --cflags --libs jansson libxxhash) -lm -o "$out/old"
i=0
while [ "$i" -lt "$rounds" ]; do
    "$out/old" "$seeds" >"$out/old.$i"
    build/bench/puzzle_time "$seeds" >"$out/new.$i"
    i=$((i + 1))
done
# Per row (game depth): the median of each side's ms over the rounds.
awk -v seeds="$seeds" '
function median(a, n,   i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
    side = FILENAME ~ /\/old\.[0-9]+$/ ? "old" : "new"; key = $1 " " $2
    if (!(key in seen)) { seen[key] = 1; order[++rows] = key }
    n[side, key]++; ms[side, key, n[side, key]] = $4; found[side, key] = ($6 > 0) ? "refused" : ($3 "/" seeds); ids[side, key] = $5
}
END {
    printf "| game | depth | found (ebb6105 / today) | ebb6105 ms | today ms | ebb6105 / today | same puzzles |\n"
    printf "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n"
    for (r = 1; r <= rows; r++) {
        k = order[r]; split(k, kd, " ")
        for (i = 1; i <= n["old", k]; i++) a[i] = ms["old", k, i]
        mo = median(a, n["old", k])
        for (i = 1; i <= n["new", k]; i++) b[i] = ms["new", k, i]
        mn = median(b, n["new", k])
        refused = found["old", k] == "refused" || found["new", k] == "refused"
        ratio = refused || mn <= 0 ? "-" : sprintf("%.1fx", mo / mn)
        same = refused ? "-" : ids["old", k] == ids["new", k] ? "yes" : "no"
        printf "| %s | %s | %s / %s | %.1f | %.1f | %s | %s |\n", kd[1], kd[2], found["old", k], found["new", k],
            mo, mn, ratio, same
    }
}' "$out"/old.* "$out"/new.*

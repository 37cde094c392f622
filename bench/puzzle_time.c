/* puzzle_time.c - the puzzle search of bench/results.md 5b on one tree:
 * puzzle_find for seeds 0..N-1 at depth 1 and 2, at most PUZZLE_TRIES
 * candidates each (a count, not the clock, ends a search that finds
 * nothing), in process, per game of games.def.
 *
 *   build/bench/puzzle_time [N]   (default 10)
 *
 * One line per game and depth: "game depth found total_ms ids refused",
 * ids being an FNV-1a hash of the ids found, so two trees' searches can be
 * told to have found the same puzzles, and refused the searches answered
 * neither a puzzle nor GJ_UNMET (today's prime-chocolate refuses depth 2
 * up front: it has no such puzzle).  bench/puzzle_versus.sh builds this file
 * against an older tree as well and runs the two interleaved; built with
 * -DPUZZLE_TIME_BEFORE_SPLIT it compiles against the tree from before
 * issue 33 (puzzle_find declared in puzzle.h, the limits' defaults named
 * games_default_limits). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "games.h"
#include "generate.h"
#include "puzzle.h"
#ifdef PUZZLE_TIME_BEFORE_SPLIT
#define game_default_limits games_default_limits
#else
#include "puzzle_search.h"
#endif

/* The candidates one search may try, as line_rate's puzzle table. */
#define PUZZLE_TRIES 200

/* Monotonic milliseconds. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* FNV-1a over the bytes of s, continued from h. */
static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211u;
    }
    return h;
}

/* Time the searches of seeds 0..n-1 at `depth` in g and print its line;
 * 0, or -1 when out of memory. */
static int searches(const gj_game *g, int n, int depth)
{
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
    uint64_t ids = 14695981039346656037u;
    double total = 0;
    int found = 0, refused = 0;
    for (int seed = 0; seed < n; seed++) {
        json_t *params = json_pack("{s:i, s:i, s:i, s:i}", "seed", seed, "depth", depth,
                                   "budget_ms", 60000, "tries", PUZZLE_TRIES);
        puzzle *p = calloc(1, sizeof *p);
        bool seeded;
        gj_error e;
        double t0 = now_ms();
        int rc = p != NULL ? puzzle_find(g, params, limits, p, &seeded, &e) : -1;
        total += now_ms() - t0;
        json_decref(params);
        if (rc == 0) {
            found++;
            ids = fnv(fnv(ids, p->id), ",");
            puzzle_free(p);
        } else if (p == NULL) {
            fprintf(stderr, "puzzle_time: out of memory\n");
            return -1;
        } else if (e.kind != GJ_UNMET)
            refused++;
        free(p);
    }
    printf("%s %d %d %.3f %016llx %d\n", g->name, depth, found, total, (unsigned long long)ids,
           refused);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    if (n < 1) {
        fprintf(stderr, "usage: puzzle_time [SEEDS >= 1]\n");
        return 2;
    }
    size_t count;
    const gj_game *const *all = games_all(&count);
    int rc = 0;
    for (size_t i = 0; i < count; i++)
        for (int depth = 1; depth <= 2; depth++)
            if (searches(all[i], n, depth) != 0)
                rc = 1;
    return rc;
}

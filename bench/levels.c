/* levels.c - the engine's levels calibrated per game (engine.h, levels.h).
 *
 * For each game of games.def: its benchmark (LEVELS_BENCH_PUZZLES depth-1
 * puzzles, levels.h), each level's mean exact chance to play the solving
 * move with the committed ratios (gj_game.level_ratio), then per level
 * 1..4 the ratio whose mean chance is closest to the shared target
 * (engine_level_target; the chance falls as the ratio rises, so a
 * bisection over 0..65536 finds it), and, with the ratios found, seeded
 * level games of each pair of neighbouring levels from G openings, each
 * once with either level moving first.  Prints the ratios as C initialisers to
 * paste into each game's gj_game, and the Markdown table of
 * bench/results.md.
 *
 * The level games start from the benchmark's own positions.
 *
 *   build/bench/levels [G]   (default and most LEVELS_BENCH_PUZZLES
 *                             openings: twice as many games per pair) */
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "games.h"
#include "levels.h"

/* The ratio in 0..65536 whose mean chance on b at `level` of game t
 * (changed in place) is closest to target. */
static unsigned search(gj_game *t, const levels_bench *b, int level, double target)
{
    unsigned lo = 0, hi = 65536;
    /* The smallest ratio whose chance is at most the target (the chance
     * never rises with the ratio), then the closer of it and the one below. */
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        t->level_ratio[level - 1] = mid;
        if (levels_bench_chance(t, b, level) <= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    t->level_ratio[level - 1] = lo;
    double at = levels_bench_chance(t, b, level);
    if (lo > 0) {
        t->level_ratio[level - 1] = lo - 1;
        double below = levels_bench_chance(t, b, level);
        if (below - target < target - at)
            return lo - 1;
    }
    return lo;
}

/* Games of level k against k - 1 from the first `games` positions of b,
 * each played with either side first: wins of k into *won, draws into
 * *drawn.  0, or -1 (printed). */
static int match(const gj_game *t, const levels_bench *b, int k, int games, int *won, int *drawn)
{
    *won = *drawn = 0;
    for (int s = 0; s < games; s++) {
        for (int swap = 0; swap < 2; swap++) {
            gj_error e;
            int result;
            if (levels_play(t, b->position[s], swap ? k - 1 : k, swap ? k : k - 1, s, &result,
                            &e) != 0) {
                fprintf(stderr, "%s: opening %d: %s\n", t->name, s, e.message);
                return -1;
            }
            *won += (swap ? -result : result) > 0;
            *drawn += result == 0;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : LEVELS_BENCH_PUZZLES;
    if (games < 1 || games > LEVELS_BENCH_PUZZLES)
        games = LEVELS_BENCH_PUZZLES;
    size_t ngames;
    const gj_game *const *all = games_all(&ngames);
    printf("| game | mean legal moves |");
    for (int l = 1; l <= ENGINE_LEVELS; l++)
        printf(" %s (%d%%) |", engine_level_name[l - 1], engine_level_target[l - 1]);
    for (int k = 2; k <= ENGINE_LEVELS; k++)
        printf(" %d vs %d |", k, k - 1);
    printf(" ratios |\n| --- | ---: |");
    for (int l = 1; l <= 2 * ENGINE_LEVELS - 1; l++)
        printf(" ---: |");
    printf(" --- |\n");
    for (size_t i = 0; i < ngames; i++) {
        gj_game t = *all[i];
        levels_bench b;
        gj_error e;
        if (levels_bench_load(&t, LEVELS_BENCH_PUZZLES, &b, &e) != 0) {
            fprintf(stderr, "%s: %s\n", t.name, e.message);
            return 1;
        }
        double moves = 0;
        for (long p = 0; p < b.count; p++)
            moves += (double)b.n[p];
        fprintf(stderr, "%s committed:", t.name);
        for (int l = 1; l <= ENGINE_LEVELS; l++)
            fprintf(stderr, " %.3f", levels_bench_chance(&t, &b, l));
        for (int l = 1; l < ENGINE_LEVELS; l++)
            t.level_ratio[l - 1] = search(&t, &b, l, engine_level_target[l - 1] / 100.0);
        fprintf(stderr, "\n%s found: .level_ratio = {%u, %u, %u, %u},\n", t.name, t.level_ratio[0],
                t.level_ratio[1], t.level_ratio[2], t.level_ratio[3]);
        printf("| %s | %.1f |", t.name, moves / (double)b.count);
        for (int l = 1; l <= ENGINE_LEVELS; l++)
            printf(" %.3f |", levels_bench_chance(&t, &b, l));
        for (int k = 2; k <= ENGINE_LEVELS; k++) {
            int won, drawn;
            if (match(&t, &b, k, games, &won, &drawn) != 0)
                return 1;
            /* wins-losses, and the draws (staircase-chess) when any */
            if (drawn)
                printf(" %d-%d (=%d) |", won, 2 * games - won - drawn, drawn);
            else
                printf(" %d-%d |", won, 2 * games - won);
        }
        levels_bench_free(&b);
        printf(" %u, %u, %u, %u |\n", t.level_ratio[0], t.level_ratio[1], t.level_ratio[2],
               t.level_ratio[3]);
        fflush(stdout);
    }
    return 0;
}

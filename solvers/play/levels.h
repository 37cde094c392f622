/* levels.h - the engine's levels (engine.h) measured: the benchmark each
 * game's levels are calibrated on, and seeded games between two levels.
 *
 * The benchmark of a game is the depth-1 puzzles (puzzle.h) of seeds
 * 0..count-1 at the game's puzzle knobs and the default min_moves (4):
 * positions with exactly one solving move among at least 4.  A level's
 * strength there is the mean, over those puzzles, of its exact chance
 * (engine_chance) to play the solving move, never a sample; bench/levels.c
 * searches each game's ratios (game.h) so that it meets the shared targets
 * (engine_level_target), and tests/unit/test_levels.c holds them to it.
 *
 * A level game starts from a benchmark puzzle's position (the first
 * decision matters: one winning move among at least 4), has both sides
 * played by the engine, each at its own level with a seed
 * drawn from the game's seed, and ends when the mover has no legal move or
 * after LEVELS_PLY_CAP plies (matrix-game never ends), where the rest is
 * adjudicated by perfect play: the analysis' value of the last position
 * (staircase-chess: the margin so far plus that value).  Played once with
 * each level moving first, a position favours neither. */
#ifndef GJ_LEVELS_H
#define GJ_LEVELS_H

#include <jansson.h>

#include "error.h"
#include "game.h"

#define LEVELS_BENCH_PUZZLES 200 /* puzzles in a game's benchmark */
#define LEVELS_PLY_CAP       60  /* plies before a level game is adjudicated */

typedef struct levels_bench {
    long count;        /* puzzles */
    long *n;           /* per puzzle, its legal moves */
    int **q;           /* per puzzle, their losses (engine_losses) */
    json_t **position; /* per puzzle, its position: an analyze() request */
} levels_bench;

/* Game g's benchmark of `count` puzzles into *b: 0, or -1 with *e (a seed
 * without a puzzle within the budget is an error: the benchmark is fixed). */
int levels_bench_load(const gj_game *g, long count, levels_bench *b, gj_error *e);

/* The mean chance, over b's puzzles, that game g's `level` plays the
 * solving move. */
double levels_bench_chance(const gj_game *g, const levels_bench *b, int level);

/* Free what b holds (a zeroed one too). */
void levels_bench_free(levels_bench *b);

/* One level game of g from `start` (an analyze() request, left unchanged),
 * the first mover at level first and the other at level second, the
 * engine's seeds drawn from `seed`: *result is 1 when the first mover wins,
 * -1 when the other does, 0 for a draw (staircase-chess, an even margin).
 * 0, or -1 with *e. */
int levels_play(const gj_game *g, const json_t *start, int first, int second, long long seed,
                int *result, gj_error *e);

#endif

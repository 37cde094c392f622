/* engine.h - POST /move: the engine's move at a chosen strength.
 *
 * The request is an /analyze request (with "moves" to play first, as
 * /analyze takes them: play_moves.h) plus "level" (1..ENGINE_LEVELS) and
 * an optional "seed" (0..ENGINE_SEED_MAX; absent: the caller's fallback,
 * echoed so the move can be replayed).  The engine reads the position once
 * (play_pos.h), plays the moves on it, takes the game's ranked moves there
 * and picks one; the answer is that entry, shaped like the analysis'
 * "moves" entries, with the game, the level and the seed:
 *
 *   {"game":"nim-shortcuts","level":3,"seed":42,
 *    "move":{"heap":1,"take":2},"outcome":"win","after":{...}}
 *
 * whose "after" is the whole position the move leads to, or with "after":
 * "diff" what it changed (after.h).
 *
 * Game-agnostic: a move is judged only by what the analysis says of it.
 * Its loss q is 0 for a move as good as the best (the same outcome, or for
 * scored games the same score) and otherwise 1..16: 16 for a win/lose
 * game's wrong outcome, ceil(16 (best - score) / (best - worst)) for a score
 * (worst: the lowest listed).  Its rank i is its place in the ranked list.
 * Levels 1..4 draw a move with the integer weight W(q) * 4 / (i + 4),
 * where W falls from 1 at q = 0 geometrically, by the game's per-level
 * ratio (gj_game.level_ratio) at each step; level 5 plays moves[0], the
 * best move under the ranking policy.  The levels have names, and one
 * strength in every game (ENGINE_LEVEL_TARGET: how often each plays the
 * only solving move of the benchmark puzzles, bench/levels.c):
 *   1 beginner 35%   2 casual 55%   3 club 70%   4 expert 85%   5 perfect.
 * A level that solved as often everywhere with one ratio does not exist: a
 * position of matrix-game has many more moves than one of grid-walk, so
 * the same weights go wrong far more often there; hence a ratio per game,
 * searched on the game's own benchmark.  So a mistake costs more the worse
 * it is, comes more often where there are more moves to go wrong with
 * (each wrong move adds its weight), and falls on the moves ranked near the
 * top, the ones that look good: a high cell in matrix-game, few stones in
 * nim-shortcuts, a large square in prime-chocolate, a score close to the
 * best in staircase-chess.  The weights are integers (no floating point),
 * so a seed gives the same move on every machine.  The candidates are the
 * first ENGINE_CANDIDATES ranked moves: every legal move of any position
 * with no more. */
#ifndef GJ_ENGINE_H
#define GJ_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analysis_read.h"
#include "buf.h"
#include "error.h"
#include "game.h"

#define ENGINE_LEVELS     5
#define ENGINE_CANDIDATES 10000
/* The largest seed: 2^53 - 1, the largest integer every JSON reader keeps exactly. */
#define ENGINE_SEED_MAX 9007199254740991LL
/* The levels below the top are the game's calibrated ones (game.h). */
_Static_assert(ENGINE_LEVELS - 1 == GJ_TUNED_LEVELS, "one calibrated ratio per level below 5");

/* One line per level, 1-based: engine_level_doc[level - 1], for /games. */
extern const char *const engine_level_doc[ENGINE_LEVELS];
/* The levels' names, 1-based like the docs: "beginner" .. "perfect". */
extern const char *const engine_level_name[ENGINE_LEVELS];
/* Per level, the share of benchmark puzzles it solves, in percent: the
 * target every game's calibration meets within 10 points. */
extern const int engine_level_target[ENGINE_LEVELS];

/* The level called `name` (one of engine_level_name), or 0. */
int engine_level_named(const char *name);

/* The engine's move for the request (see above), written to out; the seed
 * is `fallback_seed` (at most ENGINE_SEED_MAX) when the request has none.
 * 0, or -1 with *e filled: bad_input for a bad member, unprocessable
 * (GJ_UNMET) for a position with no legal move. */
int engine_move(const gj_game *g, const char *buf, size_t len, const long *limits,
                uint64_t fallback_seed, gj_buf *out, gj_error *e);
/* engine_move over a body already read into its tree (json_tree.h), which
 * it releases. */
int engine_move_tree(const gj_game *g, json_t *root, const long *limits, uint64_t fallback_seed,
                     gj_buf *out, gj_error *e);
/* engine_move over a body read as it arrived with its bulk member in the
 * game's arrays (analysis_read.h), which it releases: the same answer and
 * errors. */
int engine_move_read(const gj_game *g, analysis_body *read, const long *limits,
                     uint64_t fallback_seed, gj_buf *out, gj_error *e);

/* The index the engine picks in game g among n ranked moves with losses
 * q[0..n) (0..16, q[0] = 0) at `level`, drawing from the generator seeded
 * with `seed`.  Exposed for the tests and the level games (levels.h). */
long engine_pick(const gj_game *g, int level, const int *q, long n, uint64_t seed);

/* The chance, exactly, that `level` picks index in game g among n ranked
 * moves with losses q[0..n) (the weights engine_pick draws by): what the
 * levels' calibration measures a level by (levels.h). */
double engine_chance(const gj_game *g, int level, const int *q, long n, long index);

/* Each of the n ranked moves' loss against moves[0] (see above), as a
 * position ranks them (game.h): malloc'd, or NULL when memory is short. */
int *engine_losses(const gj_move *moves, long n);

#endif

/* levels.c - the levels' benchmark and level games (levels.h). */
#include "levels.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "games.h"
#include "generate.h"
#include "play_pos.h"
#include "puzzle_search.h"
#include "rng.h"

/* The generator's budget for the benchmark and the openings: generous, so
 * that a slow or busy machine finds the same positions as a fast one (a
 * seed's position does not depend on the time, only finding it in time
 * does). */
#define LEVELS_BUDGET_MS 20000

/* g's default limits with the generous budget ceiling into limits. */
static void limits_of(const gj_game *g, long limits[GEN_NLIMITS])
{
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = LEVELS_BUDGET_MS;
}

void levels_bench_free(levels_bench *b)
{
    for (long i = 0; b->q != NULL && i < b->count; i++) {
        free(b->q[i]);
        json_decref(b->position[i]);
    }
    free(b->q);
    free(b->position);
    free(b->n);
    memset(b, 0, sizeof *b);
}

int levels_bench_load(const gj_game *g, long count, levels_bench *b, gj_error *e)
{
    memset(b, 0, sizeof *b);
    long limits[GEN_NLIMITS];
    limits_of(g, limits);
    b->n = calloc((size_t)count, sizeof *b->n);
    b->q = calloc((size_t)count, sizeof *b->q);
    b->position = calloc((size_t)count, sizeof *b->position);
    if (b->n == NULL || b->q == NULL || b->position == NULL) {
        levels_bench_free(b);
        return gj_fail_nomem(e);
    }
    b->count = count;
    for (long s = 0; s < count; s++) {
        json_t *params = json_pack("{s:I, s:I}", "seed", (json_int_t)s, "budget_ms",
                                   (json_int_t)LEVELS_BUDGET_MS);
        puzzle p;
        bool seeded;
        int rc = params == NULL ? gj_fail_nomem(e) : puzzle_find(g, params, limits, &p, &seeded, e);
        json_decref(params);
        if (rc != 0) {
            levels_bench_free(b);
            return -1;
        }
        b->n[s] = p.steps[0].legal;
        b->q[s] = engine_losses(p.steps[0].moves, p.steps[0].legal);
        b->position[s] = json_deep_copy(p.steps[0].position);
        puzzle_free(&p);
        if (b->q[s] == NULL || b->position[s] == NULL) {
            levels_bench_free(b);
            return gj_fail_nomem(e);
        }
    }
    return 0;
}

double levels_bench_chance(const gj_game *g, const levels_bench *b, int level)
{
    double sum = 0;
    for (long i = 0; i < b->count; i++)
        sum += engine_chance(g, level, b->q[i], b->n[i], 0);
    return b->count > 0 ? sum / (double)b->count : 0;
}

/* The sign of x: 1, 0 or -1. */
static int sign_of(long long x)
{
    return (x > 0) - (x < 0);
}

/* Whether p's game answers a score (staircase-chess), not a win or a
 * loss, as the start's ranking head says (game.h).  0, or -1 with *e. */
static int scored_of(play_pos *p, bool *scored, gj_error *e)
{
    gj_move first;
    gj_rank_head head;
    if (p->ops->rank(p->pos, 1, &first, &head, e) < 0)
        return -1;
    *scored = head.scored != 0;
    return 0;
}

/* The level game from p's position (played on), as levels_play: 0, or -1
 * with *e. */
static int play_levels(const gj_game *g, play_pos *p, gj_move *moves, int first, int second,
                       long long seed, int *result, gj_error *e)
{
    bool scored;
    if (scored_of(p, &scored, e) != 0)
        return -1;
    gj_rng r;
    gj_rng_seed(&r, (uint64_t)seed * 0x9e3779b97f4a7c15ull + (uint64_t)(first * 8 + second));
    /* side: +1 while the first mover is to move.  For a scored game the
     * first mover's margin: each move's gain is its score plus the value
     * the opponent is left with, and the last position's value is what
     * perfect play would add. */
    int side = 1;
    long long margin = 0, last_score = 0;
    for (int ply = 0;; ply++) {
        gj_rank_head head;
        long n =
            p->ops->rank(p->pos, ply < LEVELS_PLY_CAP ? ENGINE_CANDIDATES : 1, moves, &head, e);
        if (n < 0)
            return -1;
        long long v = head.value;
        if (scored && ply > 0)
            margin -= side * (last_score + v);
        if (n == 0 || ply == LEVELS_PLY_CAP) {
            *result = scored ? sign_of(margin + side * v) : v == 1 ? side : -side;
            return 0;
        }
        int *q = engine_losses(moves, n);
        if (q == NULL)
            return gj_fail_nomem(e);
        long pick = engine_pick(g, side > 0 ? first : second, q, n, gj_rng_next(&r));
        free(q);
        last_score = moves[pick].score;
        if (p->ops->play(p->pos, &moves[pick], e) != 0)
            return -1;
        side = -side;
    }
}

int levels_play(const gj_game *g, const json_t *start, int first, int second, long long seed,
                int *result, gj_error *e)
{
    long limits[GEN_NLIMITS];
    limits_of(g, limits);
    gj_move *moves = malloc(ENGINE_CANDIDATES * sizeof *moves);
    if (moves == NULL)
        return gj_fail_nomem(e);
    play_pos p;
    int rc = play_open(&p, g, start, limits, e);
    if (rc == 0)
        rc = play_levels(g, &p, moves, first, second, seed, result, e);
    play_close(&p);
    free(moves);
    return rc;
}

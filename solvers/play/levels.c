/* levels.c - the levels' benchmark and level games (levels.h). */
#include "levels.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_call.h"
#include "engine.h"
#include "games.h"
#include "generate.h"
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

int levels_play(const gj_game *g, const json_t *start, int first, int second, long long seed,
                int *result, gj_error *e)
{
    long limits[GEN_NLIMITS];
    limits_of(g, limits);
    json_t *pos = json_deep_copy(start);
    if (pos == NULL)
        return gj_fail_nomem(e);
    gj_rng r;
    gj_rng_seed(&r, (uint64_t)seed * 0x9e3779b97f4a7c15ull + (uint64_t)(first * 8 + second));
    /* side: +1 while the first mover is to move.  For a scored game the
     * first mover's margin: each move's gain is its score plus the value
     * the opponent is left with, and the last position's value is what
     * perfect play would add. */
    int side = 1, rc = 0;
    long long margin = 0, last_score = 0;
    for (int ply = 0;; ply++) {
        json_t *a = analysis_call(g, pos, ply < LEVELS_PLY_CAP ? ENGINE_CANDIDATES : 1, limits, e);
        if (a == NULL) {
            rc = -1;
            break;
        }
        const json_t *value = json_object_get(a, "value"), *moves = json_object_get(a, "moves");
        long n = (long)json_array_size(moves);
        bool scored = json_is_integer(value);
        long long v = json_integer_value(value);
        if (scored && ply > 0)
            margin -= side * (last_score + v);
        if (n == 0 || ply == LEVELS_PLY_CAP) {
            bool mover_wins = json_is_string(value) && strcmp(json_string_value(value), "win") == 0;
            *result = scored ? sign_of(margin + side * v) : mover_wins ? side : -side;
            json_decref(a);
            break;
        }
        int *q = engine_losses(moves, n);
        if (q == NULL) {
            json_decref(a);
            rc = gj_fail_nomem(e);
            break;
        }
        long pick = engine_pick(g, side > 0 ? first : second, q, n, gj_rng_next(&r));
        free(q);
        const json_t *entry = json_array_get(moves, (size_t)pick);
        last_score = json_integer_value(json_object_get(entry, "score"));
        json_object_del(pos, "max_moves");
        rc = g->play_move(pos, entry, e);
        json_decref(a);
        if (rc != 0)
            break;
        side = -side;
    }
    json_decref(pos);
    return rc;
}

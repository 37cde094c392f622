/* test_engine.c - the engine's choice (engine.h), its generator (rng.h)
 * and the line wrapper's options (line.h), in process.
 *
 * The generator must give splitmix64's published numbers, so a seed means
 * the same move on every machine.  The choice is checked on fixed seeds,
 * deterministically, in every game (each has its own calibrated weights):
 * the top level always takes the best move; a weaker level errs more than
 * a stronger one, more often with more moves, and mostly on the moves
 * ranked near the top.  Levels can be named. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "games.h"
#include "harness.h"
#include "line.h"
#include "rng.h"

#define SEEDS 4000

START_TEST(test_rng_is_splitmix64)
{
    gj_rng r;
    gj_rng_seed(&r, 0);
    ck_assert_uint_eq(gj_rng_next(&r), UINT64_C(0xe220a8397b1dcdaf));
    ck_assert_uint_eq(gj_rng_next(&r), UINT64_C(0x6e789e6aa1b965f4));
    gj_rng_seed(&r, 7);
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_lt(gj_rng_below(&r, 3), 3);
}
END_TEST

/* How often game g's `level` picks a move other than one of the first
 * `good` (loss 0) among n, the rest of loss `loss`, over SEEDS seeds. */
static int mistakes(const gj_game *g, int level, long n, long good, int loss)
{
    int *q = malloc((size_t)n * sizeof *q), wrong = 0;
    ck_assert_ptr_nonnull(q);
    for (long i = 0; i < n; i++)
        q[i] = i < good ? 0 : loss;
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        long pick = engine_pick(g, level, q, n, seed);
        ck_assert(pick >= 0 && pick < n);
        wrong += pick >= good;
    }
    free(q);
    return wrong;
}

/* Every game, in games.def's order: the levels are calibrated per game. */
static const gj_game *const *all_games(size_t *n)
{
    return games_all(n);
}

START_TEST(test_levels_err_less_as_they_rise)
{
    size_t n;
    const gj_game *const *g = all_games(&n);
    for (size_t k = 0; k < n; k++) {
        int previous = SEEDS + 1;
        for (int level = 1; level <= ENGINE_LEVELS; level++) {
            int wrong = mistakes(g[k], level, 10, 1, 16);
            ck_assert_msg(wrong < previous, "%s: level %d errs %d times, level %d %d", g[k]->name,
                          level, wrong, level - 1, previous);
            previous = wrong;
        }
        ck_assert_int_eq(previous, 0); /* perfect play never errs */
    }
}
END_TEST

START_TEST(test_more_moves_more_mistakes)
{
    size_t n;
    const gj_game *const *g = all_games(&n);
    for (size_t k = 0; k < n; k++)
        for (int level = 1; level < ENGINE_LEVELS; level++)
            ck_assert_int_lt(mistakes(g[k], level, 3, 1, 16), mistakes(g[k], level, 300, 1, 16));
}
END_TEST

START_TEST(test_small_losses_are_likelier)
{
    /* For scores: a move a little below the best is taken more often than
     * one far below. */
    size_t n;
    const gj_game *const *g = all_games(&n);
    for (size_t k = 0; k < n; k++)
        for (int level = 2; level < ENGINE_LEVELS; level++)
            ck_assert_int_gt(mistakes(g[k], level, 5, 1, 2), mistakes(g[k], level, 5, 1, 16));
}
END_TEST

START_TEST(test_same_seed_same_move)
{
    int q[50] = {0};
    for (int i = 1; i < 50; i++)
        q[i] = 16;
    for (uint64_t seed = 0; seed < 100; seed++)
        for (int level = 1; level <= ENGINE_LEVELS; level++)
            ck_assert_int_eq(engine_pick(&game_nim_shortcuts, level, q, 50, seed),
                             engine_pick(&game_nim_shortcuts, level, q, 50, seed));
    ck_assert_int_eq(engine_pick(&game_nim_shortcuts, ENGINE_LEVELS, q, 50, 123), 0);
}
END_TEST

/* engine_move on a C string: the answer as JSON, or NULL with *e. */
static json_t *move(const gj_game *g, const char *body, gj_error *e)
{
    long limits[GJ_MAX_LIMITS];
    gj_buf out;
    game_default_limits(g, limits);
    buf_init(&out);
    gj_error_clear(e);
    json_t *answer = NULL;
    if (engine_move(g, body, strlen(body), limits, 5, &out, e) == 0)
        answer = json_loadb(out.data, out.len, 0, NULL);
    buf_free(&out);
    return answer;
}

START_TEST(test_levels_have_names)
{
    for (int level = 1; level <= ENGINE_LEVELS; level++)
        ck_assert_int_eq(engine_level_named(engine_level_name[level - 1]), level);
    ck_assert_int_eq(engine_level_named("grandmaster"), 0);
    ck_assert_int_eq(engine_level_named("Club"), 0);
    gj_error e;
    json_t *a = move(&game_nim_shortcuts,
                     "{\"shortcuts\": [], \"heaps\": [3, 4], \"level\": \"perfect\"}", &e);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(json_integer_value(json_object_get(a, "level")), 5);
    json_decref(a);
    ck_assert_ptr_null(move(&game_nim_shortcuts,
                            "{\"shortcuts\": [], \"heaps\": [3, 4], \"level\": \"pro\"}", &e));
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_str_eq(e.field, "level");
    ck_assert_ptr_null(
        move(&game_nim_shortcuts, "{\"shortcuts\": [], \"heaps\": [3, 4], \"level\": 2.5}", &e));
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
}
END_TEST

START_TEST(test_move_echoes_and_defaults_the_seed)
{
    gj_error e;
    json_t *a =
        move(&game_nim_shortcuts, "{\"shortcuts\": [], \"heaps\": [3, 4], \"level\": 2}", &e);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(json_integer_value(json_object_get(a, "seed")), 5); /* the fallback */
    ck_assert_int_eq(json_integer_value(json_object_get(a, "level")), 2);
    json_decref(a);
    a = move(&game_nim_shortcuts, "{\"shortcuts\": [], \"heaps\": [3, 4], \"level\": 5}", &e);
    /* Plain nim: the only winning move evens the heaps. */
    ck_assert_str_eq(json_string_value(json_object_get(a, "outcome")), "win");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(a, "move"), "heap")), 2);
    json_decref(a);
    ck_assert_ptr_null(
        move(&game_nim_shortcuts, "{\"shortcuts\": [], \"heaps\": [0, 0], \"level\": 3}", &e));
    ck_assert_int_eq(e.kind, GJ_UNMET);
}
END_TEST

/* line_analyze on a C string: its error kind and field (GJ_OK on success). */
static gj_error line_error(const gj_game *g, const char *body)
{
    long limits[GJ_MAX_LIMITS];
    gj_buf out;
    gj_error e;
    game_default_limits(g, limits);
    buf_init(&out);
    gj_error_clear(&e);
    if (line_analyze(g, body, strlen(body), limits, &out, &e) == 0)
        gj_error_clear(&e);
    buf_free(&out);
    return e;
}

START_TEST(test_line_options)
{
    const gj_game *g = &game_nim_shortcuts;
    ck_assert_int_eq(line_error(g, "{\"shortcuts\": [], \"heaps\": [1, 2], \"line\": false}").kind,
                     GJ_OK);
    gj_error e = line_error(g, "{\"shortcuts\": [], \"heaps\": [1, 2], \"line\": \"yes\"}");
    ck_assert_str_eq(e.field, "line");
    e = line_error(g,
                   "{\"shortcuts\": [], \"heaps\": [1, 2], \"line\": true, \"max_line\": 10001}");
    ck_assert_str_eq(e.field, "max_line");
    e = line_error(g, "{\"shortcuts\": [], \"heaps\": [1, 2], \"line\": true, \"lines\": 1}");
    ck_assert_str_eq(e.field, "lines"); /* the game names members it does not know */
}
END_TEST

/* A nim-shortcuts request of about 1.2 MB, 800 KB written compact (80000
 * shortcuts far from the heaps), with `extra` members, malloc'd. */
static char *big_request(const char *extra)
{
    size_t cap = 80000 * 24 + 256, len = 0;
    char *b = malloc(cap);
    ck_assert_ptr_nonnull(b);
    len += (size_t)snprintf(b, cap, "{\"shortcuts\": [");
    for (int i = 0; i < 80000; i++)
        len += (size_t)snprintf(b + len, cap - len, "%s[%d, %d]", i ? ", " : "", 1000 + i, 7);
    snprintf(b + len, cap - len, "], \"heaps\": [2, 3], \"line\": true%s}", extra);
    return b;
}

START_TEST(test_line_work_bound)
{
    /* The line counts moves, not bytes of the position: on a compact
     * ~800 KB position a max_line of 100 (past 64 MiB over its size, the
     * byte bound of the time every move re-read the position) is answered,
     * with diffs and with the default whole afters alike. */
    char *body = big_request(", \"max_line\": 100, \"max_moves\": 1, \"after\": \"diff\"");
    ck_assert_int_eq(line_error(&game_nim_shortcuts, body).kind, GJ_OK);
    free(body);
    body = big_request(", \"max_line\": 10, \"max_moves\": 1");
    ck_assert_int_eq(line_error(&game_nim_shortcuts, body).kind, GJ_OK);
    free(body);
}
END_TEST

/* The example of g's analysis request with "bogus" added and "max_moves"
 * removed, plus "level" for /move (move != 0): malloc'd JSON. */
static char *with_bogus(const gj_game *g, int move)
{
    json_t *req = json_loads(g->example_analyze, 0, NULL);
    ck_assert_ptr_nonnull(req);
    json_object_del(req, "max_moves");
    json_object_set_new(req, "bogus", json_true());
    if (move)
        json_object_set_new(req, "level", json_integer(5));
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    ck_assert_ptr_nonnull(body);
    return body;
}

/* Each game's unknown-field message on /analyze and on /move, to the byte:
 * each names exactly the members its endpoint takes (the line's on
 * /analyze; level and seed, and not max_moves, on /move). */
static const struct {
    const gj_game *game;
    const char *analyze, *move;
} unknown_field[] = {
    {&game_matrix_game,
     "bogus: unknown field; expected only \"k\", \"matrix\", \"token\", \"to_move\", "
     "\"max_moves\", \"line\", \"max_line\", \"moves\", \"after\"",
     "bogus: unknown field; expected only \"k\", \"matrix\", \"token\", \"to_move\", "
     "\"level\", \"seed\", \"moves\", \"after\""},
    {&game_grid_walk,
     "bogus: unknown field; expected only \"grid\", \"path\", \"token\", \"to_move\", "
     "\"visited\", \"max_moves\", \"line\", \"max_line\", \"moves\", \"after\"",
     "bogus: unknown field; expected only \"grid\", \"path\", \"token\", \"to_move\", "
     "\"visited\", \"level\", \"seed\", \"moves\", \"after\""},
    {&game_nim_shortcuts,
     "bogus: unknown field; expected only \"shortcuts\", \"heaps\", \"to_move\", "
     "\"max_moves\", \"line\", \"max_line\", \"moves\", \"after\"",
     "bogus: unknown field; expected only \"shortcuts\", \"heaps\", \"to_move\", "
     "\"level\", \"seed\", \"moves\", \"after\""},
    {&game_prime_chocolate,
     "bogus: unknown field; expected only \"grid\", \"primes_used\", \"to_move\", "
     "\"chocolate_left\", \"max_moves\", \"line\", \"max_line\", \"moves\", "
     "\"after\"",
     "bogus: unknown field; expected only \"grid\", \"primes_used\", \"to_move\", "
     "\"chocolate_left\", \"level\", \"seed\", \"moves\", \"after\""},
    {&game_staircase_chess,
     "bogus: unknown field; expected only \"a\", \"b\", \"stones\", \"profile\", "
     "\"to_move\", \"max_moves\", \"line\", \"max_line\", \"moves\", \"after\"",
     "bogus: unknown field; expected only \"a\", \"b\", \"stones\", \"profile\", "
     "\"to_move\", \"level\", \"seed\", \"moves\", \"after\""},
};

/* The game's messages on both endpoints, from its example request. */
START_TEST(test_unknown_field_lists_the_endpoint_s_fields)
{
    const gj_game *g = unknown_field[_i].game;
    char *body = with_bogus(g, 0);
    gj_error e = line_error(g, body);
    free(body);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_str_eq(e.field, "bogus");
    ck_assert_str_eq(e.message, unknown_field[_i].analyze);
    body = with_bogus(g, 1);
    ck_assert_ptr_null(move(g, body, &e));
    free(body);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_str_eq(e.field, "bogus");
    ck_assert_str_eq(e.message, unknown_field[_i].move);
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"generator", test_rng_is_splitmix64},
        {"levels", test_levels_err_less_as_they_rise},
        {"levels", test_more_moves_more_mistakes},
        {"levels", test_small_losses_are_likelier},
        {"levels", test_same_seed_same_move},
        {"levels", test_levels_have_names},
        {"move", test_move_echoes_and_defaults_the_seed},
        {"line", test_line_options},
        {"line", test_line_work_bound},
    };
    Suite *s = harness_suite("engine", cases, sizeof cases / sizeof cases[0], 60);
    harness_add_loop(s, "unknown field", test_unknown_field_lists_the_endpoint_s_fields,
                     (int)(sizeof unknown_field / sizeof unknown_field[0]), 60);
    return harness_main(s);
}

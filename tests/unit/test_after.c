/* test_after.c - every "after" is a body /analyze and /move take back as
 * is (after.h), for every game of games.def.  Small positions from the
 * game's generator (fixed seeds) are analysed with their line; each after
 * of "moves", of the line and of /move's answer is posted back unchanged
 * through the handlers' entry points (line_analyze, engine_move) and must
 * be answered exactly as the position the move leads to, asked for with
 * "moves" from the original.  Then the option itself: "diff" keeps what the
 * move changed, any other value is refused, past the bound on an answer's
 * after bytes the answer is a 422, never a shortened one, and under it the
 * bytes are asked of the thread's memory grant (grant.h). */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "engine.h"
#include "games.h"
#include "generate.h"
#include "grant.h"
#include "harness.h"
#include "line.h"

#define SEEDS 12 /* generated positions per game */

/* /analyze's answer to the object req (as the handler runs it), parsed, or
 * NULL with *e. */
static json_t *analyzed(const gj_game *g, const json_t *req, gj_error *e)
{
    char *text = harness_analyze(g, req, e);
    if (text == NULL)
        return NULL;
    json_error_t je;
    json_t *a = json_loads(text, 0, &je);
    ck_assert_msg(a != NULL, "%s: the answer is no JSON: %s", g->name, je.text);
    free(text);
    return a;
}

/* /move's answer at `level`, seed 5, to req (without its max_moves), parsed,
 * or NULL with *e. */
static json_t *moved(const gj_game *g, const json_t *req, int level, gj_error *e)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    json_t *r = json_deep_copy(req);
    json_object_del(r, "max_moves");
    json_object_set_new(r, "level", json_integer(level));
    json_object_set_new(r, "seed", json_integer(5));
    char *body = json_dumps(r, JSON_COMPACT);
    json_decref(r);
    gj_buf out;
    buf_init(&out);
    gj_error_clear(e);
    int rc = engine_move(g, body, strlen(body), limits, 0, &out, e);
    free(body);
    json_t *a = rc == 0 ? json_loadb(out.data, out.len, 0, NULL) : NULL;
    ck_assert(rc != 0 || a != NULL);
    buf_free(&out);
    return a;
}

/* req with "moves": the moves of line[0..n) then `last`. */
static json_t *with_moves(const json_t *req, const json_t *line, size_t n, const json_t *last)
{
    json_t *r = json_deep_copy(req), *list = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append(list, json_object_get(json_array_get(line, k), "move"));
    json_array_append(list, (json_t *)last);
    json_object_set_new(r, "moves", list);
    return r;
}

/* Two answers, or two refusals of one kind: the same. */
static void same(const gj_game *g, const char *what, json_t *got, const gj_error *eg, json_t *want,
                 const gj_error *ew)
{
    if (want == NULL) {
        ck_assert_msg(got == NULL && eg->kind == ew->kind, "%s %s: refused only from the moves: %s",
                      g->name, what, ew->message);
        return;
    }
    ck_assert_msg(got != NULL, "%s %s: the after is refused: %s (%s)", g->name, what, eg->message,
                  eg->field);
    char *a = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);
    char *b = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_msg(json_equal(got, want), "%s %s: the after's answer %.300s differs from %.300s",
                  g->name, what, a, b);
    free(a);
    free(b);
}

/* The after of `entry`, played from `req` after line[0..n): posted back to
 * /analyze and /move, answered as req with those moves and the entry's. */
static void check_entry(const gj_game *g, const json_t *req, const json_t *line, size_t n,
                        const json_t *entry, const char *what)
{
    const json_t *after = json_object_get(entry, "after");
    ck_assert_msg(json_is_object(after), "%s %s: no after", g->name, what);
    json_t *asked = with_moves(req, line, n, json_object_get(entry, "move"));
    gj_error eg, ew;
    json_t *got = analyzed(g, after, &eg), *want = analyzed(g, asked, &ew);
    same(g, what, got, &eg, want, &ew);
    json_decref(got);
    json_decref(want);
    got = moved(g, after, 5, &eg);
    want = moved(g, asked, 5, &ew);
    same(g, what, got, &eg, want, &ew);
    json_decref(got);
    json_decref(want);
    json_decref(asked);
}

/* Position number `seed` of g's generator on its example request, or NULL
 * when that seed finds none in the budget. */
static json_t *generated(const gj_game *g, long seed)
{
    json_t *req = json_loads(g->example_generate, 0, NULL);
    ck_assert_ptr_nonnull(req);
    json_object_set_new(req, "seed", json_integer(seed));
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 2000;
    gj_buf out;
    buf_init(&out);
    gj_error e;
    int rc = g->generate(body, strlen(body), limits, &out, &e);
    free(body);
    json_t *answer = rc == 0 ? json_loadb(out.data, out.len, 0, NULL) : NULL;
    buf_free(&out);
    json_t *position = json_incref(json_object_get(answer, "position"));
    json_decref(answer);
    /* A grid-walk position from the generator is a board: its walk starts empty. */
    if (position != NULL && strcmp(g->name, "grid-walk") == 0 &&
        json_object_get(position, "path") == NULL)
        json_object_set_new(position, "path", json_array());
    return position;
}

/* Every after of many analyses and their lines, and of /move, taken back. */
START_TEST(test_round_trip)
{
    const gj_game *g = harness_game(_i);
    int positions = 0;
    long afters = 0;
    for (long seed = 1; seed <= SEEDS; seed++) {
        json_t *pos = generated(g, seed);
        if (pos == NULL)
            continue;
        positions++;
        json_object_del(pos, "max_moves");
        json_t *req = json_deep_copy(pos);
        json_object_set_new(req, "line", json_true());
        json_object_set_new(req, "max_line", json_integer(6));
        json_object_set_new(req, "max_moves", json_integer(12));
        gj_error e;
        json_t *a = analyzed(g, req, &e);
        ck_assert_msg(a != NULL, "%s seed %ld: %s", g->name, seed, e.message);
        const json_t *moves = json_object_get(a, "moves"), *line = json_object_get(a, "line");
        char what[64];
        for (size_t i = 0; i < json_array_size(moves); i++, afters++) {
            snprintf(what, sizeof what, "seed %ld moves[%zu]", seed, i);
            check_entry(g, pos, line, 0, json_array_get(moves, i), what);
        }
        for (size_t i = 0; i < json_array_size(line); i++, afters++) {
            snprintf(what, sizeof what, "seed %ld line[%zu]", seed, i);
            check_entry(g, pos, line, i, json_array_get(line, i), what);
        }
        for (int level = 1; level <= ENGINE_LEVELS; level += 2, afters++) {
            json_t *m = moved(g, pos, level, &e);
            ck_assert_msg(m != NULL || e.kind == GJ_UNMET, "%s: %s", g->name, e.message);
            snprintf(what, sizeof what, "seed %ld /move level %d", seed, level);
            if (m != NULL)
                check_entry(g, pos, line, 0, m, what);
            json_decref(m);
        }
        json_decref(a);
        json_decref(req);
        json_decref(pos);
    }
    ck_assert_msg(positions >= SEEDS / 2, "%s: %d positions generated", g->name, positions);
    ck_assert_int_gt(afters, 3 * positions);
}
END_TEST

/* "diff" answers what the move changed: each member of it is the whole
 * after's, and the whole after has the position's members too. */
START_TEST(test_diff)
{
    const gj_game *g = harness_game(_i);
    json_t *pos = json_loads(g->example_analyze, 0, NULL);
    gj_error e;
    json_t *whole = analyzed(g, pos, &e);
    ck_assert_msg(whole != NULL, "%s: %s", g->name, e.message);
    json_object_set_new(pos, "after", json_string("diff"));
    json_t *diff = analyzed(g, pos, &e);
    ck_assert_ptr_nonnull(diff);
    const json_t *wm = json_object_get(whole, "moves"), *dm = json_object_get(diff, "moves");
    ck_assert_int_eq(json_array_size(wm), json_array_size(dm));
    ck_assert_int_gt(json_array_size(wm), 0);
    for (size_t i = 0; i < json_array_size(wm); i++) {
        const json_t *w = json_object_get(json_array_get(wm, i), "after");
        const json_t *d = json_object_get(json_array_get(dm, i), "after");
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)d, key, v)
        {
            ck_assert_msg(json_equal(v, json_object_get(w, key)), "%s: after.%s", g->name, key);
        }
        ck_assert_int_gt(json_object_size(w), json_object_size(d));
        /* The position's own first member (the board) is in the whole one only. */
        const char *board = g->analyze_keys[0];
        ck_assert_ptr_nonnull(json_object_get(w, board));
        ck_assert_ptr_null(json_object_get(d, board));
    }
    json_decref(whole);
    json_decref(diff);
    json_decref(pos);
}
END_TEST

/* Any value but "full" or "diff" is refused, by /analyze and /move alike. */
START_TEST(test_refused)
{
    const gj_game *g = harness_game(_i);
    static const char *const bad[] = {"\"x\"", "\"FULL\"", "true", "null", "[\"diff\"]"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        json_t *pos = json_loads(g->example_analyze, 0, NULL);
        json_object_set_new(pos, "after", json_loads(bad[k], JSON_DECODE_ANY, NULL));
        gj_error e;
        ck_assert_ptr_null(analyzed(g, pos, &e));
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_str_eq(e.field, "after");
        ck_assert_msg(strstr(e.message, "expected \"full\"") != NULL, "%s", e.message);
        ck_assert_ptr_null(moved(g, pos, 3, &e));
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_str_eq(e.field, "after");
        ck_assert_ptr_nonnull(strstr(e.message, "or \"diff\""));
        json_decref(pos);
    }
}
END_TEST

/* A matrix of side n holding 1..n^2 row by row, k = 1, token in a corner. */
static json_t *big_matrix(long n)
{
    json_t *rows = json_array();
    for (long i = 0; i < n; i++) {
        json_t *row = json_array();
        for (long j = 0; j < n; j++)
            json_array_append_new(row, json_integer(i * n + j + 1));
        json_array_append_new(rows, row);
    }
    return json_pack("{s:i, s:o, s:[i,i], s:i}", "k", 1, "matrix", rows, "token", 1, 1, "max_moves",
                     20);
}

/* Past ANALYSIS_AFTER_BYTES_MAX: a 422 naming the bound and the ways out,
 * and the same request with "diff" is answered. */
START_TEST(test_bound)
{
    const gj_game *g = games_find("matrix-game", strlen("matrix-game"));
    ck_assert_ptr_nonnull(g);
    /* 20 moves of a 700 x 700 matrix: each whole after holds ~3 MB. */
    json_t *req = big_matrix(700);
    gj_error e;
    ck_assert_ptr_null(analyzed(g, req, &e));
    ck_assert_int_eq(e.kind, GJ_UNMET);
    ck_assert_str_eq(e.field, "after");
    ck_assert_ptr_nonnull(strstr(e.message, "32 MiB"));
    ck_assert_ptr_nonnull(strstr(e.message, "\"diff\""));
    ck_assert_ptr_nonnull(strstr(e.message, "max_moves"));
    json_object_set_new(req, "max_moves", json_integer(2));
    json_t *a = analyzed(g, req, &e);
    ck_assert_msg(a != NULL, "%s", e.message);
    json_decref(a);
    json_object_set_new(req, "max_moves", json_integer(20));
    json_object_set_new(req, "after", json_string("diff"));
    a = analyzed(g, req, &e);
    ck_assert_msg(a != NULL, "%s", e.message);
    ck_assert_int_eq(json_array_size(json_object_get(a, "moves")), 20);
    json_decref(a);
    json_decref(req);
}
END_TEST

/* A take that records what it charged and refuses past `cap` bytes. */
typedef struct taker {
    size_t charged, cap;
    int calls;
} taker;

/* gj_grant's take over a taker. */
static int take(void *ctx, size_t bytes, gj_error *e)
{
    taker *t = ctx;
    t->calls++;
    if (bytes > t->cap - t->charged)
        return gj_fail(e, GJ_OVERLOADED, "refused %zu more bytes", bytes);
    t->charged += bytes;
    return 0;
}

/* The whole afters are asked of the thread's grant (grant.h) as they are
 * written: in steps of at least GJ_GRANT_STEP, always covering what was
 * used, and a refusal is the analysis's and the move's error, not a
 * shortened answer.  Unbound, nothing is asked. */
START_TEST(test_grant)
{
    const gj_game *g = games_find("matrix-game", strlen("matrix-game"));
    json_t *req = big_matrix(700); /* each whole after ~3 MB */
    json_object_set_new(req, "max_moves", json_integer(3));
    taker t = {.cap = SIZE_MAX};
    gj_grant grant;
    gj_grant_init(&grant, take, NULL, &t);
    gj_grant_bind(&grant);
    gj_error e;
    json_t *a = analyzed(g, req, &e);
    ck_assert_msg(a != NULL, "%s", e.message);
    size_t afters = 0;
    json_t *m;
    size_t i;
    json_array_foreach(json_object_get(a, "moves"), i, m)
    {
        char *text = json_dumps(json_object_get(m, "after"), JSON_COMPACT);
        afters += strlen(text);
        free(text);
    }
    json_decref(a);
    ck_assert_uint_ge(afters, 3 * 700 * 700);
    ck_assert_uint_le(afters, 32 << 20);
    /* Written compact as they are dumped: their bytes and half again for
     * the buffer's moves, rounded down once per after. */
    ck_assert_uint_le(grant.used, afters + afters / 2);
    ck_assert_uint_ge(grant.used, afters + afters / 2 - 16);
    ck_assert_uint_eq(t.charged, grant.taken);
    ck_assert_uint_ge(grant.taken, grant.used);
    ck_assert_uint_lt(grant.taken - grant.used, GJ_GRANT_STEP);
    ck_assert_int_le(t.calls, 3);

    /* Room for one step only: the analysis is refused with take's error. */
    gj_grant_init(&grant, take, NULL, &t);
    t = (taker){.cap = GJ_GRANT_STEP};
    ck_assert_ptr_null(analyzed(g, req, &e));
    ck_assert_int_eq(e.kind, GJ_OVERLOADED);
    ck_assert_ptr_nonnull(strstr(e.message, "refused"));
    /* So is the move, whose whole after passes it too. */
    gj_grant_init(&grant, take, NULL, &t);
    t = (taker){.cap = GJ_GRANT_STEP};
    ck_assert_ptr_null(moved(g, req, 5, &e));
    ck_assert_int_eq(e.kind, GJ_OVERLOADED);
    /* With "diff" the same analysis asks for nothing. */
    gj_grant_init(&grant, take, NULL, &t);
    t = (taker){.cap = 0};
    json_object_set_new(req, "after", json_string("diff"));
    a = analyzed(g, req, &e);
    ck_assert_msg(a != NULL, "%s", e.message);
    json_decref(a);
    ck_assert_int_eq(t.calls, 0);

    /* Small growth is one step, and a grant unbound charges nothing. */
    gj_grant_init(&grant, take, NULL, &t);
    t = (taker){.cap = SIZE_MAX};
    ck_assert_int_eq(gj_grant_grow(10, &e), 0);
    ck_assert_int_eq(gj_grant_grow(GJ_GRANT_STEP - 10, &e), 0);
    ck_assert_int_eq(t.calls, 1);
    ck_assert_int_eq(gj_grant_grow(1, &e), 0);
    ck_assert_int_eq(t.calls, 2);
    ck_assert_uint_eq(t.charged, 2 * GJ_GRANT_STEP);
    gj_grant_bind(NULL);
    ck_assert_int_eq(gj_grant_grow(SIZE_MAX, &e), 0);
    ck_assert_int_eq(t.calls, 2);
    json_decref(req);
}
END_TEST

int main(void)
{
    size_t n;
    games_all(&n);
    Suite *s = suite_create("after");
    harness_add_loop(s, "round trip", test_round_trip, (int)n, 300);
    harness_add_loop(s, "diff", test_diff, (int)n, 60);
    harness_add_loop(s, "refused", test_refused, (int)n, 60);
    harness_add_loop(s, "bound", test_bound, 1, 120);
    harness_add_loop(s, "grant", test_grant, 1, 120);
    return harness_main(s);
}

/* test_moves.c - "moves" in /analyze and /move (play_moves.h), for
 * every game of games.def: a request with moves is answered exactly as the
 * position they lead to, played here with the game's play_move, whichever
 * legal moves they are (the best, the worst, a run along the line); and a
 * move that is not legal, one after the game is over, or a list that is not
 * one, is refused naming moves[k]. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_call.h"
#include "engine.h"
#include "games.h"
#include "harness.h"
#include "line.h"

/* /analyze's answer to the object req, malloc'd text, or NULL with *e. */
static char *analyzed(const gj_game *g, const json_t *req, gj_error *e)
{
    return harness_analyze(g, req, e);
}

/* /move's answer at level 2, seed 5, to req, malloc'd text, or NULL. */
static char *moved(const gj_game *g, const json_t *req, gj_error *e)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    json_t *r = json_deep_copy(req);
    json_object_del(r, "max_moves");
    json_object_set_new(r, "level", json_integer(2));
    json_object_set_new(r, "seed", json_integer(5));
    char *body = json_dumps(r, JSON_COMPACT);
    json_decref(r);
    gj_buf out;
    buf_init(&out);
    gj_error_clear(e);
    int rc = engine_move(g, body, strlen(body), limits, 0, &out, e);
    free(body);
    if (rc != 0) {
        buf_free(&out);
        return NULL;
    }
    buf_putc(&out, '\0');
    return buf_take(&out, NULL);
}

/* req with "moves" set to the list of the given entries' moves. */
static json_t *with_moves(const json_t *req, const json_t *const *entries, int n)
{
    json_t *r = json_deep_copy(req), *list = json_array();
    for (int k = 0; k < n; k++)
        json_array_append(list, json_object_get(entries[k], "move"));
    json_object_set_new(r, "moves", list);
    return r;
}

/* The game's example position, its analysis listing every move. */
static json_t *example(const gj_game *g, json_t **answer)
{
    json_t *req = json_loads(g->example_analyze, 0, NULL);
    ck_assert_ptr_nonnull(req);
    json_object_del(req, "line");
    json_object_del(req, "max_line");
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    gj_error e;
    *answer = analysis_call(g, req, ANALYSIS_MAX_MOVES_LIMIT, limits, &e);
    ck_assert_msg(*answer != NULL, "%s: %s", g->name, e.message);
    return req;
}

/* One move, the best and the worst: answered as the position played here. */
START_TEST(test_one_move)
{
    const gj_game *g = harness_game(_i);
    json_t *a, *req = example(g, &a);
    const json_t *list = json_object_get(a, "moves");
    ck_assert_int_ge(json_array_size(list), 1);
    size_t picks[] = {0, json_array_size(list) - 1};
    for (int k = 0; k < 2; k++) {
        const json_t *entry = json_array_get(list, picks[k]);
        json_t *played = json_deep_copy(req);
        gj_error e;
        ck_assert_int_eq(g->play_move(played, entry, &e), 0);
        json_t *asked = with_moves(req, &entry, 1);
        char *want = analyzed(g, played, &e), *got = analyzed(g, asked, &e);
        ck_assert_msg(got != NULL, "%s: %s", g->name, e.message);
        ck_assert_ptr_nonnull(want);
        ck_assert_str_eq(got, want);
        char *want_move = moved(g, played, &e), *got_move = moved(g, asked, &e);
        /* A position where the game is over has no engine move either way. */
        ck_assert((want_move == NULL) == (got_move == NULL));
        if (want_move != NULL)
            ck_assert_str_eq(got_move, want_move);
        free(want);
        free(got);
        free(want_move);
        free(got_move);
        json_decref(played);
        json_decref(asked);
    }
    json_decref(a);
    json_decref(req);
}
END_TEST

/* A run of moves along the perfect-play line: the same as each step
 * played in turn, until the game ends or five moves are made. */
START_TEST(test_a_run)
{
    const gj_game *g = harness_game(_i);
    json_t *a, *req = example(g, &a);
    json_t *played = json_deep_copy(req);
    const json_t *entries[5];
    json_t *answers[5] = {NULL};
    int n = 0;
    json_t *now = a;
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    while (n < 5 && json_array_size(json_object_get(now, "moves")) > 0) {
        entries[n] = json_array_get(json_object_get(now, "moves"), 0);
        gj_error e;
        ck_assert_int_eq(g->play_move(played, entries[n], &e), 0);
        answers[n] = now;
        n++;
        now = analysis_call(g, played, ANALYSIS_MAX_MOVES_LIMIT, limits, &e);
        ck_assert_ptr_nonnull(now);
    }
    gj_error e;
    json_t *asked = with_moves(req, entries, n);
    char *want = analyzed(g, played, &e), *got = analyzed(g, asked, &e);
    ck_assert_msg(got != NULL, "%s: %s", g->name, e.message);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    json_decref(asked);
    json_decref(now);
    for (int k = 1; k < n; k++)
        json_decref(answers[k]);
    json_decref(played);
    json_decref(a);
    json_decref(req);
}
END_TEST

/* Refusals name the move and why. */
START_TEST(test_refused)
{
    const gj_game *g = harness_game(_i);
    json_t *a, *req = example(g, &a);
    gj_error e;
    static const char *const bad[] = {"[{\"nonsense\": 1}]", "[[0, 0]]", "[99]", "[\"x\"]"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        json_t *r = json_deep_copy(req);
        json_object_set_new(r, "moves", json_loads(bad[k], 0, NULL));
        ck_assert_ptr_null(analyzed(g, r, &e));
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_msg(strcmp(e.field, "moves[0]") == 0, "%s %s: %s (%s)", g->name, bad[k],
                      e.message, e.field);
        ck_assert_ptr_null(moved(g, r, &e));
        ck_assert_str_eq(e.field, "moves[0]");
        json_decref(r);
    }
    /* A legal first move, then one that is not: named at index 1. */
    const json_t *first = json_array_get(json_object_get(a, "moves"), 0);
    json_t *r = with_moves(req, &first, 1);
    json_array_append_new(json_object_get(r, "moves"), json_loads("{\"nonsense\": 1}", 0, NULL));
    ck_assert_ptr_null(analyzed(g, r, &e));
    ck_assert_str_eq(e.field, "moves[1]");
    json_decref(r);
    /* Not a list. */
    r = json_deep_copy(req);
    json_object_set_new(r, "moves", json_integer(3));
    ck_assert_ptr_null(analyzed(g, r, &e));
    ck_assert_str_eq(e.field, "moves");
    json_decref(r);
    json_decref(a);
    json_decref(req);
}
END_TEST

int main(void)
{
    size_t n;
    games_all(&n);
    Suite *s = suite_create("moves");
    harness_add_loop(s, "one move", test_one_move, (int)n, 60);
    harness_add_loop(s, "a run", test_a_run, (int)n, 60);
    harness_add_loop(s, "refused", test_refused, (int)n, 60);
    return harness_main(s);
}

/* test_puzzle.c - the puzzles over HTTP against the real daemon: the flow a
 * site runs for every game (daily or rated puzzle, moves checked one by
 * one, solved or revealed) with the solution in no answer before it is
 * earned; the caching each answer says (a strong tag over its bytes, 304
 * on revalidation, no-store without a seed, today's daily puzzle kept only
 * until midnight UTC); and a check charged to the caller's quota. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "games.h"

static test_daemon server;

/* A search bounded by a count with a minute to spare: found or not by the
 * parameters alone, whatever the machine's load. */
#define BOUNDED "tries=200&budget_ms=60000"

/* GET or POST base+path (body NULL for GET), with optional headers. */
static http_reply request(const char *method, const char *path, const char *body,
                          const char *const *headers)
{
    char url[2048];
    snprintf(url, sizeof url, "%s%s", server.base, path);
    http_call c = {method, url, headers, body, body ? strlen(body) : 0, 0};
    return http_do(&c);
}

/* The JSON body of a 200, failing the test on any other answer. */
static json_t *ok_json(http_reply *r, const char *what)
{
    ck_assert_msg(r->status == 200, "%s: %ld %s", what, r->status, r->body);
    json_t *j = json_loads(r->body, 0, NULL);
    ck_assert_msg(j != NULL, "%s: not JSON: %s", what, r->body);
    return j;
}

/* The whole flow for one game: the daily puzzle, then its id again (the
 * same bytes), a reveal, and the line played move by move. */
START_TEST(test_flow)
{
    size_t n;
    const gj_game *g = games_all(&n)[_i];
    char path[1536];
    snprintf(path, sizeof path, "/puzzle/%s/daily", g->name);
    http_reply daily = request("GET", path, NULL, NULL);
    json_t *shown = ok_json(&daily, path);
    const char *id = json_string_value(json_object_get(shown, "id"));
    long depth = (long)json_integer_value(json_object_get(shown, "depth"));
    ck_assert_ptr_nonnull(id);
    ck_assert(depth >= 1 && depth <= 6);
    ck_assert_ptr_null(json_object_get(shown, "solution"));
    ck_assert_int_ge(json_integer_value(json_object_get(shown, "legal_moves")), 2);

    snprintf(path, sizeof path, "/puzzle/%s/%s", g->name, id);
    http_reply again = request("GET", path, NULL, NULL);
    ck_assert_int_eq(again.status, 200);
    ck_assert_str_eq(again.body, daily.body);

    /* The reveal gives the line; nothing before it named a solving move. */
    snprintf(path, sizeof path, "/puzzle/%s/%s/check", g->name, id);
    http_reply reveal = request("POST", path, "{\"moves\": [], \"reveal\": true}", NULL);
    json_t *answer = ok_json(&reveal, "reveal");
    const json_t *solution = json_object_get(answer, "solution");
    ck_assert_int_eq((long)json_array_size(solution), depth);
    http_reply quiet = request("POST", path, "{\"moves\": []}", NULL);
    ck_assert_int_eq(quiet.status, 200);
    ck_assert_ptr_null(strstr(quiet.body, "solution"));

    /* Played move by move: each correct, the reply and the position after
     * it given while the puzzle goes on, solved at the end, and no answer
     * before the last names a move still to find. */
    json_t *moves = json_array();
    for (long k = 0; k < depth; k++) {
        const json_t *step = json_array_get(solution, (size_t)k);
        json_array_append(moves, json_object_get(step, "move"));
        json_t *body = json_pack("{s:O}", "moves", moves);
        char *text = json_dumps(body, JSON_COMPACT);
        http_reply r = request("POST", path, text, NULL);
        json_t *a = ok_json(&r, text);
        const json_t *last = json_array_get(json_object_get(a, "results"), (size_t)k);
        ck_assert(json_is_true(json_object_get(last, "correct")));
        ck_assert_int_eq(json_is_true(json_object_get(a, "solved")), k + 1 == depth);
        ck_assert_ptr_null(json_object_get(a, "solution"));
        if (k + 1 < depth) {
            ck_assert(json_equal(json_object_get(last, "reply"), json_object_get(step, "reply")));
            ck_assert_ptr_nonnull(json_object_get(last, "position"));
            /* A result holds the move, the verdict, the reply and the
             * position after it: nothing of the moves still to find. */
            ck_assert_int_eq(json_object_size(last), 4);
        }
        json_decref(a);
        json_decref(body);
        free(text);
        http_reply_free(&r);
    }
    /* What a visitor is shown holds these members and no other. */
    static const char *const members[] = {"game",        "id",    "position",   "to_move",
                                          "legal_moves", "depth", "difficulty", "band"};
    ck_assert_int_eq(json_object_size(shown), 9);
    for (size_t m = 0; m < 8; m++)
        ck_assert_ptr_nonnull(json_object_get(shown, members[m]));
    json_decref(moves);
    json_decref(answer);
    json_decref(shown);
    http_reply_free(&quiet);
    http_reply_free(&reveal);
    http_reply_free(&again);
    http_reply_free(&daily);
}
END_TEST

/* Caching: a seeded puzzle has a strong tag over its bytes and a 304 on
 * revalidation; the same without a seed is no-store and untagged; the
 * daily puzzle without a date is kept at most until midnight UTC, with a
 * date for the usual --cache-max-age. */
START_TEST(test_caching)
{
    http_reply r = request("GET", "/puzzle/nim-shortcuts?seed=11&depth=2&" BOUNDED, NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    char *etag = http_header(&r, "ETag");
    char *control = http_header(&r, "Cache-Control");
    ck_assert_ptr_nonnull(etag);
    ck_assert(etag[0] == '"');
    ck_assert_str_eq(control, "public, max-age=86400");
    char inm[128];
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    const char *const headers[] = {inm, NULL};
    http_reply again =
        request("GET", "/puzzle/nim-shortcuts?depth=2&seed=11&" BOUNDED, NULL, headers);
    ck_assert_int_eq(again.status, 304);
    http_reply other = request("GET", "/puzzle/nim-shortcuts?seed=12&" BOUNDED, NULL, headers);
    ck_assert_int_eq(other.status, 200);
    char *other_tag = http_header(&other, "ETag");
    ck_assert_str_ne(other_tag, etag);

    http_reply fresh = request("GET", "/puzzle/nim-shortcuts?" BOUNDED, NULL, NULL);
    ck_assert_int_eq(fresh.status, 200);
    char *fresh_control = http_header(&fresh, "Cache-Control");
    ck_assert_str_eq(fresh_control, "no-store");
    ck_assert_ptr_null(http_header(&fresh, "ETag"));

    http_reply today = request("GET", "/puzzle/matrix-game/daily", NULL, NULL);
    ck_assert_int_eq(today.status, 200);
    char *today_control = http_header(&today, "Cache-Control");
    long age = -1;
    ck_assert_int_eq(sscanf(today_control, "public, max-age=%ld", &age), 1);
    ck_assert(age >= 1 && age <= 86400);
    http_reply dated = request("GET", "/puzzle/matrix-game/daily?date=2026-06-01", NULL, NULL);
    ck_assert_int_eq(dated.status, 200);
    char *dated_control = http_header(&dated, "Cache-Control");
    ck_assert_str_eq(dated_control, "public, max-age=86400");
    /* A POST check is never kept. */
    http_reply check = request("POST", "/puzzle/matrix-game/1.x.0/check", "{}", NULL);
    ck_assert_int_eq(check.status, 400);
    char *check_control = http_header(&check, "Cache-Control");
    ck_assert_str_eq(check_control, "no-store");
    free(check_control);
    free(dated_control);
    free(today_control);
    free(fresh_control);
    free(other_tag);
    free(control);
    free(etag);
    http_reply_free(&check);
    http_reply_free(&dated);
    http_reply_free(&today);
    http_reply_free(&fresh);
    http_reply_free(&other);
    http_reply_free(&again);
    http_reply_free(&r);
}
END_TEST

/* A rated request over HTTP: the band asked for is the band answered, and
 * the same seed gives the same puzzle. */
START_TEST(test_band_over_http)
{
    http_reply a =
        request("GET", "/puzzle/matrix-game?seed=3&band=hard&depth=2&" BOUNDED, NULL, NULL);
    json_t *p = ok_json(&a, "hard");
    ck_assert_str_eq(json_string_value(json_object_get(p, "band")), "hard");
    ck_assert(json_real_value(json_object_get(p, "difficulty")) >= 0.5);
    http_reply b =
        request("GET", "/puzzle/matrix-game?band=hard&" BOUNDED "&seed=3&depth=2", NULL, NULL);
    ck_assert_str_eq(a.body, b.body);
    json_decref(p);
    http_reply_free(&a);
    http_reply_free(&b);
}
END_TEST

/* With tries, the budget changes nothing but whether the answer is known
 * in time: the same seeded request gives the same bytes (or the same 422)
 * with the default budget and with a minute, or a 503 to retry. */
START_TEST(test_tries_over_http)
{
    static const char *const asks[] = {
        "/puzzle/grid-walk?seed=4&depth=2&tries=30",
        "/puzzle/matrix-game?seed=6&band=easy&depth=2&tries=25",
        "/puzzle/staircase-chess?seed=2&depth=2&difficulty_min=0.6&tries=6",
    };
    for (size_t k = 0; k < sizeof asks / sizeof asks[0]; k++) {
        char slow[256];
        snprintf(slow, sizeof slow, "%s&budget_ms=60000", asks[k]);
        http_reply a = request("GET", asks[k], NULL, NULL);
        http_reply b = request("GET", slow, NULL, NULL);
        ck_assert_msg(b.status == 200 || b.status == 422, "%s: %ld %s", slow, b.status, b.body);
        if (a.status == 503)
            ck_assert_msg(strstr(a.body, "retry") != NULL, "%s: %s", asks[k], a.body);
        else {
            ck_assert_msg(a.status == b.status, "%s: %ld then %ld", asks[k], a.status, b.status);
            if (b.status == 200)
                ck_assert_str_eq(a.body, b.body);
        }
        if (b.status == 422) {
            const char *count = strstr(asks[k], "tries=") + 6;
            char want[64];
            snprintf(want, sizeof want, "within tries %ld (%ld candidates", atol(count),
                     atol(count));
            ck_assert_msg(strstr(b.body, want) != NULL, "%s: %s", slow, b.body);
        }
        http_reply_free(&a);
        http_reply_free(&b);
    }
}
END_TEST

/* One daemon for the suite, its generation ceiling high enough for a
 * minute's budget. */
static void start_server(void)
{
    static const char *const args[] = {"--generate-budget-ms", "60000", NULL};
    daemon_start(&server, args);
}

/* Stop it by its PID. */
static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

int main(void)
{
    size_t n;
    games_all(&n);
    Suite *s = suite_create("puzzle");
    TCase *tc = tcase_create("flow");
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_flow, 0, (int)n);
    tcase_add_test(tc, test_caching);
    tcase_add_test(tc, test_band_over_http);
    tcase_add_test(tc, test_tries_over_http);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

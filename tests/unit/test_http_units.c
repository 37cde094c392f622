/* test_http_units.c - the pure parts of the HTTP layer: routing, content
 * negotiation and error rendering. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "http_error.h"
#include "media.h"
#include "endpoints.h"
#include "routes.h"

/* handler: the row the path matched, also with the wrong method; NULL
 * where the path names no endpoint (then the match has no row) or no game. */
static const struct {
    const char *method, *path;
    gj_error_kind error;
    job_handler handler; /* the row matched, NULL when none */
    const char *game, *allow;
} routes[] = {
    {"POST", "/solve/grid-walk", GJ_OK, endpoint_solve, "grid-walk", "GET, HEAD, POST"},
    {"POST", "/solve/staircase-chess", GJ_OK, endpoint_solve, "staircase-chess", "GET, HEAD, POST"},
    {"GET", "/solve/grid-walk", GJ_OK, endpoint_solve, "grid-walk", "GET, HEAD, POST"},
    {"PUT", "/solve/grid-walk", GJ_BAD_METHOD, endpoint_solve, "grid-walk", "GET, HEAD, POST"},
    {"POST", "/solve/chess", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"GET", "/solve/chess", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"POST", "/solve/", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"POST", "/solve/grid-walk/x", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"GET", "/games", GJ_OK, pages_games, NULL, "GET, HEAD"},
    {"HEAD", "/games", GJ_OK, pages_games, NULL, "GET, HEAD"},
    {"POST", "/games", GJ_BAD_METHOD, pages_games, NULL, "GET, HEAD"},
    {"GET", "/healthz", GJ_OK, pages_health, NULL, "GET, HEAD"},
    {"GET", "/openapi.yaml", GJ_OK, pages_spec, NULL, "GET, HEAD"},
    {"GET", "/docs", GJ_OK, pages_docs, NULL, "GET, HEAD"},
    {"PUT", "/docs", GJ_BAD_METHOD, pages_docs, NULL, "GET, HEAD"},
    {"GET", "/readyz", GJ_OK, pages_ready, NULL, "GET, HEAD"},
    {"GET", "/metrics", GJ_OK, pages_metrics, NULL, "GET, HEAD"},
    {"POST", "/metrics", GJ_BAD_METHOD, pages_metrics, NULL, "GET, HEAD"},
    {"GET", "/", GJ_OK, pages_playground, NULL, "GET, HEAD"},
    {"POST", "/", GJ_BAD_METHOD, pages_playground, NULL, "GET, HEAD"},
    {"GET", "//", GJ_NOT_FOUND, NULL, NULL, NULL},
    {"POST", "/analyze/grid-walk", GJ_OK, endpoint_analyze, "grid-walk", "GET, HEAD, POST"},
    {"GET", "/analyze/grid-walk", GJ_OK, endpoint_analyze, "grid-walk", "GET, HEAD, POST"},
    {"DELETE", "/analyze/grid-walk", GJ_BAD_METHOD, endpoint_analyze, "grid-walk",
     "GET, HEAD, POST"},
    {"POST", "/analyze/chess", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"POST", "/judge/nim-shortcuts", GJ_OK, endpoint_judge, "nim-shortcuts", "POST"},
    {"POST", "/judge/", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"POST", "/generate/staircase-chess", GJ_OK, endpoint_generate, "staircase-chess", "POST"},
    {"GET", "/generate/grid-walk", GJ_BAD_METHOD, endpoint_generate, "grid-walk", "POST"},
    {"POST", "/generate/chess", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"POST", "/batch", GJ_OK, endpoint_batch, NULL, "POST"},
    {"GET", "/batch", GJ_BAD_METHOD, endpoint_batch, NULL, "POST"},
    {"POST", "/batch/", GJ_NOT_FOUND, NULL, NULL, NULL},
    {"GET", "/games/", GJ_NOT_FOUND, NULL, NULL, NULL},
    {"GET", "/GAMES", GJ_NOT_FOUND, NULL, NULL, NULL},
    {"BREW", "/nothing", GJ_NOT_FOUND, NULL, NULL, NULL},
    /* The pictures: after the game at once for a position, after an id for
     * a puzzle; the game's name is what stands between. */
    {"GET", "/analyze/grid-walk/image.svg", GJ_OK, endpoint_analyze_picture, "grid-walk",
     "GET, HEAD"},
    {"HEAD", "/analyze/nim-shortcuts/image.svg", GJ_OK, endpoint_analyze_picture, "nim-shortcuts",
     "GET, HEAD"},
    {"POST", "/analyze/grid-walk/image.svg", GJ_BAD_METHOD, endpoint_analyze_picture, "grid-walk",
     "GET, HEAD"},
    {"GET", "/analyze/chess/image.svg", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"GET", "/analyze/grid-walk/x/image.svg", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"GET", "/analyze/image.svg", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"GET", "/puzzle/matrix-game/2.abc.0123abcd/image.svg", GJ_OK, endpoint_puzzle_picture,
     "matrix-game", "GET, HEAD"},
    {"POST", "/puzzle/matrix-game/2.abc.0123abcd/image.svg", GJ_BAD_METHOD, endpoint_puzzle_picture,
     "matrix-game", "GET, HEAD"},
    {"GET", "/puzzle/chess/2.abc.0123abcd/image.svg", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"GET", "/puzzle/matrix-game/image.svg", GJ_OK, endpoint_puzzle, "matrix-game", "GET, HEAD"},
    {"POST", "/puzzle/matrix-game/2.abc.0123abcd/check", GJ_OK, endpoint_puzzle_check,
     "matrix-game", "POST"},
    /* The store's: a game's next and a puzzle's stats, a player's pages. */
    {"GET", "/puzzle/grid-walk/next", GJ_OK, endpoint_puzzle_next, "grid-walk", "GET, HEAD"},
    {"POST", "/puzzle/grid-walk/next", GJ_BAD_METHOD, endpoint_puzzle_next, "grid-walk",
     "GET, HEAD"},
    {"GET", "/puzzle/chess/next", GJ_UNKNOWN_GAME, NULL, NULL, NULL},
    {"GET", "/puzzle/grid-walk/2.abc.0123abcd/stats", GJ_OK, endpoint_puzzle_stats, "grid-walk",
     "GET, HEAD"},
    {"HEAD", "/puzzle/grid-walk/2.abc.0123abcd/stats", GJ_OK, endpoint_puzzle_stats, "grid-walk",
     "GET, HEAD"},
    {"GET", "/players/ada/activity", GJ_OK, endpoint_player_activity, NULL, "GET, HEAD"},
    {"POST", "/players/ada/activity", GJ_BAD_METHOD, endpoint_player_activity, NULL, "GET, HEAD"},
    {"GET", "/players/ada@site:7/dashboard", GJ_OK, endpoint_player_dashboard, NULL, "GET, HEAD"},
    {"GET", "/players//activity", GJ_NOT_FOUND, NULL, NULL, NULL},
    {"GET", "/players/a/b/activity", GJ_NOT_FOUND, NULL, NULL, NULL},
    {"GET", "/players/ada", GJ_NOT_FOUND, NULL, NULL, NULL},
    {"GET", "/players/ada/activity/", GJ_NOT_FOUND, NULL, NULL, NULL},
    {"GET", "/players/", GJ_NOT_FOUND, NULL, NULL, NULL},
};

/* A player's page keeps the player it names, and a puzzle's stats its id. */
START_TEST(test_store_args)
{
    route_match m;
    routes_match("GET", "/players/ada@site:7/dashboard", &m);
    ck_assert_int_eq(m.error.kind, GJ_OK);
    ck_assert_str_eq(m.arg, "ada@site:7");
    ck_assert_ptr_null(m.game);
    routes_match("GET", "/puzzle/nim-shortcuts/2.abc.0123abcd/stats", &m);
    ck_assert_str_eq(m.arg, "2.abc.0123abcd");
    ck_assert_int_eq(m.row->cacheable, 1);
    routes_match("GET", "/puzzle/nim-shortcuts/next", &m);
    ck_assert_str_eq(m.arg, "");
    ck_assert_int_eq(m.row->cacheable, 0);
    /* Longer than a match keeps: refused, never cut. */
    char path[ROUTE_ARG_MAX + 64];
    memset(path, 'a', sizeof path);
    memcpy(path, "/players/", 9);
    snprintf(path + ROUTE_ARG_MAX + 20, 44, "/activity");
    routes_match("GET", path, &m);
    ck_assert_int_eq(m.error.kind, GJ_URI_TOO_LONG);
}
END_TEST

/* A picture's match keeps the id it names, and only it. */
START_TEST(test_picture_args)
{
    route_match m;
    routes_match("GET", "/puzzle/grid-walk/2.abc.0123abcd/image.svg", &m);
    ck_assert_int_eq(m.error.kind, GJ_OK);
    ck_assert_str_eq(m.arg, "2.abc.0123abcd");
    ck_assert_int_eq(m.row->nosniff, 1);
    ck_assert_str_eq(m.row->csp, "default-src 'none'");
    routes_match("GET", "/analyze/grid-walk/image.svg", &m);
    ck_assert_int_eq(m.error.kind, GJ_OK);
    ck_assert_str_eq(m.arg, "");
    ck_assert_int_eq(m.row->nosniff, 1);
    /* An unknown game is named as sent, not as the picture's file. */
    routes_match("GET", "/analyze/chess/image.svg", &m);
    ck_assert_ptr_nonnull(strstr(m.error.message, "unknown game 'chess'"));
    /* No other row says nosniff. */
    routes_match("GET", "/analyze/grid-walk", &m);
    ck_assert_int_eq(m.row->nosniff, 0);
}
END_TEST

START_TEST(test_route_table)
{
    route_match m;
    routes_match(routes[_i].method, routes[_i].path, &m);
    ck_assert_msg(m.error.kind == routes[_i].error, "%s %s: error kind %d", routes[_i].method,
                  routes[_i].path, m.error.kind);
    ck_assert_msg(m.error.kind == GJ_OK || m.error.message[0] != '\0', "%s %s: no message",
                  routes[_i].method, routes[_i].path);
    if (routes[_i].handler != NULL) {
        ck_assert_ptr_nonnull(m.row);
        ck_assert_msg(m.row->handler == routes[_i].handler, "%s %s: another handler",
                      routes[_i].method, routes[_i].path);
        /* A body or an answer to make (a cacheable GET: a puzzle, a
         * picture; a GET that reads parameters or the store) goes to the
         * pool; everything else stays on the I/O thread. */
        bool made =
            strstr(m.row->allow, "POST") != NULL || m.row->cacheable || m.row->query != QUERY_NONE;
        ck_assert_int_eq(m.row->lane, made ? LANE_POOL : LANE_IO);
        /* Only the pool rows may take their body from a GET's query. */
        ck_assert(m.row->query == QUERY_NONE || m.row->lane == LANE_POOL);
    } else if (routes[_i].error == GJ_NOT_FOUND) {
        ck_assert_ptr_null(m.row);
    }
    if (routes[_i].game)
        ck_assert_str_eq(m.game->name, routes[_i].game);
    if (routes[_i].allow)
        ck_assert_str_eq(m.row->allow, routes[_i].allow);
}
END_TEST

START_TEST(test_media_input)
{
    media_kind k;
    ck_assert_int_eq(media_input(NULL, &k), 0);
    ck_assert_int_eq(k, MEDIA_TEXT);
    ck_assert_int_eq(media_input("", &k), 0);
    ck_assert_int_eq(k, MEDIA_TEXT);
    ck_assert_int_eq(media_input("text/plain; charset=utf-8", &k), 0);
    ck_assert_int_eq(k, MEDIA_TEXT);
    ck_assert_int_eq(media_input("application/x-www-form-urlencoded", &k), 0);
    ck_assert_int_eq(k, MEDIA_TEXT);
    ck_assert_int_eq(media_input("Application/JSON ; charset=UTF-8", &k), 0);
    ck_assert_int_eq(k, MEDIA_JSON);
    ck_assert_int_eq(media_input("application/jsonx", &k), -1);
    ck_assert_int_eq(media_input("text/html", &k), -1);
    ck_assert_int_eq(media_input("multipart/form-data; boundary=x", &k), -1);
}
END_TEST

static media_kind negotiate(const char *format, const char *accept)
{
    media_kind k = MEDIA_JSON;
    gj_error e;
    ck_assert_int_eq(media_output(format, accept, &k, &e), 0);
    return k;
}

START_TEST(test_media_output)
{
    ck_assert_int_eq(negotiate(NULL, NULL), MEDIA_JSON);
    ck_assert_int_eq(negotiate(NULL, "*/*"), MEDIA_JSON);
    ck_assert_int_eq(negotiate(NULL, "text/plain"), MEDIA_TEXT);
    ck_assert_int_eq(negotiate(NULL, "text/*"), MEDIA_TEXT);
    ck_assert_int_eq(negotiate(NULL, "application/json"), MEDIA_JSON);
    ck_assert_int_eq(negotiate(NULL, "text/plain;q=0.4, application/json"), MEDIA_JSON);
    ck_assert_int_eq(negotiate(NULL, "application/json;q=0.4, text/plain"), MEDIA_TEXT);
    ck_assert_int_eq(negotiate(NULL, "text/html,application/xhtml+xml,*/*;q=0.8"), MEDIA_JSON);
    ck_assert_int_eq(negotiate(NULL, "text/plain, */*;q=0.1"), MEDIA_TEXT);
    ck_assert_int_eq(negotiate(NULL, "image/png"), MEDIA_JSON); /* nothing fits: the default */
    ck_assert_int_eq(negotiate("text", "application/json"), MEDIA_TEXT);
    ck_assert_int_eq(negotiate("json", "text/plain"), MEDIA_JSON);

    media_kind k;
    gj_error e;
    ck_assert_int_eq(media_output("xml", NULL, &k, &e), -1);
    ck_assert_str_eq(e.field, "format");
    ck_assert_str_eq(e.message, "format: expected 'json' or 'text', found 'xml'");
}
END_TEST

START_TEST(test_error_render)
{
    gj_error e;
    gj_fail_at(&e, 3, 7, "expected %s, found '%s'", "a cell", "?");
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT); /* the code below comes from the error itself */
    size_t len;
    char *body = http_error_render(&e, "abc", &len);
    ck_assert_uint_eq(len, strlen(body));
    json_t *j = json_loads(body, 0, NULL), *err = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(err, "code")), "bad_input");
    ck_assert_str_eq(json_string_value(json_object_get(err, "message")),
                     "line 3, column 7: expected a cell, found '?'");
    ck_assert_int_eq(json_integer_value(json_object_get(err, "line")), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(err, "column")), 7);
    ck_assert_ptr_null(json_object_get(err, "field"));
    ck_assert_str_eq(json_string_value(json_object_get(err, "request_id")), "abc");
    json_decref(j);
    free(body);

    /* Invalid UTF-8 in a message must still give valid JSON. */
    gj_fail_field(&e, "grid[0]", "bad byte \xe2\x80 here \xff");
    body = http_error_render(&e, NULL, &len);
    j = json_loads(body, 0, NULL);
    ck_assert_ptr_nonnull(j);
    err = json_object_get(j, "error");
    ck_assert_str_eq(json_string_value(json_object_get(err, "field")), "grid[0]");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(err, "message")), "here ?"));
    json_decref(j);
    free(body);
}
END_TEST

START_TEST(test_status_codes)
{
    static const struct {
        gj_error_kind which;
        int status;
        const char *code;
    } table[] = {
        {GJ_BAD_INPUT, 400, "bad_input"},
        {GJ_UNKNOWN_GAME, 404, "unknown_game"},
        {GJ_NOT_FOUND, 404, "not_found"},
        {GJ_BAD_METHOD, 405, "method_not_allowed"},
        {GJ_TOO_LARGE, 413, "too_large"},
        {GJ_UNSUPPORTED, 415, "unsupported_media_type"},
        {GJ_OVERLOADED, 503, "overloaded"},
        {GJ_INTERNAL, 500, "internal"},
        {GJ_NO_MEMORY, 500, "internal"},
        {GJ_OK, 200, "ok"},
        {GJ_PRECONDITION, 412, "precondition_failed"},
        {GJ_UNAVAILABLE, 503, "unavailable"},
        {GJ_CONFLICT, 409, "conflict"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        ck_assert_int_eq(http_error_status(table[i].which), table[i].status);
        ck_assert_str_eq(http_error_code(table[i].which), table[i].code);
    }
    /* A kind out of range is a bug: answered as internal, never read past the table. */
    ck_assert_int_eq(http_error_status((gj_error_kind)99), 500);
    /* Every kind has its row: a designated initializer left out would be
     * a zero row, which the size check at compile time cannot see. */
    for (int k = 0; k < GJ_ERROR_KINDS; k++) {
        ck_assert_msg(http_error_code((gj_error_kind)k) != NULL, "kind %d has no row", k);
        int st = http_error_status((gj_error_kind)k);
        ck_assert_msg(k == GJ_OK ? st == 200 : st >= 400 && st <= 599, "kind %d: %d", k, st);
    }
}
END_TEST

/* The 404 names every path of the table, from the table itself. */
START_TEST(test_not_found_lists_the_table)
{
    route_match m;
    routes_match("GET", "/nope", &m);
    ck_assert_int_eq(m.error.kind, GJ_NOT_FOUND);
    size_t n;
    const route_row *rows = routes_table(&n);
    for (size_t i = 0; i < n; i++) {
        char want[64];
        snprintf(want, sizeof want, " %s%s", rows[i].path, rows[i].per_game ? "<game>" : "");
        ck_assert_msg(strstr(m.error.message, want) != NULL, "%s missing from: %s", want,
                      m.error.message);
    }
    /* Whole, however long the path asked: the list fits the message. */
    char path[300];
    memset(path, 'x', sizeof path - 1);
    path[0] = '/';
    path[sizeof path - 1] = '\0';
    routes_match("GET", path, &m);
    size_t len = strlen(m.error.message);
    ck_assert_msg(len > 24 && strcmp(m.error.message + len - 24, "GET / is the playground)") == 0,
                  "cut: %s", m.error.message);
}
END_TEST

/* The statuses the metrics count: every kind's and the answers' that are
 * no error, ascending, each once. */
START_TEST(test_statuses_listed)
{
    int st[HTTP_STATUSES_MAX];
    size_t n = http_error_statuses(st, HTTP_STATUSES_MAX);
    for (size_t i = 1; i < n; i++)
        ck_assert_int_lt(st[i - 1], st[i]);
    static const int want[] = {200, 204, 304, 400, 401, 404, 405, 409,
                               412, 413, 414, 415, 422, 429, 500, 503};
    ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(st[i], want[i]);
    for (int k = 0; k < GJ_ERROR_KINDS; k++) {
        int found = 0;
        for (size_t i = 0; i < n; i++)
            found |= st[i] == http_error_status((gj_error_kind)k);
        ck_assert_msg(found, "kind %d's status is not listed", k);
    }
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *http_units_suite(void)
{
    const harness_case cases[] = {
        {"units", test_media_input},     {"units", test_media_output},
        {"units", test_error_render},    {"units", test_status_codes},
        {"units", test_statuses_listed}, {"units", test_not_found_lists_the_table},
        {"units", test_picture_args},    {"units", test_store_args},
    };
    Suite *s = harness_suite("http units", cases, sizeof cases / sizeof cases[0], 0);
    harness_add_loop(s, "units", test_route_table, (int)(sizeof routes / sizeof routes[0]), 0);
    return s;
}

int main(void)
{
    return harness_main(http_units_suite());
}

/* test_http_units.c - the pure parts of the HTTP layer: routing, content
 * negotiation and error rendering. */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "errors.h"
#include "media.h"
#include "route.h"

static const struct {
    const char *method, *path;
    route_kind kind;
    const char *game, *allow;
} routes[] = {
    {"POST", "/solve/grid-walk", ROUTE_SOLVE, "grid-walk", "POST"},
    {"POST", "/solve/staircase-chess", ROUTE_SOLVE, "staircase-chess", "POST"},
    {"GET", "/solve/grid-walk", ROUTE_BAD_METHOD, "grid-walk", "POST"},
    {"POST", "/solve/chess", ROUTE_UNKNOWN_GAME, NULL, NULL},
    {"GET", "/solve/chess", ROUTE_UNKNOWN_GAME, NULL, NULL},
    {"POST", "/solve/", ROUTE_UNKNOWN_GAME, NULL, NULL},
    {"POST", "/solve/grid-walk/x", ROUTE_UNKNOWN_GAME, NULL, NULL},
    {"GET", "/games", ROUTE_GAMES, NULL, "GET, HEAD"},
    {"HEAD", "/games", ROUTE_GAMES, NULL, "GET, HEAD"},
    {"POST", "/games", ROUTE_BAD_METHOD, NULL, "GET, HEAD"},
    {"GET", "/healthz", ROUTE_HEALTH, NULL, "GET, HEAD"},
    {"GET", "/openapi.yaml", ROUTE_SPEC, NULL, "GET, HEAD"},
    {"GET", "/docs", ROUTE_DOCS, NULL, "GET, HEAD"},
    {"PUT", "/docs", ROUTE_BAD_METHOD, NULL, "GET, HEAD"},
    {"GET", "/readyz", ROUTE_READY, NULL, "GET, HEAD"},
    {"GET", "/metrics", ROUTE_METRICS, NULL, "GET, HEAD"},
    {"POST", "/metrics", ROUTE_BAD_METHOD, NULL, "GET, HEAD"},
    {"GET", "/", ROUTE_PLAYGROUND, NULL, "GET, HEAD"},
    {"POST", "/", ROUTE_BAD_METHOD, NULL, "GET, HEAD"},
    {"GET", "//", ROUTE_NOT_FOUND, NULL, NULL},
    {"POST", "/analyze/grid-walk", ROUTE_ANALYZE, "grid-walk", "POST"},
    {"GET", "/analyze/grid-walk", ROUTE_BAD_METHOD, "grid-walk", "POST"},
    {"POST", "/analyze/chess", ROUTE_UNKNOWN_GAME, NULL, NULL},
    {"POST", "/judge/nim-shortcuts", ROUTE_JUDGE, "nim-shortcuts", "POST"},
    {"POST", "/judge/", ROUTE_UNKNOWN_GAME, NULL, NULL},
    {"POST", "/batch", ROUTE_BATCH, NULL, "POST"},
    {"GET", "/batch", ROUTE_BAD_METHOD, NULL, "POST"},
    {"POST", "/batch/", ROUTE_NOT_FOUND, NULL, NULL},
    {"GET", "/games/", ROUTE_NOT_FOUND, NULL, NULL},
    {"GET", "/GAMES", ROUTE_NOT_FOUND, NULL, NULL},
    {"BREW", "/nothing", ROUTE_NOT_FOUND, NULL, NULL},
};

START_TEST(test_route_table)
{
    route r = route_match(routes[_i].method, routes[_i].path);
    ck_assert_msg(r.kind == routes[_i].kind, "%s %s: kind %d", routes[_i].method, routes[_i].path,
                  r.kind);
    if (routes[_i].game)
        ck_assert_str_eq(r.game->name, routes[_i].game);
    if (routes[_i].allow)
        ck_assert_str_eq(r.allow, routes[_i].allow);
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
    size_t len;
    char *body = errors_render(API_BAD_INPUT, &e, "abc", &len);
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
    body = errors_render(API_BAD_INPUT, &e, NULL, &len);
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
        api_error which;
        int status;
        const char *code;
    } table[] = {
        {API_BAD_INPUT, 400, "bad_input"},   {API_UNKNOWN_GAME, 404, "unknown_game"},
        {API_NOT_FOUND, 404, "not_found"},   {API_BAD_METHOD, 405, "method_not_allowed"},
        {API_TOO_LARGE, 413, "too_large"},   {API_UNSUPPORTED, 415, "unsupported_media_type"},
        {API_OVERLOADED, 503, "overloaded"}, {API_INTERNAL, 500, "internal"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        ck_assert_int_eq(errors_status(table[i].which), table[i].status);
        ck_assert_str_eq(errors_code(table[i].which), table[i].code);
    }
    ck_assert_int_eq(errors_from_kind(GJ_BAD_INPUT), API_BAD_INPUT);
    ck_assert_int_eq(errors_from_kind(GJ_NO_MEMORY), API_INTERNAL);
    ck_assert_int_eq(errors_from_kind(GJ_INTERNAL), API_INTERNAL);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *http_units_suite(void)
{
    const harness_case cases[] = {
        {"units", test_media_input},
        {"units", test_media_output},
        {"units", test_error_render},
        {"units", test_status_codes},
    };
    Suite *s = harness_suite("http units", cases, sizeof cases / sizeof cases[0], 0);
    harness_add_loop(s, "units", test_route_table, (int)(sizeof routes / sizeof routes[0]), 0);
    return s;
}

int main(void)
{
    return harness_main(http_units_suite());
}

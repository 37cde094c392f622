/* test_cors.c - the CORS policy (cors.h): which origins a list accepts,
 * which requests get which headers, and routes_restrict's split of the
 * routes between the public and the admin listener. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "cors.h"
#include "harness.h"
#include "routes.h"

static const char *const good_origins[] = {
    "https://puzzles.example",   "http://127.0.0.1:3000", "http://localhost",
    "https://a-b.example:65535", "http://[::1]:8080",     "https://xn--bcher-kva.example",
};

static const char *const bad_origins[] = {
    "puzzles.example",
    "https://",
    "https://a.example/",
    "https://a.example/page",
    "HTTPS://a.example",
    "https://A.example",
    "ftp://a.example",
    "https://a.example:",
    "https://a.example:0",
    "https://a.example:65536",
    "https://a.example:80a",
    "https://.example",
    "https://a.example.",
    "https://a.example?x",
    "*",
    "null",
    "https://[::1",
    "https://user@a.example",
};

/* Each listed origin alone is a valid list. */
START_TEST(test_good_origins)
{
    gj_error e;
    ck_assert_msg(cors_check_list(good_origins[_i], "--cors-origins", &e) == 0, "%s: %s",
                  good_origins[_i], e.message);
}
END_TEST

/* Each is refused, naming the flag and the item. */
START_TEST(test_bad_origins)
{
    gj_error e;
    gj_error_clear(&e);
    ck_assert_int_eq(cors_check_list(bad_origins[_i], "GAMEJUDGE_CORS_ORIGINS", &e), -1);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    char want[160];
    snprintf(want, sizeof want, "GAMEJUDGE_CORS_ORIGINS: '%s' is not an origin", bad_origins[_i]);
    ck_assert_msg(strncmp(e.message, want, strlen(want)) == 0, "got '%s'", e.message);
}
END_TEST

/* Lists: empty is off; an empty item anywhere or a bad one after good ones
 * is refused, naming that item. */
START_TEST(test_lists)
{
    gj_error e;
    ck_assert_int_eq(cors_check_list("", "x", &e), 0);
    ck_assert_int_eq(cors_check_list("https://a.example,http://127.0.0.1:9", "x", &e), 0);
    ck_assert_int_eq(cors_check_list("https://a.example,,https://b.example", "x", &e), -1);
    ck_assert_int_eq(strncmp(e.message, "x: '' is not an origin", 22), 0);
    ck_assert_int_eq(cors_check_list(",https://a.example", "x", &e), -1);
    ck_assert_int_eq(cors_check_list("https://a.example,https://b.example/", "x", &e), -1);
    ck_assert_int_eq(strncmp(e.message, "x: 'https://b.example/' is not", 30), 0);
}
END_TEST

/* Matching is exact: no prefix, suffix, case folding or default port. */
START_TEST(test_allowed)
{
    const char *list = "https://a.example,http://127.0.0.1:3000";
    ck_assert_int_eq(cors_allowed(list, "https://a.example"), 1);
    ck_assert_int_eq(cors_allowed(list, "http://127.0.0.1:3000"), 1);
    ck_assert_int_eq(cors_allowed(list, "https://a.exampl"), 0);
    ck_assert_int_eq(cors_allowed(list, "https://a.example.evil"), 0);
    ck_assert_int_eq(cors_allowed(list, "https://a.example:443"), 0);
    ck_assert_int_eq(cors_allowed(list, "http://a.example"), 0);
    ck_assert_int_eq(cors_allowed(list, "HTTPS://A.EXAMPLE"), 0);
    ck_assert_int_eq(cors_allowed(list, "http://127.0.0.1:300"), 0);
    ck_assert_int_eq(cors_allowed(list, "https://a.example,http://127.0.0.1:3000"), 0);
    ck_assert_int_eq(cors_allowed(list, ""), 0);
    ck_assert_int_eq(cors_allowed(list, NULL), 0);
    ck_assert_int_eq(cors_allowed("", "https://a.example"), 0);
}
END_TEST

/* The value of header `name` among hs[0..n), or NULL. */
static const char *header(const cors_header *hs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(hs[i].name, name) == 0)
            return hs[i].value;
    return NULL;
}

/* Off: nothing.  On: Vary on every answer; the origin and the exposed
 * headers for a listed origin; the methods, headers and age on a
 * preflight; no Access-Control-* header for any other origin. */
START_TEST(test_headers)
{
    cors_header hs[CORS_MAX_HEADERS];
    const char *list = "https://a.example";
    ck_assert_uint_eq(cors_headers("", "https://a.example", NULL, hs), 0);
    ck_assert_uint_eq(cors_headers("", "https://a.example", "POST", hs), 0);

    size_t n = cors_headers(list, "https://a.example", NULL, hs);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(header(hs, n, "Vary"), "Origin");
    ck_assert_str_eq(header(hs, n, "Access-Control-Allow-Origin"), "https://a.example");
    ck_assert_str_eq(header(hs, n, "Access-Control-Expose-Headers"),
                     "X-Request-Id, X-Cache, ETag, Retry-After, RateLimit, RateLimit-Policy");
    ck_assert_ptr_null(header(hs, n, "Access-Control-Allow-Methods"));

    n = cors_headers(list, "https://a.example", "GET, HEAD", hs);
    ck_assert_uint_eq(n, 5);
    ck_assert_str_eq(header(hs, n, "Access-Control-Allow-Origin"), "https://a.example");
    ck_assert_str_eq(header(hs, n, "Access-Control-Allow-Methods"), "GET, HEAD");
    ck_assert_str_eq(header(hs, n, "Access-Control-Allow-Headers"),
                     "Content-Type, Accept, X-Request-Id, If-None-Match, X-Api-Key");
    ck_assert_str_eq(header(hs, n, "Access-Control-Max-Age"), "600");

    const char *others[] = {"https://b.example", NULL, ""};
    for (size_t i = 0; i < 3; i++)
        for (int pre = 0; pre < 2; pre++) {
            n = cors_headers(list, others[i], pre ? "POST" : NULL, hs);
            ck_assert_uint_eq(n, 1);
            ck_assert_str_eq(hs[0].name, "Vary");
        }
}
END_TEST

/* The route rows each listener serves: without an admin listener, every
 * row on the one port; with one, /metrics only there, the probes on both,
 * the API and pages only on the public port. */
START_TEST(test_listeners)
{
    static const struct {
        const char *path;
        int public_ok, admin_ok;
    } rows[] = {
        {"/metrics", 0, 1}, {"/healthz", 1, 1}, {"/readyz", 1, 1}, {"/solve/grid-walk", 1, 0},
        {"/games", 1, 0},   {"/", 1, 0},        {"/docs", 1, 0}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const char *method = strncmp(rows[i].path, "/solve/", 7) == 0 ? "POST" : "GET";
        for (int admin = 0; admin < 2; admin++) {
            route_match m;
            routes_match(method, rows[i].path, &m);
            router_restrict(&m, rows[i].path, admin, false);
            ck_assert_msg(m.error.kind == GJ_OK, "%s without an admin listener", rows[i].path);
            routes_match(method, rows[i].path, &m);
            router_restrict(&m, rows[i].path, admin, true);
            int ok = admin ? rows[i].admin_ok : rows[i].public_ok;
            ck_assert_msg((m.error.kind == GJ_OK) == ok, "%s on the %s listener: %s", rows[i].path,
                          admin ? "admin" : "public", m.error.message);
            if (!ok) {
                ck_assert_int_eq(m.error.kind, GJ_NOT_FOUND);
                ck_assert_ptr_null(m.row);
                ck_assert_ptr_nonnull(strstr(m.error.message, rows[i].path));
            }
        }
    }
    route_match m;
    routes_match("GET", "/metrics", &m);
    router_restrict(&m, "/metrics", false, true);
    ck_assert_str_eq(m.error.message,
                     "/metrics is served on the admin listener (--admin-address) only");
    /* An error of the match itself stays what it was. */
    routes_match("POST", "/metrics", &m);
    router_restrict(&m, "/metrics", true, true);
    ck_assert_int_eq(m.error.kind, GJ_BAD_METHOD);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *cors_suite(void)
{
    const harness_case cases[] = {
        {"cors", test_lists},
        {"cors", test_allowed},
        {"cors", test_headers},
        {"cors", test_listeners},
    };
    Suite *s = harness_suite("cors", cases, sizeof cases / sizeof cases[0], 0);
    harness_add_loop(s, "good", test_good_origins,
                     (int)(sizeof good_origins / sizeof good_origins[0]), 0);
    harness_add_loop(s, "bad", test_bad_origins, (int)(sizeof bad_origins / sizeof bad_origins[0]),
                     0);
    return s;
}

int main(void)
{
    return harness_main(cors_suite());
}

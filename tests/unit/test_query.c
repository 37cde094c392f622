/* test_query.c - the GET forms' strict query decoding (query.h) and the
 * answer tags with If-None-Match (etag.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etag.h"
#include "games.h"
#include "harness.h"
#include "line.h"
#include "query.h"

/* Decode raw for route; returns 0 or -1 and leaves the body in *r. */
static int decode(query_route route, const char *raw, query_request *r, gj_error *e)
{
    return query_request_decode(route, raw, strlen(raw), r, e);
}

START_TEST(test_unescape)
{
    char s[32];
    size_t bad = 99;
    strcpy(s, "a+b%20c%2B%2b%00");
    ck_assert_int_eq(query_unescape(s, strlen(s), &bad), 8);
    ck_assert_int_eq(memcmp(s, "a b c++\0", 8), 0);
    /* Every malformed escape is refused at its '%', never passed on. */
    static const struct {
        const char *in;
        size_t at;
    } bad_cases[] = {{"%", 0},   {"ab%", 2},   {"a%4", 1}, {"%G1", 0},
                     {"%1g", 0}, {"x%%41", 1}, {"%-1", 0}, {"%\xff\xff", 0}};
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        strcpy(s, bad_cases[i].in);
        ck_assert_msg(query_unescape(s, strlen(s), &bad) == -1, "%s", bad_cases[i].in);
        ck_assert_uint_eq(bad, bad_cases[i].at);
    }
}
END_TEST

START_TEST(test_solve_forms)
{
    query_request r;
    gj_error e;
    ck_assert_int_eq(decode(QUERY_SOLVE, "input=3+1%0A1+2+3%0A&format=text", &r, &e), 0);
    ck_assert_int_eq(r.input, MEDIA_TEXT);
    ck_assert_uint_eq(r.len, 10);
    ck_assert_str_eq(r.body, "3 1\n1 2 3\n");
    query_request_free(&r);
    ck_assert_int_eq(decode(QUERY_SOLVE, "&position=%7B%22k%22%3A1%7D&", &r, &e), 0);
    ck_assert_int_eq(r.input, MEDIA_JSON);
    ck_assert_str_eq(r.body, "{\"k\":1}");
    query_request_free(&r);
    /* A bare name is an empty value: the parser then says what is missing. */
    ck_assert_int_eq(decode(QUERY_SOLVE, "input", &r, &e), 0);
    ck_assert_uint_eq(r.len, 0);
    query_request_free(&r);
    ck_assert_int_eq(decode(QUERY_ANALYZE, "request=%7B%7D", &r, &e), 0);
    ck_assert_str_eq(r.body, "{}");
    ck_assert_int_eq(r.input, MEDIA_JSON);
    query_request_free(&r);
}
END_TEST

/* The query that must be refused, the field named ("" for none) and a part of the message. */
static const struct {
    query_route route;
    const char *raw, *field, *message;
} refused[] = {
    {QUERY_SOLVE, "", "", "exactly one of input="},
    {QUERY_SOLVE, "format=text", "", "exactly one of input="},
    {QUERY_SOLVE, "input=1&position=%7B%7D", "", "exactly one"},
    {QUERY_SOLVE, "input=1&input=2", "input", "given twice"},
    {QUERY_SOLVE, "input=1&Input=2", "Input", "unknown parameter 'Input'"},
    {QUERY_SOLVE, "input=1&request=2", "request", "takes input"},
    {QUERY_SOLVE, "input=%zz", "input", "byte 1 of its value"},
    {QUERY_SOLVE, "input=ab%2", "input", "byte 3"},
    {QUERY_SOLVE, "in%70ut=1&x%=2", "", "parameter name"},
    {QUERY_SOLVE, "inp%00ut=1", "", "parameter name"},
    {QUERY_SOLVE, "format=%", "format", "malformed percent-escape"},
    {QUERY_ANALYZE, "", "request", "required"},
    {QUERY_ANALYZE, "input=1", "input", "takes request"},
    {QUERY_ANALYZE, "request=1&request=1", "request", "given twice"},
};

START_TEST(test_refused)
{
    query_request r;
    gj_error e;
    ck_assert_msg(decode(refused[_i].route, refused[_i].raw, &r, &e) == -1, "%s", refused[_i].raw);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_ptr_null(r.body);
    ck_assert_msg(strcmp(e.field, refused[_i].field) == 0, "%s: field '%s'", refused[_i].raw,
                  e.field);
    ck_assert_msg(strstr(e.message, refused[_i].message) != NULL, "%s: '%s'", refused[_i].raw,
                  e.message);
}
END_TEST

START_TEST(test_etag_shape)
{
    const gj_game *g = games_find("grid-walk", 9);
    char a[ETAG_MAX], b[ETAG_MAX], c[ETAG_MAX];
    etag_make(g, ETAG_SOLVE, "key", 3, a);
    etag_make(g, ETAG_SOLVE, "key", 3, b);
    etag_make(g, ETAG_ANALYZE, "key", 3, c);
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c); /* a solve and an analysis never share a tag */
    /* "<game version>.<format version>-<16 hex>", quoted: a strong tag. */
    char want[32];
    snprintf(want, sizeof want, "\"%s.%s-", g->version, GJ_ANSWER_FORMAT_VERSION);
    ck_assert_int_eq(strncmp(a, want, strlen(want)), 0);
    ck_assert_uint_eq(strlen(a), strlen(want) + 17);
    ck_assert_int_eq(a[strlen(a) - 1], '"');
    etag_make(g, ETAG_SOLVE, "kez", 3, b);
    ck_assert_str_ne(a, b);
}
END_TEST

/* line_prepare's canonical form of body, in canon (at most cap bytes); -1 when refused. */
static int canonical(const char *body, char *canon, size_t cap)
{
    line_request q;
    gj_error e;
    if (line_prepare(body, strlen(body), &q, &e) != 0)
        return -1;
    snprintf(canon, cap, "%s", q.canonical);
    line_request_free(&q);
    return 0;
}

START_TEST(test_analysis_canonical)
{
    char a[256], b[256];
    /* One request in many spellings: one form. */
    static const char *const same[] = {
        "{\"grid\": [\"..\"], \"max_moves\": 3}",
        "{ \"max_moves\":3,\"grid\":[ \"..\" ] }",
        "{\"\\u0067rid\": [\"\\u002e.\"], \"max_moves\": 3, \"line\": false}",
    };
    ck_assert_int_eq(canonical(same[0], a, sizeof a), 0);
    ck_assert_str_eq(a, "{\"grid\":[\"..\"],\"max_moves\":3}");
    for (size_t i = 1; i < sizeof same / sizeof same[0]; i++) {
        ck_assert_int_eq(canonical(same[i], b, sizeof b), 0);
        ck_assert_str_eq(a, b);
    }
    /* The line's default is in the form, so a request naming it is the same. */
    ck_assert_int_eq(canonical("{\"grid\":[\"..\"],\"line\":true}", a, sizeof a), 0);
    ck_assert_int_eq(canonical("{\"max_line\":100,\"grid\":[\"..\"],\"line\":true}", b, sizeof b),
                     0);
    ck_assert_str_eq(a, b);
    ck_assert_str_eq(a, "{\"grid\":[\"..\"],\"line\":true,\"max_line\":100}");
    ck_assert_int_eq(canonical("{\"grid\":[\"..\"],\"line\":true,\"max_line\":99}", b, sizeof b),
                     0);
    ck_assert_str_ne(a, b);
    ck_assert_int_eq(canonical("{\"a\":1,\"a\":2}", a, sizeof a), -1);
    ck_assert_int_eq(canonical("not json", a, sizeof a), -1);
    ck_assert_int_eq(canonical("{\"max_line\":5}", a, sizeof a), -1); /* no line */
}
END_TEST

/* Padding never shrinks the line's default: the work bound is taken on the
 * compact position (line.h), so a padded body has the unpadded one's form. */
START_TEST(test_analysis_canonical_padding)
{
    static const char req[] = "{\"shortcuts\":[[3,0],[0,1]],\"heaps\":[400,350],"
                              "\"to_move\":\"first\",\"max_moves\":1,\"line\":true}";
    size_t pad = 1400000, n = strlen(req);
    char *big = malloc(pad + n + 1);
    ck_assert_ptr_nonnull(big);
    memset(big, ' ', pad);
    memcpy(big + pad, req, n + 1);
    char a[256], b[256];
    ck_assert_int_eq(canonical(req, a, sizeof a), 0);
    ck_assert_int_eq(canonical(big, b, sizeof b), 0);
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(a, "\"max_line\":100"));
    free(big);
}
END_TEST

START_TEST(test_if_none_match)
{
    const char *t = "\"1.1-00ff00ff00ff00ff\"";
    ck_assert(!etag_none_match(NULL, t, true));
    ck_assert(etag_none_match(t, t, false));
    ck_assert(etag_none_match("W/\"1.1-00ff00ff00ff00ff\"", t, false)); /* weak comparison */
    ck_assert(etag_none_match("\"x\", \"1.1-00ff00ff00ff00ff\"", t, false));
    ck_assert(etag_none_match(" \"x\" ,, W/\"1.1-00ff00ff00ff00ff\" ,", t, false));
    ck_assert(etag_none_match("*", t, true));
    ck_assert(etag_none_match(" * ", t, true));
    ck_assert(!etag_none_match("*", t, false));
    ck_assert(!etag_none_match("\"x\", \"y\"", t, true));
    ck_assert(!etag_none_match("\"1.1-00FF00FF00FF00FF\"", t, true)); /* tags are exact */
    /* Not the grammar: nothing matches, even the right tag inside it. */
    static const char *const garbage[] = {
        "1.1-00ff00ff00ff00ff",
        "\"1.1-00ff00ff00ff00ff",
        "\"1.1-00ff00ff00ff00ff\" junk",
        "\"1.1-00ff00ff00ff00ff\" \"x\"",
        "w/\"1.1-00ff00ff00ff00ff\"",
        "\"x y\", \"1.1-00ff00ff00ff00ff\"",
        "*, \"1.1-00ff00ff00ff00ff\"",
        "",
        ",",
    };
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++)
        ck_assert_msg(!etag_none_match(garbage[i], t, true), "'%s' matched", garbage[i]);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *query_suite(void)
{
    const harness_case cases[] = {
        {"query", test_unescape},
        {"query", test_solve_forms},
        {"etag", test_etag_shape},
        {"etag", test_analysis_canonical},
        {"etag", test_analysis_canonical_padding},
        {"etag", test_if_none_match},
    };
    Suite *s = harness_suite("query and etag", cases, sizeof cases / sizeof cases[0], 0);
    harness_add_loop(s, "query", test_refused, (int)(sizeof refused / sizeof refused[0]), 0);
    return s;
}

int main(void)
{
    return harness_main(query_suite());
}

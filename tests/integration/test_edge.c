/* test_edge.c - the cacheable forms against the real daemon: GET /solve and
 * GET /analyze answer what the POST forms answer, every answer carries its
 * ETag, If-None-Match gets a 304 (GET, HEAD) or a 412 (POST) only once the
 * answer is known to be a 200 (from the cache: nothing solved again), a 304
 * carries the 200's length and no Content-Type, GET answers may be cached
 * and errors may not, and the query bound is ours (a JSON 414) up to where
 * libmicrohttpd's own begins. */
#include <check.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "data.h"

static test_daemon server;

/* Under the contract proxy (GJ_CONTRACT=1), what prism cannot carry goes to
 * the daemon itself: prism answers 500 for a 304 and for HEAD, and it
 * re-encodes a malformed percent-escape before forwarding it. */

/* The daemon under test, with a short Cache-Control age to see it honoured. */
static void start_server(void)
{
    const char *const args[] = {"--cache-max-age", "600", NULL};
    daemon_start(&server, args);
}

/* Stop it; it must exit cleanly. */
static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

/* The value of header `name` ("" when absent), malloc'd. */
static char *header_or_empty(const http_reply *r, const char *name)
{
    char *v = http_header(r, name);
    return v != NULL ? v : calloc(1, 1);
}

/* Assert that r's header `name` is `want` (NULL: absent). */
static void expect_header(const http_reply *r, const char *name, const char *want)
{
    char *v = http_header(r, name);
    if (want == NULL)
        ck_assert_msg(v == NULL, "%s: %s, expected none", name, v);
    else
        ck_assert_msg(v != NULL && strcmp(v, want) == 0, "%s: %s, expected %s", name,
                      v ? v : "(none)", want);
    free(v);
}

/* GET base+path with headers (NULL-terminated, may be NULL) from `d` directly or through base. */
static http_reply get(const char *base, const char *path, const char *const *headers)
{
    char *url = malloc(strlen(base) + strlen(path) + 1);
    ck_assert_ptr_nonnull(url);
    strcpy(url, base);
    strcat(url, path);
    http_call c = {"GET", url, headers, NULL, 0, 0};
    http_reply r = http_do(&c);
    free(url);
    return r;
}

/* POST body to base+path as `type`. */
static http_reply post(const char *path, const char *type, const char *body, size_t len)
{
    char url[160], content[80];
    snprintf(url, sizeof url, "%s%s", server.base, path);
    snprintf(content, sizeof content, "Content-Type: %s", type);
    const char *const headers[] = {content, NULL};
    http_call c = {"POST", url, headers, body, len, 0};
    return http_do(&c);
}

/* "/<route>/<game>?<param>=<body URL-encoded>[&extra]", malloc'd. */
static char *query_path(const char *route, const char *game, const char *param, const char *body,
                        size_t len, const char *extra)
{
    char *enc = curl_easy_escape(NULL, body, (int)len);
    ck_assert_ptr_nonnull(enc);
    size_t n = strlen(route) + strlen(game) + strlen(param) + strlen(enc) + 64 +
               (extra ? strlen(extra) : 0);
    char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    snprintf(p, n, "/%s/%s?%s=%s%s%s", route, game, param, enc, extra ? "&" : "",
             extra ? extra : "");
    curl_free(enc);
    return p;
}

/* Every public case: GET ?input= with format=text answers the judge's
 * output, and carries the same tag as the POST of the same bytes. */
static void check_case_get(const char *game, const char *in, size_t in_len, const char *out)
{
    char *path = query_path("solve", game, "input", in, in_len, "format=text");
    if (strlen(strchr(path, '?') + 1) > 8192) { /* past --max-query: the POST form's */
        free(path);
        return;
    }
    http_reply r = get(server.base, path, NULL);
    ck_assert_msg(r.status == 200, "%s: %ld %s", game, r.status, r.body);
    ck_assert_str_eq(r.body, out);
    expect_header(&r, "Cache-Control", "public, max-age=600");
    expect_header(&r, "Vary", "Accept");
    char url[128];
    snprintf(url, sizeof url, "/solve/%s?format=text", game);
    http_reply p = post(url, "text/plain", in, in_len);
    ck_assert_int_eq(p.status, 200);
    char *a = header_or_empty(&r, "ETag"), *b = header_or_empty(&p, "ETag");
    ck_assert_msg(a[0] == '"' && strcmp(a, b) == 0, "%s: GET tag %s, POST tag %s", game, a, b);
    expect_header(&p, "Cache-Control", NULL); /* a POST answer carries the tag only */
    free(a);
    free(b);
    http_reply_free(&p);
    http_reply_free(&r);
    free(path);
}

START_TEST(test_get_answers_the_data)
{
    ck_assert_int_ge(data_each_case(check_case_get), 12);
}
END_TEST

/* The games' examples (GET /games): the JSON twin by GET gives the POST's
 * JSON bytes and the text form's tag; analyze by GET gives the POST's. */
START_TEST(test_get_forms_match_post)
{
    static const struct {
        const char *game, *text, *json, *analyze;
    } ex[] = {
        {"matrix-game", "3 1\n1 2 3\n4 5 6\n7 8 9\n",
         "{\"k\":1,\"matrix\":[[1,2,3],[4,5,6],[7,8,9]]}",
         "{\"k\":1,\"matrix\":[[1,2,3],[4,5,6],[7,8,9]],\"token\":[1,1],\"to_move\":\"G\","
         "\"max_moves\":3}"},
        {"grid-walk", NULL, NULL,
         "{\"grid\": [\"..#\", \"...\", \".#.\"], \"path\": [[2, 2], [2, 1]], \"max_moves\": 10}"},
    };
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        if (ex[i].text != NULL) {
            char *pt =
                query_path("solve", ex[i].game, "input", ex[i].text, strlen(ex[i].text), NULL);
            char *pj =
                query_path("solve", ex[i].game, "position", ex[i].json, strlen(ex[i].json), NULL);
            http_reply t = get(server.base, pt, NULL), j = get(server.base, pj, NULL);
            char url[64];
            snprintf(url, sizeof url, "/solve/%s", ex[i].game);
            http_reply p = post(url, "application/json", ex[i].json, strlen(ex[i].json));
            ck_assert_int_eq(t.status, 200);
            ck_assert_int_eq(j.status, 200);
            ck_assert_str_eq(t.body, p.body);
            ck_assert_str_eq(j.body, p.body);
            char *a = header_or_empty(&t, "ETag"), *b = header_or_empty(&j, "ETag");
            char *c = header_or_empty(&p, "ETag");
            ck_assert_str_eq(a, b); /* one position, one answer, one tag */
            ck_assert_str_eq(a, c);
            free(a);
            free(b);
            free(c);
            http_reply_free(&t);
            http_reply_free(&j);
            http_reply_free(&p);
            free(pt);
            free(pj);
        }
        char *pa = query_path("analyze", ex[i].game, "request", ex[i].analyze,
                              strlen(ex[i].analyze), NULL);
        http_reply g = get(server.base, pa, NULL);
        char url[64];
        snprintf(url, sizeof url, "/analyze/%s", ex[i].game);
        http_reply p = post(url, "application/json", ex[i].analyze, strlen(ex[i].analyze));
        ck_assert_msg(g.status == 200, "%s: %ld %s", ex[i].game, g.status, g.body);
        ck_assert_str_eq(g.body, p.body);
        char *a = header_or_empty(&g, "ETag"), *b = header_or_empty(&p, "ETag");
        ck_assert_msg(a[0] == '"' && strcmp(a, b) == 0, "analyze tags %s and %s", a, b);
        expect_header(&g, "Vary", "Accept");
        free(a);
        free(b);
        http_reply_free(&g);
        http_reply_free(&p);
        free(pa);
    }
}
END_TEST

/* If-None-Match with the answer's tag: 304, no body, no Content-Type, the
 * 200's Content-Length, the tag again, from the cache (nothing solved
 * again: the cache's misses stay put); a POST with the tag: 412 (RFC 9110
 * 13.1.2); garbage or another tag: a full 200. */
START_TEST(test_if_none_match_from_the_cache)
{
    const char *text = "3 1\n9 8 7\n6 5 4\n3 2 1\n";
    char *path = query_path("solve", "matrix-game", "input", text, strlen(text), NULL);
    http_reply first = get(server.base, path, NULL);
    ck_assert_int_eq(first.status, 200);
    char *tag = header_or_empty(&first, "ETag");
    ck_assert_int_eq(tag[0], '"');
    double h0 = daemon_metric(&server, "gamejudge_cache_hits_total"),
           m0 = daemon_metric(&server, "gamejudge_cache_misses_total");
    char length[32];
    snprintf(length, sizeof length, "%zu", first.len);

    char inm[160], weak[160], list[200];
    snprintf(inm, sizeof inm, "If-None-Match: %s", tag);
    snprintf(weak, sizeof weak, "If-None-Match: W/%s", tag);
    snprintf(list, sizeof list, "If-None-Match: \"other\", %s", tag);
    const char *const *forms[] = {
        (const char *const[]){inm, NULL}, (const char *const[]){weak, NULL},
        (const char *const[]){list, NULL}, (const char *const[]){"If-None-Match: *", NULL}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        http_reply r = get(server.direct, path, forms[i]);
        ck_assert_msg(r.status == 304, "%s: %ld", forms[i][0], r.status);
        ck_assert_uint_eq(r.len, 0);
        expect_header(&r, "ETag", tag);
        expect_header(&r, "Cache-Control", "public, max-age=600");
        expect_header(&r, "Content-Type", NULL);
        expect_header(&r, "Content-Length", length);
        http_reply_free(&r);
    }
    ck_assert(daemon_metric(&server, "gamejudge_cache_hits_total") == h0 + 4);
    ck_assert(daemon_metric(&server, "gamejudge_cache_misses_total") == m0);

    /* A POST is not answered conditionally: 412, and without the header a 200. */
    char url[160];
    snprintf(url, sizeof url, "%s/solve/matrix-game", server.base);
    const char *const cond[] = {"Content-Type: text/plain", inm, NULL};
    http_call c = {"POST", url, cond, text, strlen(text), 0};
    http_reply p = http_do(&c);
    ck_assert_msg(p.status == 412, "%ld %s", p.status, p.body);
    ck_assert_ptr_nonnull(strstr(p.body, "\"precondition_failed\""));
    expect_header(&p, "ETag", NULL);
    http_reply_free(&p);
    p = post("/solve/matrix-game", "text/plain", text, strlen(text));
    ck_assert_int_eq(p.status, 200);
    ck_assert_str_eq(p.body, first.body);
    http_reply_free(&p);

    /* Not the grammar, or another tag: answered in full. */
    static const char *const misses[] = {"If-None-Match: garbage", "If-None-Match: \"x\", junk",
                                         "If-None-Match: \"1.1-0000000000000000\""};
    for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
        const char *const h[] = {misses[i], NULL};
        http_reply r = get(server.base, path, h);
        ck_assert_msg(r.status == 200, "%s: %ld", misses[i], r.status);
        ck_assert_str_eq(r.body, first.body);
        http_reply_free(&r);
    }
    free(tag);
    free(path);
    http_reply_free(&first);
}
END_TEST

/* A request that is refused is never a 304 or a 412, whatever tag it is
 * sent with: the tag of a valid request, or "*". */
START_TEST(test_no_304_for_an_error)
{
    const char *good = "{\"matrix\":[[1,2,3],[4,5,6],[7,8,9]],\"k\":1}";
    const char *bad = "{\"matrix\":[[1,2,3],[4,5,6],[7,8,9]],\"k\":1,\"\\u006bk\":2}";
    char *pg = query_path("solve", "matrix-game", "position", good, strlen(good), NULL);
    char *pb = query_path("solve", "matrix-game", "position", bad, strlen(bad), NULL);
    http_reply g = get(server.base, pg, NULL);
    ck_assert_int_eq(g.status, 200);
    char *tag = header_or_empty(&g, "ETag"), inm[160];
    snprintf(inm, sizeof inm, "If-None-Match: %s", tag);
    const char *const *sent[] = {(const char *const[]){inm, NULL},
                                 (const char *const[]){"If-None-Match: *", NULL}};
    for (size_t i = 0; i < 2; i++) {
        http_reply r = get(server.direct, pb, sent[i]);
        ck_assert_msg(r.status == 400, "%s: %ld %s", sent[i][0], r.status, r.body);
        http_reply_free(&r);
    }
    free(tag);
    free(pg);
    free(pb);
    http_reply_free(&g);
}
END_TEST

/* The analysis's tag is its canonical request (sorted keys, the line's
 * default in effect): another spelling of it gets the 304, padding that
 * once shrank the line's default gets the same line and tag, another
 * option gets another tag; "*" matches an answer that is a 200. */
START_TEST(test_analyze_tags)
{
    const char *one = "{\"k\":1,\"matrix\":[[1,2,3],[4,5,6],[7,8,9]],\"token\":[1,1],\"to_move\":"
                      "\"G\",\"max_moves\":3}";
    const char *two = "{ \"max_moves\": 3, \"to_move\": \"G\", \"token\": [1, 1], \"matrix\": "
                      "[[1,2,3],[4,5,6],[7,8,9]], \"k\": 1 }";
    const char *other = "{\"k\":1,\"matrix\":[[1,2,3],[4,5,6],[7,8,9]],\"token\":[1,1],"
                        "\"to_move\":\"G\",\"max_moves\":2}";
    char *p1 = query_path("analyze", "matrix-game", "request", one, strlen(one), NULL);
    char *p2 = query_path("analyze", "matrix-game", "request", two, strlen(two), NULL);
    char *p3 = query_path("analyze", "matrix-game", "request", other, strlen(other), NULL);
    http_reply r1 = get(server.base, p1, NULL);
    ck_assert_int_eq(r1.status, 200);
    char *tag = header_or_empty(&r1, "ETag"), inm[160];
    snprintf(inm, sizeof inm, "If-None-Match: %s", tag);
    const char *const h[] = {inm, NULL};
    http_reply r2 = get(server.direct, p2, h), r3 = get(server.base, p3, h);
    ck_assert_int_eq(r2.status, 304);
    ck_assert_int_eq(r3.status, 200);
    const char *const star[] = {"If-None-Match: *", NULL};
    http_reply r4 = get(server.direct, p1, star);
    ck_assert_int_eq(r4.status, 304);
    http_reply_free(&r1);
    http_reply_free(&r2);
    http_reply_free(&r3);
    http_reply_free(&r4);
    free(tag);
    free(p1);
    free(p2);
    free(p3);

    /* 1.4 MB of padding: the same 100-move line and the same tag. */
    const char *line = "{\"shortcuts\":[[3,0],[0,1]],\"heaps\":[400,350],\"to_move\":\"first\","
                       "\"max_moves\":1,\"line\":true}";
    size_t pad = 1400000, n = strlen(line);
    char *padded = malloc(pad + n + 1);
    ck_assert_ptr_nonnull(padded);
    memset(padded, ' ', pad);
    memcpy(padded + pad, line, n + 1);
    http_reply a = post("/analyze/nim-shortcuts", "application/json", line, n);
    http_reply b = post("/analyze/nim-shortcuts", "application/json", padded, pad + n);
    ck_assert_int_eq(a.status, 200);
    ck_assert_int_eq(b.status, 200);
    ck_assert_str_eq(a.body, b.body);
    char *ta = header_or_empty(&a, "ETag"), *tb = header_or_empty(&b, "ETag");
    ck_assert_str_eq(ta, tb);
    ck_assert_ptr_nonnull(strstr(a.body, "\"line_truncated\":true"));
    /* A key spelt with an escape is that key (RFC 8259): the same answer,
     * never a 400 that a tag would turn into a 304. */
    const char *escaped = "{\"shortcuts\":[[3,0],[0,1]],\"heaps\":[400,350],\"to_move\":\"first\","
                          "\"max_moves\":1,\"\\u006cine\":true}";
    http_reply c = post("/analyze/nim-shortcuts", "application/json", escaped, strlen(escaped));
    ck_assert_msg(c.status == 200, "%ld %s", c.status, c.body);
    ck_assert_str_eq(c.body, a.body);
    char *tc = header_or_empty(&c, "ETag");
    ck_assert_str_eq(ta, tc);
    free(tc);
    http_reply_free(&c);
    free(ta);
    free(tb);
    free(padded);
    http_reply_free(&a);
    http_reply_free(&b);
}
END_TEST

/* Errors carry no tag and may not be kept; the bad query is named. */
START_TEST(test_errors_are_not_cached)
{
    static const struct {
        const char *path;
        long status;
        const char *part;
        int direct; /* past the proxy: it would re-encode the bad escape */
    } bad[] = {
        {"/solve/matrix-game?input=3+1%0A1+2+3%0A4+5+6%0A7+8+10%0A", 400, "line", 0},
        {"/solve/matrix-game?input=%ZZ", 400, "malformed percent-escape", 1},
        {"/solve/matrix-game?input=1&colour=red", 400, "unknown parameter 'colour'", 0},
        {"/solve/matrix-game?input=1&position=1", 400, "exactly one", 0},
        {"/analyze/matrix-game?input=1", 400, "unknown parameter 'input'", 0},
        {"/analyze/matrix-game?request=%7B", 400, "request", 0},
        {"/solve/chess?input=1", 404, "chess", 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        http_reply r = get(bad[i].direct ? server.direct : server.base, bad[i].path, NULL);
        ck_assert_msg(r.status == bad[i].status, "%s: %ld", bad[i].path, r.status);
        ck_assert_msg(strstr(r.body, bad[i].part) != NULL, "%s: %s", bad[i].path, r.body);
        expect_header(&r, "Cache-Control", "no-store");
        expect_header(&r, "ETag", NULL);
        http_reply_free(&r);
    }
}
END_TEST

/* A query of exactly --max-query bytes is read; one byte more is our 414,
 * naming the bound and the POST form; far past the connection memory,
 * libmicrohttpd answers 414 before any of ours (its own page). */
START_TEST(test_query_bound)
{
    size_t bound = 8192, prefix = strlen("input=");
    char *path = malloc(bound + 64);
    ck_assert_ptr_nonnull(path);
    for (int extra = 0; extra <= 1; extra++) {
        int n = snprintf(path, bound + 64, "/solve/grid-walk?input=");
        memset(path + n, 'x', bound - prefix + (size_t)extra);
        path[n + (int)(bound - prefix) + extra] = '\0';
        http_reply r = get(server.direct, path, NULL);
        if (extra == 0) { /* read and parsed: x is no grid */
            ck_assert_msg(r.status == 400, "%ld %s", r.status, r.body);
        } else {
            ck_assert_msg(r.status == 414, "%ld %s", r.status, r.body);
            ck_assert_ptr_nonnull(strstr(r.body, "\"uri_too_long\""));
            ck_assert_ptr_nonnull(strstr(r.body, "8192 bytes (--max-query)"));
            ck_assert_ptr_nonnull(strstr(r.body, "POST"));
        }
        http_reply_free(&r);
    }
    free(path);
    size_t huge = 40000;
    path = malloc(huge + 64);
    ck_assert_ptr_nonnull(path);
    int n = snprintf(path, huge + 64, "/solve/grid-walk?input=");
    memset(path + n, 'x', huge);
    path[n + (int)huge] = '\0';
    http_reply r = get(server.direct, path, NULL);
    ck_assert_int_eq(r.status, 414);
    ck_assert_ptr_null(strstr(r.body, "uri_too_long")); /* libmicrohttpd's, not ours */
    http_reply_free(&r);
    free(path);
    /* The daemon carries on. */
    r = get(server.direct, "/healthz", NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
}
END_TEST

#define HEAD_PATH "/solve/matrix-game?input=3+1%0A9+1+2%0A3+4+5%0A6+7+8%0A"

/* HEAD is GET without the body: the same status and tag. */
START_TEST(test_head)
{
    char url[160];
    snprintf(url, sizeof url, "%s%s", server.direct, HEAD_PATH);
    http_call c = {"HEAD", url, NULL, NULL, 0, 0};
    http_reply h = http_do(&c);
    ck_assert_int_eq(h.status, 200);
    ck_assert_uint_eq(h.len, 0);
    http_reply g = get(server.base, HEAD_PATH, NULL);
    ck_assert_int_eq(g.status, 200);
    char *a = header_or_empty(&h, "ETag"), *b = header_or_empty(&g, "ETag");
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    http_reply_free(&h);
    http_reply_free(&g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("edge");
    TCase *tc = tcase_create("cacheable");
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_get_answers_the_data);
    tcase_add_test(tc, test_get_forms_match_post);
    tcase_add_test(tc, test_if_none_match_from_the_cache);
    tcase_add_test(tc, test_no_304_for_an_error);
    tcase_add_test(tc, test_analyze_tags);
    tcase_add_test(tc, test_errors_are_not_cached);
    tcase_add_test(tc, test_query_bound);
    tcase_add_test(tc, test_head);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

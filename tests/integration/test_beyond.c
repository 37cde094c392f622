/* test_beyond.c - the endpoints beyond a verdict, over HTTP: /judge on
 * every single-token corruption of the public test data, /batch with good
 * and bad items, the result cache (hits, text and JSON forms sharing an
 * entry, single flight, a max-size position, --cache-bytes 0) and the
 * HTTP-level errors of /analyze. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "data.h"

static test_daemon server;

static void start_server(void)
{
    daemon_start(&server, NULL);
}

static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

/* The contract proxy cannot forward a body that is not JSON at all under
 * a JSON content type; such requests go to the daemon itself. */
static const char *base_for(const test_daemon *d, const char *type, const char *body, size_t len)
{
    if (type == NULL || strstr(type, "json") == NULL || body == NULL)
        return d->base;
    json_t *parsed = json_loadb(body, len, 0, NULL);
    json_decref(parsed);
    return parsed ? d->base : d->direct;
}

static http_reply post_to(const test_daemon *d, const char *path, const char *type,
                          const char *body, size_t len)
{
    char url[256], header[128];
    snprintf(url, sizeof url, "%s%s", base_for(d, type, body, len), path);
    snprintf(header, sizeof header, "Content-Type: %s", type);
    const char *const headers[] = {header, NULL};
    http_call c = {"POST", url, type ? headers : NULL, body, len, 0};
    return http_do(&c);
}

static http_reply post_json(const char *path, const char *body)
{
    return post_to(&server, path, "application/json", body, strlen(body));
}

static json_t *json_of(const http_reply *r)
{
    json_error_t err;
    json_t *j = json_loadb(r->body, r->len, 0, &err);
    ck_assert_msg(j != NULL, "not JSON (%s): %s", err.text, r->body);
    return j;
}

static const char *str_at(const json_t *root, const char *path)
{
    json_t *v = json_object_get(root, path);
    return json_string_value(v);
}

/* ---- /judge ----------------------------------------------------------- */

static json_t *judge(const char *game, const char *in, const char *out, long *status)
{
    json_t *req = json_pack("{s:s,s:s}", "input", in, "output", out);
    char *body = json_dumps(req, JSON_COMPACT);
    char path[64];
    snprintf(path, sizeof path, "/judge/%s", game);
    http_reply r = post_json(path, body);
    *status = r.status;
    json_t *answer = json_of(&r);
    http_reply_free(&r);
    free(body);
    json_decref(req);
    return answer;
}

static void expect_verdict(const char *game, const char *in, const char *out, const char *verdict)
{
    long status;
    json_t *a = judge(game, in, out, &status);
    ck_assert_int_eq(status, 200);
    ck_assert_msg(strcmp(str_at(a, "verdict"), verdict) == 0, "%s: %s for output [%s]", game,
                  str_at(a, "verdict"), out);
    if (strcmp(verdict, "accepted") == 0)
        ck_assert(json_is_null(json_object_get(a, "first_difference")));
    json_decref(a);
}

/* A token made different by one character of the same kind. */
static void corrupt(char *tok, size_t len)
{
    char *c = &tok[len - 1];
    if (*c >= '0' && *c <= '9')
        *c = *c == '9' ? '0' : (char)(*c + 1);
    else if (*c == 'M' || *c == 'G')
        *c = *c == 'M' ? 'G' : 'M';
    else
        *c = *c == 'E' ? 'X' : 'E'; /* WIN/LOSE/RUBY/DIA: any other letter */
}

static int corruptions;

/* Every token, changed, dropped and doubled: always wrong_answer, with the
 * changed token named at its line. */
static void judge_case(const char *game, const char *in, size_t in_len, const char *out)
{
    (void)in_len;
    expect_verdict(game, in, out, "accepted");
    size_t n = strlen(out);
    long line = 1;
    for (size_t i = 0; i < n;) {
        if (out[i] == '\n' || out[i] == ' ') {
            line += out[i] == '\n';
            i++;
            continue;
        }
        size_t len = strcspn(out + i, " \n");
        char *bad = strdup(out);
        corrupt(bad + i, len);
        long status;
        json_t *a = judge(game, in, bad, &status);
        ck_assert_int_eq(status, 200);
        ck_assert_str_eq(str_at(a, "verdict"), "wrong_answer");
        json_t *d = json_object_get(a, "first_difference");
        ck_assert_int_eq(json_integer_value(json_object_get(d, "line")), line);
        size_t quoted = len < 64 ? len : 64;
        ck_assert(strncmp(str_at(d, "expected"), out + i, quoted) == 0);
        ck_assert(strncmp(str_at(d, "found"), bad + i, quoted) == 0);
        json_decref(a);

        /* Dropped, then doubled. */
        memmove(bad + i, out + i + len, n - i - len + 1);
        expect_verdict(game, in, bad, "wrong_answer");
        free(bad);
        bad = malloc(n + len + 2);
        memcpy(bad, out, i + len);
        bad[i + len] = ' ';
        memcpy(bad + i + len + 1, out + i, n - i + 1);
        expect_verdict(game, in, bad, "wrong_answer");
        free(bad);
        corruptions += 3;
        i += len;
    }
}

/* Layout that must not matter, and layout that must. */
static void layout_case(const char *game, const char *in, size_t in_len, const char *out)
{
    (void)in_len;
    size_t n = strlen(out);
    char *crlf = malloc(2 * n + 8), *tabs = strdup(out), *bare = strdup(out);
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (out[i] == '\n') {
            crlf[o++] = ' '; /* a trailing space too */
            crlf[o++] = '\r';
        }
        crlf[o++] = out[i];
    }
    memcpy(crlf + o, "\r\n\n", 4);
    for (char *p = tabs; *p; p++)
        if (*p == ' ')
            *p = '\t';
    bare[n - 1] = '\0'; /* no final newline */
    expect_verdict(game, in, crlf, "accepted");
    expect_verdict(game, in, tabs, "accepted");
    expect_verdict(game, in, bare, "accepted");
    /* All tokens on one line: presentation_error when there were lines. */
    char *flat = strdup(out);
    for (char *p = flat; *p; p++)
        if (*p == '\n')
            *p = ' ';
    if (strchr(out, '\n') != out + n - 1)
        expect_verdict(game, in, flat, "presentation_error");
    free(crlf);
    free(tabs);
    free(bare);
    free(flat);
}

START_TEST(test_judge_catches_every_corruption)
{
    corruptions = 0;
    ck_assert_int_ge(data_each_case(judge_case), 12);
    ck_assert_int_ge(corruptions, 3 * 20);
    data_each_case(layout_case);
}
END_TEST

START_TEST(test_judge_errors)
{
    long status;
    /* A malformed input is the caller's 400, naming the field and line. */
    json_t *a = judge("grid-walk", "2 3\n..#\n.x.\n", "LOSE\n", &status);
    ck_assert_int_eq(status, 400);
    json_t *err = json_object_get(a, "error");
    ck_assert_str_eq(str_at(err, "code"), "bad_input");
    ck_assert_str_eq(str_at(err, "field"), "input");
    ck_assert_int_eq(json_integer_value(json_object_get(err, "line")), 3);
    json_decref(a);
    /* A malformed output is simply wrong. */
    a = judge("grid-walk", "2 3\n..#\n...\n", "\x01\x02 garbage", &status);
    ck_assert_int_eq(status, 200);
    ck_assert_str_eq(str_at(a, "verdict"), "wrong_answer");
    json_decref(a);
    a = judge("grid-walk", "2 3\n..#\n...\n", "", &status);
    ck_assert_str_eq(str_at(a, "verdict"), "wrong_answer");
    ck_assert(json_is_null(json_object_get(json_object_get(a, "first_difference"), "found")));
    json_decref(a);

    static const struct {
        const char *body, *field;
    } bad[] = {
        {"{\"input\": \"1\\n-\\n\"}", "output"},
        {"{\"output\": \"RUBY\\n\"}", "input"},
        {"{\"input\": 5, \"output\": \"RUBY\\n\"}", "input"},
        {"{\"input\": \"1\\n-\\n\", \"output\": \"RUBY\", \"extra\": 1}", "extra"},
        {"[1, 2]", NULL},
        {"not json", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        http_reply r = post_json("/judge/prime-chocolate", bad[i].body);
        ck_assert_msg(r.status == 400, "%s: %ld", bad[i].body, r.status);
        json_t *j = json_of(&r);
        json_t *e = json_object_get(j, "error");
        ck_assert_str_eq(str_at(e, "code"), "bad_input");
        if (bad[i].field)
            ck_assert_str_eq(str_at(e, "field"), bad[i].field);
        json_decref(j);
        http_reply_free(&r);
    }
    http_reply r = post_json("/judge/chess", "{}");
    ck_assert_int_eq(r.status, 404);
    http_reply_free(&r);
}
END_TEST

/* ---- /batch ----------------------------------------------------------- */

static http_reply solve_json(const char *game, const char *text)
{
    char path[64];
    snprintf(path, sizeof path, "/solve/%s", game);
    return post_to(&server, path, "text/plain", text, strlen(text));
}

START_TEST(test_batch_mixed_items)
{
    const char *body =
        "{\"items\": ["
        "{\"game\": \"grid-walk\", \"input\": \"2 3\\n..#\\n...\\n\"},"
        "{\"game\": \"nim-shortcuts\", \"position\": {\"shortcuts\": [[3,0],[0,1]], "
        "\"queries\": [[0,0],[1,1]]}},"
        "{\"game\": \"chess\", \"input\": \"1\"},"
        "{\"game\": \"prime-chocolate\", \"input\": \"2\\n--\\n-Q\\n\"},"
        "{\"game\": \"staircase-chess\", \"input\": \"1 1\\n5\\n3\\n\", \"format\": \"text\"},"
        "{\"game\": \"grid-walk\"},"
        "{\"game\": \"grid-walk\", \"input\": \"1 1\\n.\\n\", \"position\": {}},"
        "[],"
        "{\"game\": \"matrix-game\", \"position\": {\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],"
        "[7,8,9]]}}"
        "]}";
    http_reply r = post_json("/batch", body);
    ck_assert_msg(r.status == 200, "%ld: %s", r.status, r.body);
    json_t *j = json_of(&r);
    json_t *items = json_object_get(j, "items");
    ck_assert_int_eq(json_array_size(items), 9);
    static const long statuses[] = {200, 200, 404, 400, 200, 400, 400, 400, 200};
    for (size_t i = 0; i < 9; i++)
        ck_assert_msg(json_integer_value(json_object_get(json_array_get(items, i), "status")) ==
                          statuses[i],
                      "item %zu: %s", i, r.body);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "succeeded")), 4);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "failed")), 5);

    /* Each result is what /solve answers for the same position. */
    http_reply single = solve_json("grid-walk", "2 3\n..#\n...\n");
    json_t *want = json_of(&single);
    ck_assert(json_equal(json_object_get(json_array_get(items, 0), "result"), want));
    json_decref(want);
    http_reply_free(&single);
    json_t *nim = json_object_get(json_array_get(items, 1), "result");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(nim, "answers"), 0)), "LOSE");
    ck_assert_str_eq(str_at(json_array_get(items, 4), "output"), "5\n");

    /* Errors name the item and, for a judge input, the line. */
    json_t *e3 = json_object_get(json_array_get(items, 3), "error");
    ck_assert_int_eq(json_integer_value(json_object_get(e3, "line")), 3);
    json_t *e2 = json_object_get(json_array_get(items, 2), "error");
    ck_assert_str_eq(str_at(e2, "code"), "unknown_game");
    ck_assert_str_eq(str_at(e2, "field"), "items[2].game");
    ck_assert_str_eq(str_at(json_object_get(json_array_get(items, 7), "error"), "field"),
                     "items[7]");
    json_decref(j);
    http_reply_free(&r);
}
END_TEST

/* A 1 x len grid-walk position, all free (len < 100). */
static void row_grid(char *out, int len)
{
    int at = sprintf(out, "1 %d\n", len);
    memset(out + at, '.', (size_t)len);
    strcpy(out + at + len, "\n");
}

START_TEST(test_batch_spreads_over_the_pool)
{
    /* 60 grid-walk positions, each different; all answered in order. */
    json_t *items = json_array();
    for (int i = 0; i < 60; i++) {
        char text[128];
        row_grid(text, i + 1);
        json_array_append_new(items, json_pack("{s:s,s:s}", "game", "grid-walk", "input", text));
    }
    json_t *req = json_pack("{s:o}", "items", items);
    char *body = json_dumps(req, JSON_COMPACT);
    http_reply r = post_json("/batch", body);
    ck_assert_int_eq(r.status, 200);
    json_t *j = json_of(&r);
    json_t *got = json_object_get(j, "items");
    for (int i = 0; i < 60; i++) {
        /* Item i must be the answer to row i, as /solve gives it. */
        char text[128];
        row_grid(text, i + 1);
        http_reply one = solve_json("grid-walk", text);
        json_t *want = json_of(&one);
        ck_assert_msg(json_equal(json_object_get(json_array_get(got, (size_t)i), "result"), want),
                      "item %d differs from /solve", i);
        json_decref(want);
        http_reply_free(&one);
    }
    json_decref(j);
    json_decref(req);
    free(body);
    http_reply_free(&r);
}
END_TEST

START_TEST(test_batch_limits)
{
    test_daemon small;
    const char *const flags[] = {"--batch-max-items", "2", NULL};
    daemon_start(&small, flags);
    const char *three = "{\"items\": [{\"game\": \"grid-walk\", \"input\": \"1 1\\n.\\n\"},"
                        "{\"game\": \"grid-walk\", \"input\": \"1 1\\n.\\n\"},"
                        "{\"game\": \"grid-walk\", \"input\": \"1 1\\n.\\n\"}]}";
    static const struct {
        const char *body, *field;
    } bad[] = {
        {NULL, "items"},
        {"{\"items\": []}", "items"},
        {"{\"items\": {}}", "items"},
        {"{}", "items"},
        {"{\"items\": [], \"more\": 1}", "more"},
        {"[]", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *body = bad[i].body ? bad[i].body : three;
        http_reply r = post_to(&small, "/batch", "application/json", body, strlen(body));
        ck_assert_msg(r.status == 400, "%s: %ld", body, r.status);
        json_t *j = json_of(&r);
        json_t *e = json_object_get(j, "error");
        ck_assert_str_eq(str_at(e, "code"), "bad_input");
        if (bad[i].field)
            ck_assert_str_eq(str_at(e, "field"), bad[i].field);
        if (bad[i].body == NULL)
            ck_assert_ptr_nonnull(strstr(str_at(e, "message"), "2"));
        json_decref(j);
        http_reply_free(&r);
    }
    http_reply r = post_to(&small, "/batch?format=text", "application/json", three, strlen(three));
    ck_assert_int_eq(r.status, 400);
    http_reply_free(&r);
    ck_assert_int_eq(daemon_stop(&small), 0);
}
END_TEST

/* ---- the result cache --------------------------------------------------- */

static char *header_of(const http_reply *r, const char *name)
{
    char *v = http_header(r, name);
    return v ? v : strdup("(none)");
}

static void expect_cache(const http_reply *r, const char *want)
{
    char *v = header_of(r, "X-Cache");
    ck_assert_msg(strcmp(v, want) == 0, "X-Cache: %s, expected %s", v, want);
    free(v);
}

START_TEST(test_cache_hits_across_forms)
{
    double hits = daemon_metric(&server, "gamejudge_cache_hits_total");
    const char *text = "3 1\n1 2 3\n4 5 6\n7 8 10\n";
    /* 10 is out of range: an error is never cached. */
    http_reply r = post_to(&server, "/solve/matrix-game", "text/plain", text, strlen(text));
    ck_assert_int_eq(r.status, 400);
    expect_cache(&r, "(none)");
    http_reply_free(&r);

    text = "3 1\n1 2 3\n4 5 6\n7 9 8\n";
    const char *json = "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,9,8]]}";
    r = post_to(&server, "/solve/matrix-game", "text/plain", text, strlen(text));
    expect_cache(&r, "miss");
    char *first = strdup(r.body);
    http_reply_free(&r);
    r = post_to(&server, "/solve/matrix-game", "text/plain", text, strlen(text));
    expect_cache(&r, "hit");
    ck_assert_str_eq(r.body, first);
    http_reply_free(&r);
    /* The JSON twin of the same position: the same entry. */
    r = post_json("/solve/matrix-game", json);
    expect_cache(&r, "hit");
    ck_assert_str_eq(r.body, first);
    http_reply_free(&r);
    /* The judge text answer is another entry (another format)... */
    r = post_to(&server, "/solve/matrix-game?format=text", "application/json", json, strlen(json));
    expect_cache(&r, "miss");
    http_reply_free(&r);
    /* ... and a position one swap away is another position. */
    const char *other = "3 1\n2 1 3\n4 5 6\n7 9 8\n";
    r = post_to(&server, "/solve/matrix-game", "text/plain", other, strlen(other));
    expect_cache(&r, "miss");
    http_reply_free(&r);
    ck_assert(daemon_metric(&server, "gamejudge_cache_hits_total") == hits + 2);
    free(first);
}
END_TEST

/* A 2000 x 2000 matrix (the largest official input), solved twice. */
START_TEST(test_cache_max_size_position)
{
    if (getenv("GJ_CONTRACT") != NULL)
        return; /* the contract proxy refuses bodies over 10 MB */
    const int n = 2000;
    size_t cap = (size_t)n * n * 8 + 32, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text, cap, "%d %d\n", n, 1);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            /* A permutation of 1..n^2: column j holds j*n+1..j*n+n. */
            len += (size_t)snprintf(text + len, cap - len, "%ld%c", (long)j * n + (i + j) % n + 1,
                                    j == n - 1 ? '\n' : ' ');
        }
    http_reply a = post_to(&server, "/solve/matrix-game", "text/plain", text, len);
    ck_assert_msg(a.status == 200, "%ld: %.200s", a.status, a.body);
    expect_cache(&a, "miss");
    http_reply b = post_to(&server, "/solve/matrix-game", "text/plain", text, len);
    ck_assert_int_eq(b.status, 200);
    expect_cache(&b, "hit");
    ck_assert_uint_eq(a.len, b.len);
    ck_assert(memcmp(a.body, b.body, a.len) == 0);
    /* A hit does not solve: Server-Timing says so. */
    char *timing = header_of(&b, "Server-Timing");
    ck_assert_ptr_nonnull(strstr(timing, "solve;dur=0.000"));
    free(timing);
    http_reply_free(&a);
    http_reply_free(&b);
    free(text);
}
END_TEST

START_TEST(test_cache_single_flight)
{
    /* Eight identical requests at once: computed once. */
    enum { N = 8 };
    char grid[100 * 101 + 16];
    size_t len = (size_t)snprintf(grid, sizeof grid, "100 100\n");
    for (int i = 0; i < 100; i++) {
        for (int j = 0; j < 100; j++)
            grid[len++] = (i * 31 + j * 17) % 11 == 0 ? '#' : '.';
        grid[len++] = '\n';
    }
    char url[128];
    snprintf(url, sizeof url, "%s/solve/grid-walk", server.base);
    http_call calls[N];
    http_reply replies[N];
    for (int i = 0; i < N; i++)
        calls[i] = (http_call){"POST", url, NULL, grid, len, 0};
    double misses = daemon_metric(&server, "gamejudge_cache_misses_total");
    double hits = daemon_metric(&server, "gamejudge_cache_hits_total");
    http_do_parallel(calls, replies, N);
    int miss = 0;
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(replies[i].status, 200);
        ck_assert(strcmp(replies[i].body, replies[0].body) == 0);
        char *v = header_of(&replies[i], "X-Cache");
        miss += strcmp(v, "miss") == 0;
        free(v);
    }
    for (int i = 0; i < N; i++)
        http_reply_free(&replies[i]);
    ck_assert_int_eq(miss, 1);
    ck_assert(daemon_metric(&server, "gamejudge_cache_misses_total") == misses + 1);
    ck_assert(daemon_metric(&server, "gamejudge_cache_hits_total") == hits + N - 1);
}
END_TEST

START_TEST(test_cache_off)
{
    test_daemon plain;
    const char *const flags[] = {"--cache-bytes", "0", NULL};
    daemon_start(&plain, flags);
    const char *text = "2 3\n..#\n...\n";
    for (int i = 0; i < 2; i++) {
        http_reply r = post_to(&plain, "/solve/grid-walk", "text/plain", text, strlen(text));
        ck_assert_int_eq(r.status, 200);
        expect_cache(&r, "(none)");
        http_reply_free(&r);
    }
    ck_assert(daemon_metric(&plain, "gamejudge_cache_budget_bytes") == 0);
    ck_assert(daemon_metric(&plain, "gamejudge_cache_hits_total") == 0);
    ck_assert_int_eq(daemon_stop(&plain), 0);
}
END_TEST

/* ---- /analyze at the HTTP level ---------------------------------------- */

START_TEST(test_analyze_http_errors)
{
    static const struct {
        const char *method, *path, *type, *body;
        long status;
        const char *code;
    } cases[] = {
        {"POST", "/analyze/chess", "application/json", "{}", 404, "unknown_game"},
        {"PUT", "/analyze/grid-walk", NULL, NULL, 405, "method_not_allowed"},
        {"GET", "/analyze/grid-walk", NULL, NULL, 400, "bad_input"}, /* no request= */
        {"POST", "/analyze/grid-walk", "application/json", "{\"grid\": [\".\"]", 400, "bad_input"},
        {"POST", "/analyze/grid-walk", "application/xml", "<a/>", 415, "unsupported_media_type"},
        {"POST", "/analyze/grid-walk?format=text", "application/json",
         "{\"grid\": [\"..\"], \"path\": []}", 400, "bad_input"},
        {"POST", "/analyze/grid-walk", "application/json", "{\"grid\": [\"..\"], \"path\": []}",
         200, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char url[256], header[96];
        snprintf(url, sizeof url, "%s%s",
                 base_for(&server, cases[i].type, cases[i].body,
                          cases[i].body ? strlen(cases[i].body) : 0),
                 cases[i].path);
        snprintf(header, sizeof header, "Content-Type: %s", cases[i].type ? cases[i].type : "");
        const char *const headers[] = {header, NULL};
        http_call c = {cases[i].method,
                       url,
                       cases[i].type ? headers : NULL,
                       cases[i].body,
                       cases[i].body ? strlen(cases[i].body) : 0,
                       0};
        http_reply r = http_do(&c);
        ck_assert_msg(r.status == cases[i].status, "case %zu: %ld %s", i, r.status, r.body);
        json_t *j = json_of(&r);
        if (cases[i].code)
            ck_assert_str_eq(str_at(json_object_get(j, "error"), "code"), cases[i].code);
        else
            ck_assert_str_eq(str_at(j, "to_move"), "A");
        json_decref(j);
        http_reply_free(&r);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("beyond");
    TCase *tc = tcase_create("endpoints");
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_judge_catches_every_corruption);
    tcase_add_test(tc, test_judge_errors);
    tcase_add_test(tc, test_batch_mixed_items);
    tcase_add_test(tc, test_batch_spreads_over_the_pool);
    tcase_add_test(tc, test_batch_limits);
    tcase_add_test(tc, test_cache_hits_across_forms);
    tcase_add_test(tc, test_cache_max_size_position);
    tcase_add_test(tc, test_cache_single_flight);
    tcase_add_test(tc, test_cache_off);
    tcase_add_test(tc, test_analyze_http_errors);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

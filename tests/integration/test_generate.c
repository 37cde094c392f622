/* test_generate.c - POST /generate/{game} against the real daemon: every
 * game's /games example answers 200, the same request the same bytes, the
 * position answered by /solve or /analyze exactly as reported, and an
 * impossible constraint a 422 inside a small budget ceiling
 * (--generate-budget-ms), never a hang. */
#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "games.h"

static test_daemon server;

/* The daemon with a small budget ceiling, so a 422 comes quickly. */
static void start_server(void)
{
    const char *flags[] = {"--generate-budget-ms", "300", NULL};
    daemon_start(&server, flags);
}

/* Stop the daemon this file started. */
static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

/* POST a JSON body to path. */
static http_reply post(const char *path, const char *body)
{
    char u[512];
    static const char *const json[] = {"Content-Type: application/json", NULL};
    snprintf(u, sizeof u, "%s%s", server.base, path);
    http_call c = {"POST", u, json, body, strlen(body), 0};
    return http_do(&c);
}

/* The parsed body of a reply, failing the test on bad JSON. */
static json_t *parse(const http_reply *r)
{
    json_t *v = json_loadb(r->body, r->len, 0, NULL);
    ck_assert_msg(v != NULL, "not JSON: %s", r->body);
    return v;
}

/* The /games entries, parsed. */
static json_t *games(void)
{
    char u[256];
    snprintf(u, sizeof u, "%s/games", server.base);
    http_call c = {"GET", u, NULL, NULL, 0, 0};
    http_reply r = http_do(&c);
    ck_assert_int_eq(r.status, 200);
    json_t *v = parse(&r);
    http_reply_free(&r);
    return v;
}

/* Game _i's listed example: 200, twice the same bytes, and the position
 * answered by /solve or /analyze as the answer says. */
START_TEST(test_examples_replay)
{
    json_t *all = games();
    const json_t *g = json_array_get(json_object_get(all, "games"), (size_t)_i);
    const char *name = json_string_value(json_object_get(g, "name"));
    const json_t *gen = json_object_get(g, "generate");
    ck_assert_msg(gen != NULL, "%s: /games lists no generate example", name);
    char path[96];
    snprintf(path, sizeof path, "/generate/%s", name);
    ck_assert_str_eq(json_string_value(json_object_get(gen, "path")), path);
    char *req = json_dumps(json_object_get(gen, "example"), JSON_COMPACT);
    http_reply a = post(path, req), b = post(path, req);
    ck_assert_msg(a.status == 200, "%s: %ld %s", name, a.status, a.body);
    ck_assert_str_eq(a.body, b.body);
    json_t *root = parse(&a);
    ck_assert_str_eq(json_string_value(json_object_get(root, "game")), name);
    const json_t *input = json_object_get(root, "input");
    char *pos = json_dumps(json_object_get(root, "position"), JSON_COMPACT);
    snprintf(path, sizeof path, "/%s/%s", input ? "solve" : "analyze", name);
    http_reply s = post(path, pos);
    ck_assert_int_eq(s.status, 200);
    json_t *answer = parse(&s);
    ck_assert_msg(json_equal(answer, json_object_get(root, "answer")), "%s: %s answers %s", name,
                  path, s.body);
    json_decref(answer);
    json_decref(root);
    json_decref(all);
    free(pos);
    free(req);
    http_reply_free(&a);
    http_reply_free(&b);
    http_reply_free(&s);
}
END_TEST

/* {"seed": 42} alone works for every game and echoes the seed. */
START_TEST(test_seed_alone)
{
    size_t count;
    const char *name = games_all(&count)[_i]->name;
    char path[96];
    snprintf(path, sizeof path, "/generate/%s", name);
    http_reply r = post(path, "{\"seed\": 42}");
    ck_assert_msg(r.status == 200, "%s: %ld %s", name, r.status, r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "\"seed\":42,"));
    ck_assert_ptr_nonnull(strstr(r.body, "\"input\":"));
    http_reply_free(&r);
}
END_TEST

/* A constraint no position meets: 422 naming it and the count tried. */
START_TEST(test_unmet_is_422)
{
    http_reply r = post("/generate/grid-walk",
                        "{\"seed\": 7, \"rows\": 1, \"cols\": 2, \"winning_moves\": 2}");
    ck_assert_int_eq(r.status, 400); /* at most 1 move there: refused by definition */
    http_reply_free(&r);
    r = post("/generate/nim-shortcuts", "{\"range\": 1, \"shortcuts\": 0, \"outcome\": \"win\"}");
    ck_assert_msg(r.status == 422, "%ld %s", r.status, r.body);
    json_t *v = parse(&r);
    const json_t *err = json_object_get(v, "error");
    ck_assert_str_eq(json_string_value(json_object_get(err, "code")), "unprocessable");
    ck_assert_str_eq(json_string_value(json_object_get(err, "field")), "outcome");
    ck_assert_ptr_nonnull(
        strstr(json_string_value(json_object_get(err, "message")), "within budget_ms 300 ("));
    json_decref(v);
    http_reply_free(&r);
    r = post("/generate/nim-shortcuts", "{\"budget_ms\": 301}");
    ck_assert_int_eq(r.status, 400);
    ck_assert_ptr_nonnull(strstr(r.body, "--generate-budget-ms 300"));
    http_reply_free(&r);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("generate");
    TCase *tc = tcase_create("daemon");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_add_loop_test(tc, test_examples_replay, 0, 5);
    tcase_add_loop_test(tc, test_seed_alone, 0, GAMES_COUNT);
    tcase_add_test(tc, test_unmet_is_422);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

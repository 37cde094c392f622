/* test_large.c - the largest official inputs through HTTP under the default
 * limits, as judge text and as the JSON twin.  The HTTP answers must equal
 * the CLI's on the same text, byte for byte, and the JSON answer must say
 * the same thing.  (The solvers' own tests check these answers against
 * independent methods; this checks the path a 30 MB body takes.) */
#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"

static test_daemon server;

static void start_server(void)
{
    daemon_start(&server, NULL);
}

static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A growable string for building inputs. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap ? t->cap * 2 : 1 << 20;
        t->s = realloc(t->s, t->cap);
        ck_assert_ptr_nonnull(t->s);
    }
}

/* ---- the inputs, text and JSON, from one fixed seed each ------------- */

static void matrix_game(text *in, text *json, int n, int k)
{
    uint64_t seed = 1658;
    int *v = malloc(sizeof *v * (size_t)n * (size_t)n);
    for (int i = 0; i < n * n; i++)
        v[i] = i + 1;
    for (int i = n * n - 1; i > 0; i--) {
        int j = (int)(next(&seed) % (uint64_t)(i + 1)), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    put(in, "%d %d\n", n, k);
    put(json, "{\"k\":%d,\"matrix\":[", k);
    for (int i = 0; i < n; i++) {
        put(json, "%s[", i ? "," : "");
        for (int j = 0; j < n; j++) {
            put(in, "%d%c", v[i * n + j], j == n - 1 ? '\n' : ' ');
            put(json, "%s%d", j ? "," : "", v[i * n + j]);
        }
        put(json, "]");
    }
    put(json, "]}");
    free(v);
}

static void grid(text *in, text *json, int n, int with_size, const char *cells, int percent)
{
    uint64_t seed = 2009;
    if (with_size == 2)
        put(in, "%d %d\n", n, n);
    else
        put(in, "%d\n", n);
    put(json, "{\"grid\":[");
    char *row = malloc((size_t)n + 1);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            row[j] = cells[(int)(next(&seed) % 100) < percent];
        row[n] = '\0';
        put(in, "%s\n", row);
        put(json, "%s\"%s\"", i ? "," : "", row);
    }
    put(json, "]}");
    free(row);
}

static void nim_shortcuts(text *in, text *json, int n, int m)
{
    uint64_t seed = 1458;
    put(in, "%d %d\n", n, m);
    put(json, "{\"shortcuts\":[");
    for (int i = 0; i < n; i++) {
        /* y ranges are disjoint per i, so the pairs are distinct. */
        long x = (long)(next(&seed) % 1000000000),
             y = (long)i * 10000 + (long)(next(&seed) % 10000);
        put(in, "%ld %ld\n", x, y);
        put(json, "%s[%ld,%ld]", i ? "," : "", x, y);
    }
    put(json, "],\"queries\":[");
    for (int i = 0; i < m; i++) {
        long a = (long)(next(&seed) % 1000000000), b = (long)(next(&seed) % 1000000000);
        put(in, "%ld %ld\n", a, b);
        put(json, "%s[%ld,%ld]", i ? "," : "", a, b);
    }
    put(json, "]}");
}

static void staircase_chess(text *in, text *json, int n, int m)
{
    uint64_t seed = 4363;
    put(in, "%d %d\n", n, m);
    put(json, "{");
    for (int b = 0; b < 2; b++) {
        put(json, "%s\"%c\":[", b ? "," : "", b ? 'b' : 'a');
        for (int i = 0; i < n; i++) {
            put(json, "%s[", i ? "," : "");
            for (int j = 0; j < m; j++) {
                long v = (long)(next(&seed) % 100001);
                put(in, "%ld%c", v, j == m - 1 ? '\n' : ' ');
                put(json, "%s%ld", j ? "," : "", v);
            }
            put(json, "]");
        }
        put(json, "]");
    }
    put(json, "}");
}

/* ---- one case: HTTP text == CLI text; HTTP JSON twin -> same answer --- */

static json_t *answer_as_json(const char *game, const char *judge_text)
{
    json_t *answer = json_object();
    json_object_set_new(answer, "game", json_string(game));
    if (strcmp(game, "prime-chocolate") == 0) {
        char word[8] = "";
        sscanf(judge_text, "%7s", word);
        json_object_set_new(answer, "winner", json_string(word));
        return answer;
    }
    if (strcmp(game, "staircase-chess") == 0) {
        json_object_set_new(answer, "score_difference",
                            json_integer(strtoll(judge_text, NULL, 10)));
        return answer;
    }
    json_t *lines = json_array();
    char *copy = strdup(judge_text), *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        json_array_append_new(lines, json_string(l));
    free(copy);
    if (strcmp(game, "matrix-game") == 0) {
        json_object_set_new(answer, "outcomes", lines);
    } else if (strcmp(game, "nim-shortcuts") == 0) {
        json_object_set_new(answer, "answers", lines);
    } else { /* grid-walk */
        const char *verdict = json_string_value(json_array_get(lines, 0));
        json_object_set_new(answer, "verdict", json_string(verdict));
        json_t *cells = json_array();
        for (size_t i = 1; i < json_array_size(lines); i++) {
            int r, c;
            ck_assert_int_eq(sscanf(json_string_value(json_array_get(lines, i)), "%d %d", &r, &c),
                             2);
            json_array_append_new(cells, json_pack("[i,i]", r, c));
        }
        json_object_set_new(answer, "winning_cells", cells);
        json_decref(lines);
    }
    return answer;
}

static void check_large(const char *game, text *in, text *json)
{
    const char *args[] = {"solve", game, NULL};
    char *expected, *err;
    ck_assert_msg(run_cli(args, in->s, in->len, &expected, &err) == 0, "%s cli: %s", game, err);
    free(err);

    char url[256];
    snprintf(url, sizeof url, "%s/solve/%s?format=text", server.base, game);
    http_call c = {"POST", url, NULL, in->s, in->len, 0};
    http_reply r = http_do(&c);
    ck_assert_msg(r.status == 200, "%s text: %ld %.300s", game, r.status, r.body);
    ck_assert_uint_eq(r.len, strlen(expected));
    ck_assert_msg(strcmp(r.body, expected) == 0, "%s: HTTP and CLI answers differ", game);
    http_reply_free(&r);

    const char *json_type[] = {"Content-Type: application/json", NULL};
    snprintf(url, sizeof url, "%s/solve/%s", server.base, game);
    http_call j = {"POST", url, json_type, json->s, json->len, 0};
    r = http_do(&j);
    ck_assert_msg(r.status == 200, "%s json: %ld %.300s", game, r.status, r.body);
    json_t *got = json_loadb(r.body, r.len, 0, NULL), *want = answer_as_json(game, expected);
    ck_assert_msg(got != NULL && json_equal(got, want), "%s: the JSON answer differs", game);
    json_decref(got);
    json_decref(want);
    http_reply_free(&r);
    free(expected);
    free(in->s);
    free(json->s);
}

START_TEST(test_matrix_game_2000)
{
    text in = {0}, json = {0};
    matrix_game(&in, &json, 2000, _i == 0 ? 1 : 1000);
    check_large("matrix-game", &in, &json);
}
END_TEST

START_TEST(test_prime_chocolate_2000)
{
    text in = {0}, json = {0};
    grid(&in, &json, 2000, 1, "-X", 1);
    check_large("prime-chocolate", &in, &json);
}
END_TEST

START_TEST(test_grid_walk_100)
{
    text in = {0}, json = {0};
    grid(&in, &json, 100, 2, ".#", 10);
    check_large("grid-walk", &in, &json);
}
END_TEST

START_TEST(test_nim_shortcuts_100000)
{
    text in = {0}, json = {0};
    nim_shortcuts(&in, &json, 100000, 100000);
    check_large("nim-shortcuts", &in, &json);
}
END_TEST

START_TEST(test_staircase_chess_10)
{
    text in = {0}, json = {0};
    staircase_chess(&in, &json, 10, 10);
    check_large("staircase-chess", &in, &json);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("large");
    TCase *tc = tcase_create("official limits");
    tcase_set_timeout(tc, 600);
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_add_loop_test(tc, test_matrix_game_2000, 0, 2);
    tcase_add_test(tc, test_prime_chocolate_2000);
    tcase_add_test(tc, test_grid_walk_100);
    tcase_add_test(tc, test_nim_shortcuts_100000);
    tcase_add_test(tc, test_staircase_chess_10);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* test_judge_set.c - POST /judge/{game} with a whole test set, and judge
 * items in /batch, against the real daemon.
 *
 * The test sets are built from the public test data and each game's
 * /games example: the right output is what the real solver answers
 * (/solve?format=text), and each case's expected verdict follows from how
 * it was made (the solver's output and the published .out: accepted; an
 * extra token: wrong_answer; every token on one line: presentation_error
 * when the output has several lines).  The summary (verdict, first_failed,
 * counts) is checked against those, and every case against the single
 * /judge answer for the same submission.  A second daemon with tiny limits
 * checks --judge-max-cases and --judge-max-bytes at and past the bound. */
#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "data.h"

#define MAX_INPUTS 64

static test_daemon server;

/* One judge input of the test data (or a game's example). */
typedef struct input_case {
    const char *game;
    char *in;
    char *published; /* the .out file, NULL for an example */
} input_case;

static input_case inputs[MAX_INPUTS];
static int ninputs;

/* A verdict the test expects, in the order of the answer's counts. */
enum { ACCEPTED, WRONG_ANSWER, PRESENTATION_ERROR, ERROR, NVERDICTS };
static const char *const verdict_names[] = {"accepted", "wrong_answer", "presentation_error",
                                            "error"};

static void start_server(void)
{
    daemon_start(&server, NULL);
}

static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

/* POST body (JSON unless type says otherwise) to d at path. */
static http_reply post_json(const test_daemon *d, const char *path, const char *body)
{
    char u[512];
    snprintf(u, sizeof u, "%s%s", d->base, path);
    const char *const headers[] = {"Content-Type: application/json", NULL};
    http_call c = {"POST", u, headers, body, strlen(body), 0};
    return http_do(&c);
}

/* POST a JSON value (taken) to path; the answer parsed, with its status in *status. */
static json_t *post_value(const test_daemon *d, const char *path, json_t *v, long *status)
{
    char *body = json_dumps(v, JSON_COMPACT);
    json_decref(v);
    ck_assert_ptr_nonnull(body);
    http_reply r = post_json(d, path, body);
    free(body);
    json_error_t err;
    json_t *answer = json_loadb(r.body, r.len, 0, &err);
    ck_assert_msg(answer != NULL, "%s: not JSON (%s): %s", path, err.text, r.body);
    *status = r.status;
    http_reply_free(&r);
    return answer;
}

/* Keep one data case (data_each_case's callback). */
static void keep_case(const char *game, const char *in, size_t in_len, const char *out)
{
    ck_assert_int_lt(ninputs, MAX_INPUTS);
    inputs[ninputs].game = game;
    inputs[ninputs].in = strndup(in, in_len);
    inputs[ninputs].published = strdup(out);
    ninputs++;
}

/* Collect the test data and every game's example text (from /games). */
static void collect_inputs(void)
{
    ninputs = 0;
    data_each_case(keep_case);
    char u[512];
    snprintf(u, sizeof u, "%s/games", server.base);
    http_call c = {"GET", u, NULL, NULL, 0, 0};
    http_reply r = http_do(&c);
    json_t *j = json_loadb(r.body, r.len, 0, NULL);
    ck_assert_ptr_nonnull(j);
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(j, "games"), i, g)
    {
        const char *name = json_string_value(json_object_get(g, "name"));
        const char *text =
            json_string_value(json_object_get(json_object_get(g, "example"), "text"));
        ck_assert_ptr_nonnull(text);
        ck_assert_int_lt(ninputs, MAX_INPUTS);
        /* The game's name outlives j: point at the data's copy of it. */
        for (int k = 0; k < ninputs; k++)
            if (strcmp(inputs[k].game, name) == 0)
                inputs[ninputs].game = inputs[k].game;
        ck_assert_ptr_nonnull(inputs[ninputs].game);
        inputs[ninputs].in = strdup(text);
        inputs[ninputs].published = NULL;
        ninputs++;
    }
    json_decref(j);
    http_reply_free(&r);
}

/* The real solver's judge output for an input. */
static char *solver_output(const char *game, const char *in)
{
    char u[512];
    snprintf(u, sizeof u, "%s/solve/%s?format=text", server.base, game);
    const char *const headers[] = {"Content-Type: text/plain", NULL};
    http_call c = {"POST", u, headers, in, strlen(in), 0};
    http_reply r = http_do(&c);
    ck_assert_msg(r.status == 200, "%s: %ld %s", game, r.status, r.body);
    char *out = strdup(r.body);
    http_reply_free(&r);
    return out;
}

/* Are text's tokens on more than one line? */
static int several_lines(const char *text)
{
    int lines = 0, seen = 0;
    for (const char *p = text;; p++) {
        if (*p == '\n' || *p == '\0') {
            lines += seen;
            seen = 0;
            if (*p == '\0')
                break;
        } else if (*p != ' ' && *p != '\t' && *p != '\r') {
            seen = 1;
        }
    }
    return lines > 1;
}

/* text with every line break turned into a space, then one final LF. */
static char *one_line(const char *text)
{
    size_t n = strlen(text);
    char *s = malloc(n + 2);
    ck_assert_ptr_nonnull(s);
    for (size_t i = 0; i < n; i++)
        s[i] = text[i] == '\n' || text[i] == '\r' ? ' ' : text[i];
    s[n] = '\n';
    s[n + 1] = '\0';
    return s;
}

/* text followed by a token nobody expects. */
static char *extra_token(const char *text)
{
    size_t n = strlen(text);
    char *s = malloc(n + 4);
    ck_assert_ptr_nonnull(s);
    snprintf(s, n + 4, "%sX\n", text);
    return s;
}

/* A test set for one game and the verdict each case must get. */
typedef struct test_set {
    json_t *cases;
    int expect[4 * MAX_INPUTS + 1];
    int n;
} test_set;

/* Add {"input", "output"} (output taken) expecting verdict v. */
static void add_case(test_set *t, const char *in, char *out, int v)
{
    ck_assert_int_lt(t->n, (int)(sizeof t->expect / sizeof t->expect[0]));
    json_array_append_new(t->cases, json_pack("{s:s,s:s}", "input", in, "output", out));
    t->expect[t->n++] = v;
    free(out);
}

/* The game's set: per input the solver's output, the published one, an
 * extra token and the one-line reflow; one malformed input in the middle. */
static void build_set(const char *game, test_set *t)
{
    t->cases = json_array();
    t->n = 0;
    for (int i = 0; i < ninputs; i++) {
        if (strcmp(inputs[i].game, game) != 0)
            continue;
        char *right = solver_output(game, inputs[i].in);
        add_case(t, inputs[i].in, strdup(right), ACCEPTED);
        if (inputs[i].published)
            add_case(t, inputs[i].in, strdup(inputs[i].published), ACCEPTED);
        add_case(t, inputs[i].in, one_line(right),
                 several_lines(right) ? PRESENTATION_ERROR : ACCEPTED);
        add_case(t, inputs[i].in, extra_token(right), WRONG_ANSWER);
        if (i == 0)
            add_case(t, "not a judge input\n", strdup(""), ERROR);
        free(right);
    }
    ck_assert_int_gt(t->n, 3);
}

/* The index of name in verdict_names, failing the test when none. */
static int verdict_index(const char *name)
{
    for (int k = 0; k < NVERDICTS; k++)
        if (name && strcmp(name, verdict_names[k]) == 0)
            return k;
    ck_abort_msg("unknown verdict %s", name ? name : "(none)");
    return -1;
}

/* The single /judge answer for case c must be the set's entry e, but for
 * "game" against "status". */
static void check_single(const char *game, const json_t *c, const json_t *e)
{
    char path[128];
    long status;
    snprintf(path, sizeof path, "/judge/%s", game);
    json_t *one = post_value(&server, path, json_deep_copy(c), &status);
    ck_assert_int_eq(status, json_integer_value(json_object_get(e, "status")));
    json_t *mine = json_deep_copy(e);
    json_object_del(mine, "status");
    if (status == 200) {
        ck_assert_str_eq(json_string_value(json_object_get(one, "game")), game);
        json_object_del(one, "game");
        ck_assert_msg(json_equal(one, mine), "%s: the single judge differs", game);
    } else {
        json_t *a = json_object_get(one, "error"), *b = json_object_get(mine, "error");
        ck_assert_str_eq(json_string_value(json_object_get(a, "code")),
                         json_string_value(json_object_get(b, "code")));
    }
    json_decref(mine);
    json_decref(one);
}

#define GAME(ident, url_name) url_name,
static const char *const games[] = {
#include "games.def"
};
#undef GAME

START_TEST(test_set_per_game)
{
    const char *game = games[_i];
    collect_inputs();
    test_set t;
    build_set(game, &t);
    char path[128];
    long status;
    snprintf(path, sizeof path, "/judge/%s", game);
    json_t *answer = post_value(&server, path, json_pack("{s:O}", "cases", t.cases), &status);
    ck_assert_msg(status == 200, "%s: %ld", game, status);
    ck_assert_str_eq(json_string_value(json_object_get(answer, "game")), game);
    ck_assert_int_eq(json_integer_value(json_object_get(answer, "total")), t.n);
    const json_t *entries = json_object_get(answer, "cases");
    ck_assert_int_eq((int)json_array_size(entries), t.n);
    int counts[NVERDICTS] = {0}, first = -1;
    for (int i = 0; i < t.n; i++) {
        const json_t *e = json_array_get(entries, (size_t)i);
        long st = (long)json_integer_value(json_object_get(e, "status"));
        int got =
            st == 200 ? verdict_index(json_string_value(json_object_get(e, "verdict"))) : ERROR;
        ck_assert_msg(got == t.expect[i], "%s case %d: %s, expected %s", game, i,
                      verdict_names[got], verdict_names[t.expect[i]]);
        if (got == ERROR) {
            ck_assert_int_eq(st, 400);
            char field[32];
            snprintf(field, sizeof field, "cases[%d].input", i);
            ck_assert_str_eq(
                json_string_value(json_object_get(json_object_get(e, "error"), "field")), field);
        }
        counts[got]++;
        if (first < 0 && got != ACCEPTED)
            first = i;
        check_single(game, json_array_get(t.cases, (size_t)i), e);
    }
    const json_t *c = json_object_get(answer, "counts");
    for (int k = 0; k < NVERDICTS; k++)
        ck_assert_int_eq(json_integer_value(json_object_get(c, verdict_names[k])), counts[k]);
    ck_assert_int_eq(json_integer_value(json_object_get(answer, "first_failed")), first);
    ck_assert_str_eq(json_string_value(json_object_get(answer, "verdict")),
                     verdict_names[t.expect[first]]);
    json_decref(answer);
    json_decref(t.cases);
}
END_TEST

/* A set of only right outputs is accepted with first_failed null. */
START_TEST(test_set_all_accepted)
{
    collect_inputs();
    json_t *cases = json_array();
    int n = 0;
    for (int i = 0; i < ninputs; i++) {
        if (strcmp(inputs[i].game, "prime-chocolate") != 0)
            continue;
        char *right = solver_output(inputs[i].game, inputs[i].in);
        json_array_append_new(cases,
                              json_pack("{s:s,s:s}", "input", inputs[i].in, "output", right));
        free(right);
        n++;
    }
    long status;
    json_t *a =
        post_value(&server, "/judge/prime-chocolate", json_pack("{s:o}", "cases", cases), &status);
    ck_assert_int_eq(status, 200);
    ck_assert_str_eq(json_string_value(json_object_get(a, "verdict")), "accepted");
    ck_assert(json_is_null(json_object_get(a, "first_failed")));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(a, "counts"), "accepted")),
                     n);
    json_decref(a);
}
END_TEST

/* Many cases spread over the workers come back in their order. */
START_TEST(test_set_order)
{
    const char *in = "2 2\n3 0\n0 1\n0 0\n1 1\n";
    char *right = solver_output("nim-shortcuts", in);
    json_t *cases = json_array();
    for (int i = 0; i < 300; i++)
        json_array_append_new(cases, json_pack("{s:s,s:s}", "input", in, "output",
                                               i % 7 == 3 ? "WIN\nWIN\n" : right));
    free(right);
    long status;
    json_t *a =
        post_value(&server, "/judge/nim-shortcuts", json_pack("{s:o}", "cases", cases), &status);
    ck_assert_int_eq(status, 200);
    const json_t *entries = json_object_get(a, "cases");
    ck_assert_int_eq((int)json_array_size(entries), 300);
    for (int i = 0; i < 300; i++)
        ck_assert_str_eq(
            json_string_value(json_object_get(json_array_get(entries, (size_t)i), "verdict")),
            i % 7 == 3 ? "wrong_answer" : "accepted");
    ck_assert_int_eq(json_integer_value(json_object_get(a, "first_failed")), 3);
    json_decref(a);
}
END_TEST

/* Judge items in /batch get the same verdicts as /judge, next to solve items. */
START_TEST(test_batch_judge_items)
{
    collect_inputs();
    json_t *items = json_array();
    int expect[2 * MAX_INPUTS];
    int n = 0;
    for (int i = 0; i < ninputs; i++) {
        char *right = solver_output(inputs[i].game, inputs[i].in);
        json_array_append_new(items, json_pack("{s:s,s:{s:s,s:s}}", "game", inputs[i].game, "judge",
                                               "input", inputs[i].in, "output", right));
        expect[n++] = ACCEPTED;
        char *wrong = extra_token(right);
        json_array_append_new(items, json_pack("{s:s,s:{s:s,s:s}}", "game", inputs[i].game, "judge",
                                               "input", inputs[i].in, "output", wrong));
        expect[n++] = WRONG_ANSWER;
        free(wrong);
        free(right);
    }
    json_array_append_new(items, json_pack("{s:s,s:s}", "game", "nim-shortcuts", "input",
                                           "2 2\n3 0\n0 1\n0 0\n1 1\n"));
    json_array_append_new(items, json_pack("{s:s,s:{s:s}}", "game", "nim-shortcuts", "judge",
                                           "input", "1 1\n0 0\n0 0\n"));
    long status;
    json_t *a = post_value(&server, "/batch", json_pack("{s:o}", "items", items), &status);
    ck_assert_int_eq(status, 200);
    const json_t *answers = json_object_get(a, "items");
    for (int i = 0; i < n; i++) {
        const json_t *r = json_object_get(json_array_get(answers, (size_t)i), "result");
        ck_assert_str_eq(json_string_value(json_object_get(r, "verdict")),
                         verdict_names[expect[i]]);
        ck_assert_str_eq(json_string_value(json_object_get(r, "game")), inputs[i / 2].game);
    }
    const json_t *solved = json_array_get(answers, (size_t)n);
    ck_assert_int_eq(json_integer_value(json_object_get(solved, "status")), 200);
    ck_assert_ptr_nonnull(json_object_get(json_object_get(solved, "result"), "answers"));
    const json_t *bad = json_array_get(answers, (size_t)n + 1);
    ck_assert_int_eq(json_integer_value(json_object_get(bad, "status")), 400);
    char field[48];
    snprintf(field, sizeof field, "items[%d].judge.output", n + 1);
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(bad, "error"), "field")),
                     field);
    ck_assert_int_eq(json_integer_value(json_object_get(a, "failed")), 1);
    json_decref(a);
}
END_TEST

/* --judge-max-cases and --judge-max-bytes: at the bound answered, past it
 * refused naming the field and the option. */
START_TEST(test_limits)
{
    test_daemon small;
    const char *const flags[] = {"--judge-max-cases", "2", "--judge-max-bytes", "34", NULL};
    daemon_start(&small, flags);
    static const struct {
        const char *body;
        long status;
        const char *code, *message;
    } cases[] = {
        /* 2 cases of 12 + 5 bytes each: exactly at both limits */
        {"{\"cases\": [{\"input\": \"1 1\\n0 0\\n0 0\\n\", \"output\": \"LOSE\\n\"},"
         "{\"input\": \"1 1\\n0 0\\n1 1\\n\", \"output\": \"WIN\\n \"}]}",
         200, NULL, NULL},
        {"{\"cases\": [{\"input\": \"1 1\\n0 0\\n0 0\\n\", \"output\": \"LOSE\\n\"},"
         "{\"input\": \"1 1\\n0 0\\n1 1\\n\", \"output\": \"WIN\\n  \"}]}",
         413, "too_large", "35 bytes, over the limit of 34 (--judge-max-bytes)"},
        {"{\"cases\": [{\"input\": \"\", \"output\": \"\"}, {\"input\": \"\", \"output\": \"\"},"
         "{\"input\": \"\", \"output\": \"\"}]}",
         400, "bad_input", "3 cases, over the limit of 2 (--judge-max-cases)"},
        {"{\"cases\": []}", 400, "bad_input", "cases: expected 1 to 2 elements"},
        {"{\"cases\": 5}", 400, "bad_input", "cases: expected an array"},
        {"{\"cases\": [], \"input\": \"\"}", 400, "bad_input", "not both"},
        {"{\"cases\": [], \"more\": 1}", 400, "bad_input", "more"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        http_reply r = post_json(&small, "/judge/nim-shortcuts", cases[i].body);
        ck_assert_msg(r.status == cases[i].status, "%s: %ld %s", cases[i].body, r.status, r.body);
        json_t *j = json_loadb(r.body, r.len, 0, NULL);
        ck_assert_ptr_nonnull(j);
        if (cases[i].code) {
            json_t *e = json_object_get(j, "error");
            ck_assert_str_eq(json_string_value(json_object_get(e, "code")), cases[i].code);
            ck_assert_msg(
                strstr(json_string_value(json_object_get(e, "message")), cases[i].message) != NULL,
                "%s", r.body);
        } else {
            ck_assert_int_eq(json_integer_value(json_object_get(j, "total")), 2);
        }
        json_decref(j);
        http_reply_free(&r);
    }
    ck_assert_int_eq(daemon_stop(&small), 0);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("judge_set");
    TCase *tc = tcase_create("daemon");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_add_loop_test(tc, test_set_per_game, 0, (int)(sizeof games / sizeof games[0]));
    tcase_add_test(tc, test_set_all_accepted);
    tcase_add_test(tc, test_set_order);
    tcase_add_test(tc, test_batch_judge_items);
    tcase_add_test(tc, test_limits);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

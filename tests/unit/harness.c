/* harness.c - the shared part of the solver unit tests. */
#include "harness.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "line.h"
#include "puzzle.h"

#ifndef GJ_DATA_DIR
#define GJ_DATA_DIR "tests/data"
#endif

char *harness_run(const gj_game *g, harness_input how, const char *in, size_t len,
                  harness_output out, const long *limits, gj_error *e)
{
    long defaults[GJ_MAX_LIMITS];
    if (limits == NULL) {
        for (int i = 0; i < GJ_MAX_LIMITS; i++)
            defaults[i] = i < g->nlimits ? g->limits[i].def : 0;
        limits = defaults;
    }
    gj_error_clear(e);
    void *pos =
        how == IN_TEXT ? g->parse_text(in, len, limits, e) : g->parse_json(in, len, limits, e);
    if (pos == NULL) {
        ck_assert_msg(e->kind != GJ_OK, "%s: parse failed without an error", g->name);
        return NULL;
    }
    if (g->solve(pos, e) != 0) {
        g->free_position(pos);
        return NULL;
    }
    gj_buf b;
    buf_init(&b);
    if (out == OUT_TEXT)
        g->write_text(pos, &b);
    else
        g->write_json(pos, &b);
    buf_putc(&b, '\0');
    g->free_position(pos);
    ck_assert_msg(!b.failed, "%s: writing the answer ran out of memory", g->name);
    return buf_take(&b, NULL);
}

char *harness_text(const gj_game *g, const char *in)
{
    gj_error e;
    char *answer = harness_run(g, IN_TEXT, in, strlen(in), OUT_TEXT, NULL, &e);
    ck_assert_msg(answer != NULL, "%s: unexpected error: %s", g->name, e.message);
    return answer;
}

static gj_error expect_error(const gj_game *g, harness_input how, const char *in)
{
    gj_error e;
    char *answer = harness_run(g, how, in, strlen(in), OUT_TEXT, NULL, &e);
    ck_assert_msg(answer == NULL, "%s: expected an error for input [%s], got answer [%s]", g->name,
                  in, answer ? answer : "");
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    return e;
}

gj_error harness_text_error(const gj_game *g, const char *in)
{
    return expect_error(g, IN_TEXT, in);
}

gj_error harness_json_error(const gj_game *g, const char *in)
{
    return expect_error(g, IN_JSON, in);
}

char *harness_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 4096, n = 0;
    char *data = malloc(cap);
    for (;;) {
        if (data == NULL)
            break;
        n += fread(data + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        cap *= 2;
        char *more = realloc(data, cap);
        if (more == NULL) {
            free(data);
            data = NULL;
        } else {
            data = more;
        }
    }
    fclose(f);
    if (data == NULL)
        return NULL;
    data[n] = '\0';
    if (len)
        *len = n;
    return data;
}

const char *harness_data_dir(void)
{
    const char *env = getenv("GJ_DATA_DIR");
    return env ? env : GJ_DATA_DIR;
}

uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t rng_below(uint64_t *state, uint64_t n)
{
    return rng_next(state) % n;
}

void rng_shuffled(uint64_t *state, int *value, long count)
{
    for (long c = 0; c < count; c++)
        value[c] = (int)c + 1;
    for (long c = count - 1; c > 0; c--) {
        long d = (long)rng_below(state, (uint64_t)c + 1);
        int t = value[c];
        value[c] = value[d];
        value[d] = t;
    }
}

void *harness_read_fed(const gj_body_reader *rd, const char *body, size_t len, const long *lim,
                       size_t piece, int feed_empty, uint64_t *rng, gj_error *e)
{
    size_t announced[] = {0, len, len / 2, 2 * len + 7, SIZE_MAX};
    void *r = rd->open(lim, announced[rng_below(rng, 5)], e);
    ck_assert_ptr_nonnull(r);
    size_t at = 0;
    while (at < len || (at == 0 && piece == 0 && feed_empty)) {
        size_t n = piece == 0 ? len : piece == 1 ? 1 : 1 + (size_t)rng_below(rng, piece);
        if (n > len - at)
            n = len - at;
        if (rd->feed(r, body + at, n, e) != 0) {
            rd->close(r);
            return NULL;
        }
        at += n;
        if (piece == 0)
            break;
    }
    return rd->finish(r, e);
}

/* A test case with the timeout the caller asked for, if any. */
static TCase *new_tcase(const char *name, double timeout)
{
    TCase *tc = tcase_create(name);
    if (timeout > 0)
        tcase_set_timeout(tc, timeout);
    return tc;
}

void harness_add(Suite *s, const harness_case *cases, size_t n, double timeout)
{
    for (size_t i = 0; i < n; i++) {
        TCase *tc = new_tcase(cases[i].name, timeout);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
}

void harness_add_tagged(Suite *s, const harness_case *cases, size_t n, double timeout,
                        const char *tags)
{
    for (size_t i = 0; i < n; i++) {
        TCase *tc = new_tcase(cases[i].name, timeout);
        tcase_set_tags(tc, tags);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
}

void harness_add_loop(Suite *s, const char *name, const TTest *test, int n, double timeout)
{
    TCase *tc = new_tcase(name, timeout);
    tcase_add_loop_test(tc, test, 0, n);
    suite_add_tcase(s, tc);
}

Suite *harness_suite(const char *name, const harness_case *cases, size_t n, double timeout)
{
    Suite *s = suite_create(name);
    harness_add(s, cases, n, timeout);
    return s;
}

int harness_main(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}

const gj_game *harness_game(int i)
{
    size_t n;
    const gj_game *const *all = games_all(&n);
    ck_assert_int_lt(i, (int)n);
    return all[i];
}

char *harness_analyze(const gj_game *g, const json_t *req, gj_error *e)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    char *body = json_dumps(req, JSON_COMPACT);
    ck_assert_ptr_nonnull(body);
    gj_buf out;
    buf_init(&out);
    gj_error_clear(e);
    int rc = line_analyze(g, body, strlen(body), limits, &out, e);
    free(body);
    if (rc != 0) {
        buf_free(&out);
        return NULL;
    }
    buf_putc(&out, '\0');
    return buf_take(&out, NULL);
}

json_t *harness_step_entry(const struct puzzle_step *s, long i)
{
    gj_buf text;
    buf_init(&text);
    gj_error e;
    size_t bytes;
    buf_putc(&text, '{');
    ck_assert(i >= 0 && i < s->legal);
    ck_assert_int_eq(s->at.ops->write_move(s->at.pos, &s->moves[i], 0, &text, &bytes, &e), 0);
    buf_putc(&text, '}');
    ck_assert(!text.failed);
    json_t *entry = json_loadb(text.data, text.len, 0, NULL);
    ck_assert_ptr_nonnull(entry);
    buf_free(&text);
    return entry;
}

/* test_staircase_chess.c - the staircase-chess solver against the rules.
 *
 * The fast solver ranks staircase profiles; the oracle plays every game out
 * cell by cell, and the full-size checks use a top-down search keyed on the
 * row lengths, so no check shares the ranking with the solver. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "harness.h"
#include "staircase_chess_oracle.h"

#define G (&game_staircase_chess)

#define MAX_SIDE  26
#define MAX_CELLS (MAX_SIDE * MAX_SIDE)

typedef struct board {
    int n, m;
    long a[MAX_CELLS], b[MAX_CELLS];
} board;

/* The judge text of a board, malloc'd. */
static char *board_text(const board *g)
{
    gj_buf out;
    buf_init(&out);
    buf_put_long(&out, g->n);
    buf_putc(&out, ' ');
    buf_put_long(&out, g->m);
    buf_putc(&out, '\n');
    for (int k = 0; k < 2; k++) {
        const long *v = k == 0 ? g->a : g->b;
        for (int i = 0; i < g->n; i++) {
            for (int j = 0; j < g->m; j++) {
                buf_put_long(&out, v[i * g->m + j]);
                buf_putc(&out, j + 1 < g->m ? ' ' : '\n');
            }
        }
    }
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    return buf_take(&out, NULL);
}

/* The JSON twin of a board, malloc'd. */
static char *board_json(const board *g)
{
    gj_buf out;
    buf_init(&out);
    for (int k = 0; k < 2; k++) {
        const long *v = k == 0 ? g->a : g->b;
        buf_puts(&out, k == 0 ? "{\"a\": [" : "], \"b\": [");
        for (int i = 0; i < g->n; i++) {
            buf_puts(&out, i ? ", [" : "[");
            for (int j = 0; j < g->m; j++) {
                if (j)
                    buf_putc(&out, ',');
                buf_put_long(&out, v[i * g->m + j]);
            }
            buf_putc(&out, ']');
        }
    }
    buf_puts(&out, "]}");
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    return buf_take(&out, NULL);
}

/* Parse judge text with strtol (not the project's reader). */
static void board_from_text(const char *text, board *g)
{
    char *p;
    g->n = (int)strtol(text, &p, 10);
    g->m = (int)strtol(p, &p, 10);
    ck_assert(g->n >= 1 && g->n <= MAX_SIDE && g->m >= 1 && g->m <= MAX_SIDE);
    for (int k = 0; k < g->n * g->m; k++)
        g->a[k] = strtol(p, &p, 10);
    for (int k = 0; k < g->n * g->m; k++)
        g->b[k] = strtol(p, &p, 10);
}

static char *expected_json(long score)
{
    char *s = malloc(96);
    ck_assert(s != NULL);
    snprintf(s, 96, "{\"game\":\"staircase-chess\",\"score_difference\":%ld}", score);
    return s;
}

/* Solve a board from text and from JSON under `limits` (NULL: defaults);
 * both answers must agree.  Returns the score. */
static long solve_board(const board *g, const long *limits)
{
    char *text = board_text(g), *json = board_json(g);
    gj_error e;
    char *t = harness_run(G, IN_TEXT, text, strlen(text), OUT_TEXT, limits, &e);
    ck_assert_msg(t != NULL, "unexpected error %s on input:\n%s", e.message, text);
    char *j = harness_run(G, IN_JSON, json, strlen(json), OUT_JSON, limits, &e);
    ck_assert_msg(j != NULL, "unexpected error %s on input:\n%s", e.message, json);
    char *end;
    long score = strtol(t, &end, 10);
    ck_assert_msg(end != t && strcmp(end, "\n") == 0, "bad text answer [%s]", t);
    char *want = expected_json(score);
    ck_assert_msg(strcmp(j, want) == 0, "JSON answer %s, text answer %s, input:\n%s", j, t, text);
    free(want);
    free(text);
    free(json);
    free(t);
    free(j);
    return score;
}

static void fill(board *g, uint64_t *rng, long hi)
{
    for (int k = 0; k < g->n * g->m; k++) {
        g->a[k] = (long)rng_below(rng, (uint64_t)hi + 1);
        g->b[k] = (long)rng_below(rng, (uint64_t)hi + 1);
    }
}

/* ---- the independent top-down search for full-size boards ----
 * A state is the vector of row lengths packed in base m + 1; a hash table
 * remembers the values.  Nothing here ranks profiles. */

typedef struct memo {
    const board *g;
    unsigned long long *key; /* stored key + 1, 0 = empty slot */
    long *value;
    size_t mask;
    unsigned long long weight[MAX_SIDE]; /* (m + 1)^i */
} memo;

static long *memo_slot(memo *t, unsigned long long key, int *found)
{
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & t->mask;
    while (t->key[h] != 0 && t->key[h] != key + 1)
        h = (h + 1) & t->mask;
    *found = t->key[h] != 0;
    t->key[h] = key + 1;
    return &t->value[h];
}

static long memo_search(memo *t, int *len, unsigned long long key, int stones)
{
    const board *g = t->g;
    if (stones == g->n * g->m)
        return 0;
    int found;
    long *slot = memo_slot(t, key, &found);
    if (found)
        return *slot;
    int black = stones % 2 == 0, any = 0;
    long best = 0;
    for (int i = 0; i < g->n; i++) {
        if (len[i] == g->m || (i > 0 && len[i - 1] == len[i]))
            continue;
        int cell = i * g->m + len[i];
        len[i]++;
        long rest = memo_search(t, len, key + t->weight[i], stones + 1);
        len[i]--;
        long v = black ? rest + g->a[cell] : rest - g->b[cell];
        if (!any || (black ? v > best : v < best))
            best = v;
        any = 1;
    }
    /* The table never grows, so the slot is still ours. */
    *slot = best;
    return best;
}

static long top_down(const board *g)
{
    /* C(n+m, n) profiles; keep the table at most half full. */
    double states = 1;
    for (int k = 1; k <= g->n; k++)
        states = states * (g->m + k) / k;
    size_t capacity = 1;
    while ((double)capacity < 2 * states)
        capacity *= 2;
    memo t = {.g = g, .mask = capacity - 1};
    t.key = calloc(capacity, sizeof *t.key);
    t.value = malloc(capacity * sizeof *t.value);
    ck_assert(t.key != NULL && t.value != NULL);
    t.weight[0] = 1;
    for (int i = 1; i < g->n; i++)
        t.weight[i] = t.weight[i - 1] * (unsigned long long)(g->m + 1);
    int len[MAX_SIDE] = {0};
    long v = memo_search(&t, len, 0, 0);
    free(t.key);
    free(t.value);
    return v;
}

static void transpose(const board *g, board *t)
{
    t->n = g->m;
    t->m = g->n;
    for (int i = 0; i < g->n; i++) {
        for (int j = 0; j < g->m; j++) {
            t->a[j * t->m + i] = g->a[i * g->m + j];
            t->b[j * t->m + i] = g->b[i * g->m + j];
        }
    }
}

/* ---- 1. against the oracle ---- */

static void oracle_case(board *g)
{
    static const long lim[] = {26, 26, 28}; /* 1 x 16 is beyond the default 10 */
    char want[64];
    ck_assert_int_eq(staircase_chess_oracle(g->n, g->m, g->a, g->b, want, sizeof want), 0);
    char *text = board_text(g);
    gj_error e;
    char *got = harness_run(G, IN_TEXT, text, strlen(text), OUT_TEXT, lim, &e);
    ck_assert_msg(got != NULL, "error %s on input:\n%s", e.message, text);
    ck_assert_msg(strcmp(got, want) == 0, "solver %s oracle %s on input:\n%s", got, want, text);
    char *json = board_json(g);
    char *gotj = harness_run(G, IN_JSON, json, strlen(json), OUT_JSON, lim, &e);
    char *wantj = expected_json(strtol(want, NULL, 10));
    ck_assert_msg(gotj != NULL && strcmp(gotj, wantj) == 0, "JSON %s, expected %s on input:\n%s",
                  gotj ? gotj : e.message, wantj, json);
    free(text);
    free(got);
    free(json);
    free(gotj);
    free(wantj);
}

START_TEST(test_random_against_oracle)
{
    /* Value ranges: ties (0..2), mid-range, the full range, the extremes. */
    static const long ranges[] = {0, 2, 9, 1000, 100000};
    uint64_t rng = 20180407;
    int cases = 0;
    for (int round = 0; round < 2400; round++) {
        board g;
        /* Mostly up to 12 cells; every tenth board is a 4 x 4 or 3 x 5. */
        do {
            g.n = 1 + (int)rng_below(&rng, 12);
            g.m = 1 + (int)rng_below(&rng, 12);
        } while (g.n * g.m > 12 && round % 10 != 0);
        if (g.n * g.m > STAIRCASE_CHESS_ORACLE_CELLS) {
            g.n = round % 20 == 0 ? 4 : 3;
            g.m = round % 20 == 0 ? 4 : 5;
        }
        long hi = ranges[round % 5];
        fill(&g, &rng, hi);
        if (round % 7 == 3) /* the odd-numbered official tests have B = 0 */
            memset(g.b, 0, sizeof g.b);
        if (round % 11 == 5) { /* values at the maximum */
            for (int k = 0; k < g.n * g.m; k++)
                g.a[k] = g.b[k] = 100000;
        }
        oracle_case(&g);
        cases++;
    }
    ck_assert_int_ge(cases, 2000);
}
END_TEST

START_TEST(test_every_shape_against_oracle)
{
    uint64_t rng = 5248;
    for (int n = 1; n <= 16; n++) {
        for (int m = 1; n * m <= STAIRCASE_CHESS_ORACLE_CELLS; m++) {
            board g = {.n = n, .m = m};
            fill(&g, &rng, 100000);
            oracle_case(&g);
        }
    }
}
END_TEST

/* ---- 2. the public test data ---- */

START_TEST(test_data_files)
{
    int files = 0;
    for (int k = 1; k < 100; k++) {
        char in_path[512], out_path[512];
        snprintf(in_path, sizeof in_path, "%s/staircase-chess/%02d.in", harness_data_dir(), k);
        snprintf(out_path, sizeof out_path, "%s/staircase-chess/%02d.out", harness_data_dir(), k);
        size_t in_len;
        char *in = harness_read_file(in_path, &in_len);
        if (in == NULL)
            break;
        char *want = harness_read_file(out_path, NULL);
        ck_assert_msg(want != NULL, "missing %s", out_path);
        gj_error e;
        char *got = harness_run(G, IN_TEXT, in, in_len, OUT_TEXT, NULL, &e);
        ck_assert_msg(got != NULL, "%s: %s", in_path, e.message);
        ck_assert_msg(strcmp(got, want) == 0, "%s: got [%s] want [%s]", in_path, got, want);

        board g;
        board_from_text(in, &g);
        char *json = board_json(&g);
        char *gotj = harness_run(G, IN_JSON, json, strlen(json), OUT_JSON, NULL, &e);
        char *wantj = expected_json(strtol(want, NULL, 10));
        ck_assert_msg(gotj != NULL && strcmp(gotj, wantj) == 0, "%s as JSON: %s", in_path,
                      gotj ? gotj : e.message);
        free(in);
        free(want);
        free(got);
        free(json);
        free(gotj);
        free(wantj);
        files++;
    }
    ck_assert_int_ge(files, 1);
}
END_TEST

/* ---- 3. the README's example ---- */

START_TEST(test_api_example)
{
    const char *in = "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]]}";
    gj_error e;
    char *got = harness_run(G, IN_JSON, in, strlen(in), OUT_JSON, NULL, &e);
    ck_assert_msg(got != NULL, "%s", e.message);
    ck_assert_str_eq(got, "{\"game\":\"staircase-chess\",\"score_difference\":2}");
    free(got);

    ck_assert_str_eq(G->example_json, in);
    got = harness_text(G, G->example_text);
    ck_assert_str_eq(got, "2\n");
    free(got);
    ck_assert_str_eq(G->name, "staircase-chess");
}
END_TEST

/* ---- 4. malformed input ---- */

static void text_error(const char *in, long line, long column, const char *part)
{
    gj_error e = harness_text_error(G, in);
    ck_assert_msg(strstr(e.message, part) != NULL, "message [%s] lacks [%s]", e.message, part);
    ck_assert_int_eq(e.line, line);
    ck_assert_int_eq(e.column, column);
}

static void json_error(const char *in, const char *field, const char *part)
{
    gj_error e = harness_json_error(G, in);
    ck_assert_msg(strstr(e.message, part) != NULL, "message [%s] lacks [%s]", e.message, part);
    ck_assert_str_eq(e.field, field);
}

START_TEST(test_text_errors)
{
    text_error("", 1, 0, "line 1: expected the number of rows n, found the end of the input");
    text_error("  \n", 2, 0, "expected the number of rows n, found the end of the input");
    text_error("x 3", 1, 1, "expected the number of rows n (an integer), found 'x'");
    text_error("0 3", 1, 1, "the number of rows n must be between 1 and 10, found 0");
    text_error("11 3", 1, 1, "the number of rows n must be between 1 and 10, found 11");
    text_error("2", 1, 0, "expected the number of columns m, found the end of the input");
    text_error("2 11", 1, 3, "the number of columns m must be between 1 and 10, found 11");
    text_error("2 -1", 1, 3, "the number of columns m must be between 1 and 10, found -1");
    text_error("2 3x", 1, 3, "expected the number of columns m (an integer), found '3x'");
    text_error("2 99999999999999999999999", 1, 3,
               "the number of columns m must be between 1 and 10, found 99999999999999999999999");
    text_error("2 3\n1 2 3\n4 5 100001\n", 3, 5,
               "line 3, column 5: row 2, column 3 of A must be between 0 and 100000, found 100001");
    text_error("1 2\n1 2\n3 -4\n", 3, 3, "row 1, column 2 of B must be between 0 and 100000");
    text_error("1 1\n1.5\n0\n", 2, 1, "expected row 1, column 1 of A (an integer), found '1.5'");
    text_error("1 1\n\xff\n0\n", 2, 1, "found '\\xff'");
    text_error("1 2\n1 2\n3", 3, 0,
               "line 3: expected row 1, column 2 of B, found the end of the input");
    text_error("2 2\n1 2\n3", 3, 0, "expected row 2, column 2 of A, found the end of the input");
    text_error("1 1\n5\n6\n7\n", 4, 1, "line 4, column 1: unexpected '7' after the end");
    text_error("1 1\n5\n6 x", 3, 3, "unexpected 'x' after the end of the position");
}
END_TEST

START_TEST(test_size_limit)
{
    const long lim[] = {20, 20, 20};
    gj_error e;
    const char *in = "11 10\n";
    ck_assert_ptr_null(harness_run(G, IN_TEXT, in, strlen(in), OUT_TEXT, lim, &e));
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_str_eq(e.message,
                     "line 1, column 4: n + m must be at most 20 (the size limit), found 21");

    board g = {.n = 11, .m = 10};
    char *json = board_json(&g);
    ck_assert_ptr_null(harness_run(G, IN_JSON, json, strlen(json), OUT_JSON, lim, &e));
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_str_eq(e.field, "a");
    ck_assert_str_eq(e.message, "a: n + m must be at most 20 (the size limit), found 21 (11 rows, "
                                "10 columns)");
    free(json);

    /* Raised row and column limits apply to both inputs. */
    const long wide[] = {12, 12, 24};
    g.n = 12;
    g.m = 12;
    char *text = board_text(&g);
    char *answer = harness_run(G, IN_TEXT, text, strlen(text), OUT_TEXT, wide, &e);
    ck_assert_str_eq(answer, "0\n");
    free(answer);
    free(text);
    g.m = 13;
    text = board_text(&g);
    ck_assert_ptr_null(harness_run(G, IN_TEXT, text, strlen(text), OUT_TEXT, wide, &e));
    ck_assert_str_eq(
        e.message, "line 1, column 4: the number of columns m must be between 1 and 12, found 13");
    free(text);
}
END_TEST

START_TEST(test_json_errors)
{
    json_error("", "", "invalid JSON");
    json_error("{\"a\": [[1]], \"b\": [[1]]", "", "invalid JSON");
    json_error("{\"a\": [[1]], \"a\": [[1]], \"b\": [[1]]}", "", "duplicate");
    json_error("[]", "", "the JSON body must be an object, found an array");
    json_error("{\"a\": [[1]]}", "b", "b: missing required field");
    json_error("{\"a\": [[1]], \"b\": [[1]], \"c\": 1}", "c", "unknown field");
    json_error("{\"a\": 5, \"b\": [[1]]}", "a", "a: expected an array, found an integer");
    json_error("{\"a\": [], \"b\": []}", "a", "a: expected 1 to 10 elements, found 0");
    json_error("{\"a\": [5], \"b\": [[1]]}", "a[0]", "a[0]: expected an array, found an integer");
    json_error("{\"a\": [[]], \"b\": [[]]}", "a[0]", "a[0]: expected 1 to 10 elements, found 0");
    json_error("{\"a\": [[1,2],[3]], \"b\": [[1,2],[3,4]]}", "a[1]",
               "a[1]: has 1 cell, expected 2 as in a[0]; all rows must have the same length");
    json_error("{\"a\": [[1,2],3], \"b\": [[1,2],[3,4]]}", "a[1]",
               "a[1]: expected an array, found an integer");
    json_error("{\"a\": [[\"1\"]], \"b\": [[1]]}", "a[0][0]",
               "a[0][0]: expected an integer, found a string");
    json_error("{\"a\": [[1.5]], \"b\": [[1]]}", "a[0][0]", "found a number with a fraction");
    json_error("{\"a\": [[true]], \"b\": [[1]]}", "a[0][0]", "found a boolean");
    json_error("{\"a\": [[null]], \"b\": [[1]]}", "a[0][0]", "found null");
    json_error("{\"a\": [[1, 100001]], \"b\": [[1, 1]]}", "a[0][1]",
               "a[0][1]: must be between 0 and 100000, found 100001");
    json_error("{\"a\": [[1, 1]], \"b\": [[1, -1]]}", "b[0][1]",
               "b[0][1]: must be between 0 and 100000, found -1");
    json_error("{\"a\": [[1]], \"b\": [[1e3]]}", "b[0][0]", "found a number with a fraction");
    json_error("{\"a\": [[1],[2]], \"b\": [[1]]}", "b",
               "b: has 1 row, expected 2 as in a; a and b must have the same shape");
    json_error("{\"a\": [[1]], \"b\": [[1],[2],[3]]}", "b",
               "b: has 3 rows, expected 1 as in a; a and b must have the same shape");
    json_error("{\"a\": [[1,2]], \"b\": [[1,2,3]]}", "b[0]",
               "b[0]: has 3 cells, expected 2 as in a[0]; a and b must have the same shape");
    json_error("{\"a\": [[1]], \"b\": {}}", "b", "b: expected an array, found an object");
    json_error("{\"a\": [[1]], \"b\": [[]]}", "b[0]", "b[0]: expected 1 to 10 elements, found 0");
    json_error("{\"a\": [[1]], \"b\": [\"1\"]}", "b[0]", "b[0]: expected an array, found a string");
    json_error("{\"a\": [[1],[1],[1],[1],[1],[1],[1],[1],[1],[1],[1]], \"b\": []}", "a",
               "a: expected 1 to 10 elements, found 11");
    json_error("{\"a\": [[1,1,1,1,1,1,1,1,1,1,1]], \"b\": []}", "a[0]",
               "a[0]: expected 1 to 10 elements, found 11");
    json_error("{\"a\": [[1]], \"b\": [[1],[1],[1],[1],[1],[1],[1],[1],[1],[1],[1]]}", "b",
               "b: expected 1 to 10 elements, found 11");
}
END_TEST

/* ---- 5. the largest official size ---- */

START_TEST(test_largest_official)
{
    uint64_t rng = 0x10b10;
    for (int round = 0; round < 3; round++) {
        board g = {.n = 10, .m = 10}, t;
        fill(&g, &rng, 100000);
        if (round == 1)
            memset(g.b, 0, sizeof g.b);
        long score = solve_board(&g, NULL);
        ck_assert_int_eq(score, top_down(&g));

        /* The rules are symmetric under transposition. */
        transpose(&g, &t);
        ck_assert_int_eq(solve_board(&t, NULL), score);

        /* Black always fills 50 cells and white 50, so adding c to every A
         * (or B) moves the answer by exactly 50c. */
        for (int k = 0; k < 100; k++)
            g.a[k] += 7;
        ck_assert_int_eq(solve_board(&g, NULL), score + 50 * 7);
        for (int k = 0; k < 100; k++)
            g.b[k] += 11;
        ck_assert_int_eq(solve_board(&g, NULL), score + 50 * 7 - 50 * 11);
    }
}
END_TEST

START_TEST(test_raised_limits)
{
    /* Beyond the official size, up to the performance target n + m = 26
     * (13 x 13, too big for the top-down check, is held to symmetry). */
    static const int shapes[][2] = {{11, 11}, {20, 6}, {2, 26}, {26, 2}, {13, 13}};
    const long lim[] = {26, 26, 28};
    uint64_t rng = 2471;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        board g = {.n = shapes[s][0], .m = shapes[s][1]}, t;
        fill(&g, &rng, 100000);
        long score = solve_board(&g, lim);
        if (g.n * g.m < 169)
            ck_assert_int_eq(score, top_down(&g));
        transpose(&g, &t);
        ck_assert_int_eq(solve_board(&t, lim), score);
    }
}
END_TEST

/* ---- 6. edge cases ---- */

START_TEST(test_one_cell)
{
    char *got = harness_text(G, "1 1\n5\n9\n");
    ck_assert_str_eq(got, "5\n");
    free(got);
    got = harness_text(G, "1 1 100000 100000");
    ck_assert_str_eq(got, "100000\n");
    free(got);
}
END_TEST

/* On one row or one column every move is forced: black takes cells 0, 2, ... */
START_TEST(test_single_line)
{
    uint64_t rng = 1;
    for (int len = 1; len <= 10; len++) {
        board g = {.n = 1, .m = len}, t;
        fill(&g, &rng, 100000);
        long want = 0;
        for (int k = 0; k < len; k++)
            want += k % 2 == 0 ? g.a[k] : -g.b[k];
        ck_assert_int_eq(solve_board(&g, NULL), want);
        transpose(&g, &t);
        ck_assert_int_eq(solve_board(&t, NULL), want);
    }
}
END_TEST

/* With equal values only the cell counts matter: ceil(nm/2) vs floor(nm/2). */
START_TEST(test_uniform_boards)
{
    static const long values[][2] = {{0, 0},      {5, 5},      {100000, 100000},
                                     {100000, 0}, {0, 100000}, {3, 8}};
    for (int n = 1; n <= 10; n++) {
        for (int m = 1; m <= 10; m++) {
            for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
                if (v > 2 && (n + m) % 3 != 0)
                    continue; /* keep the run short */
                board g = {.n = n, .m = m};
                for (int k = 0; k < n * m; k++) {
                    g.a[k] = values[v][0];
                    g.b[k] = values[v][1];
                }
                long cells = n * m;
                long want = (cells + 1) / 2 * values[v][0] - cells / 2 * values[v][1];
                ck_assert_int_eq(solve_board(&g, NULL), want);
            }
        }
    }
}
END_TEST

/* Inputs with \r\n line ends and extra blank space are still whitespace. */
START_TEST(test_whitespace)
{
    char *got = harness_text(G, "\r\n 2\t3\r\n2 7 3\r\n9 1 2\r\n\r\n3 7 2\r\n2 3 1");
    ck_assert_str_eq(got, "2\n");
    free(got);
}
END_TEST

static Suite *staircase_chess_suite(void)
{
    const harness_case tests[] = {
        {"random_against_oracle", test_random_against_oracle},
        {"every_shape_against_oracle", test_every_shape_against_oracle},
        {"data_files", test_data_files},
        {"api_example", test_api_example},
        {"text_errors", test_text_errors},
        {"size_limit", test_size_limit},
        {"json_errors", test_json_errors},
        {"largest_official", test_largest_official},
        {"one_cell", test_one_cell},
        {"single_line", test_single_line},
        {"uniform_boards", test_uniform_boards},
        {"whitespace", test_whitespace},
    };
    /* Left to `make check` (HARNESS_LARGE): boards at raised limits, the longest case. */
    const harness_case large[] = {
        {"raised_limits", test_raised_limits},
    };
    Suite *s = harness_suite("staircase-chess", tests, sizeof tests / sizeof tests[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(staircase_chess_suite());
}

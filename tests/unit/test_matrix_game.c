/* test_matrix_game.c - unit tests of the matrix-game solver.
 *
 * The fast solver is judged by the brute-force oracle on small matrices, by
 * the public judge data, by the API example, by every class of malformed
 * input, and on the largest official size by the game's defining property
 * checked naively.  The cache key must be one for the text and JSON forms of
 * a position and differ between positions. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "harness.h"
#include "matrix_game_oracle.h"

static const gj_game *const game = &game_matrix_game;

/* ---- building inputs ---- */

static void put_long(gj_buf *b, long v)
{
    char digits[24];
    int len = 0;
    do {
        digits[len++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (len > 0)
        buf_putc(b, digits[--len]);
}

/* Write v in decimal at p; returns the end. */
static char *put_decimal(char *p, long v)
{
    char digits[24];
    int len = 0;
    do {
        digits[len++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (len > 0)
        *p++ = digits[--len];
    return p;
}

/* Judge text for an n x n matrix (row-major values). */
static char *text_of(int n, long k, const int *value, size_t *len)
{
    char *text = malloc((size_t)n * (size_t)n * 12 + 64);
    ck_assert_ptr_nonnull(text);
    char *p = put_decimal(text, n);
    *p++ = ' ';
    p = put_decimal(p, k);
    *p++ = '\n';
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            p = put_decimal(p, value[i * n + j]);
            *p++ = j + 1 < n ? ' ' : '\n';
        }
    }
    *p = '\0';
    if (len != NULL)
        *len = (size_t)(p - text);
    return text;
}

/* The JSON twin of the same position. */
static char *json_of(int n, long k, const int *value)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"k\": ");
    put_long(&b, k);
    buf_puts(&b, ", \"matrix\": [");
    for (int i = 0; i < n; i++) {
        buf_puts(&b, i ? ", [" : "[");
        for (int j = 0; j < n; j++) {
            if (j)
                buf_putc(&b, ',');
            put_long(&b, value[i * n + j]);
        }
        buf_putc(&b, ']');
    }
    buf_puts(&b, "]}");
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    return buf_take(&b, NULL);
}

/* The JSON answer that a judge-text answer stands for. */
static char *json_answer_of(const char *text)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"game\":\"matrix-game\",\"outcomes\":[");
    const char *p = text;
    for (int row = 0; *p != '\0'; row++) {
        const char *eol = strchr(p, '\n');
        ck_assert_msg(eol != NULL, "answer lacks its final newline");
        buf_puts(&b, row ? ",\"" : "\"");
        buf_append(&b, p, (size_t)(eol - p));
        buf_putc(&b, '"');
        p = eol + 1;
    }
    buf_puts(&b, "]}");
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    return buf_take(&b, NULL);
}

static void identity(int n, int *value)
{
    for (int c = 0; c < n * n; c++)
        value[c] = c + 1;
}

static void reversed(int n, int *value)
{
    for (int c = 0; c < n * n; c++)
        value[c] = n * n - c;
}

static char *run(harness_input how, const char *in, harness_output out)
{
    gj_error e;
    char *answer = harness_run(game, how, in, strlen(in), out, NULL, &e);
    ck_assert_msg(answer != NULL, "unexpected error: %s\ninput:\n%s", e.message, in);
    return answer;
}

/* ---- 1. the oracle cross-check ---- */

static void cross_check(int n, int k, const int *value)
{
    char want[MG_ORACLE_MAX_SIDE * (MG_ORACLE_MAX_SIDE + 1) + 1];
    char *text = text_of(n, k, value, NULL);
    ck_assert_msg(matrix_game_oracle(n, k, value, want, sizeof want) == 0,
                  "the oracle did not settle on\n%s", text);
    char *got = run(IN_TEXT, text, OUT_TEXT);
    ck_assert_msg(strcmp(got, want) == 0, "input:\n%sfast:\n%soracle:\n%s", text, got, want);
    char *json = json_of(n, k, value);
    char *from_json = run(IN_JSON, json, OUT_TEXT);
    ck_assert_msg(strcmp(from_json, want) == 0, "JSON input:\n%s\nfast:\n%soracle:\n%s", json,
                  from_json, want);
    free(from_json);
    free(json);
    free(got);
    free(text);
}

START_TEST(oracle_random)
{
    uint64_t rng = 0x1658e5eedULL;
    int value[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    static const int per_k[] = {0, 0, 0, 600, 300, 160, 100}; /* random cases per (n, k) */
    int checked = 0;
    for (int n = 3; n <= MG_ORACLE_MAX_SIDE; n++) {
        for (int k = 1; k <= n - 2; k++) {
            identity(n, value);
            cross_check(n, k, value);
            reversed(n, value);
            cross_check(n, k, value);
            checked += 2;
            for (int t = 0; t < per_k[n]; t++) {
                rng_shuffled(&rng, value, (long)n * n);
                cross_check(n, k, value);
                checked++;
            }
        }
    }
    ck_assert_int_ge(checked, 2000);
}
END_TEST

/* Every arrangement of a 3 x 3 matrix (k = 1 is the only k) would be 9!
 * oracle runs; instead take every placement of the three largest values,
 * the ones that decide most of the board, over a fixed order of the rest. */
START_TEST(oracle_top_three_placements)
{
    int value[9];
    for (int a = 0; a < 9; a++) {
        for (int b = 0; b < 9; b++) {
            for (int c = 0; c < 9; c++) {
                if (a == b || a == c || b == c)
                    continue;
                int next = 1;
                for (int cell = 0; cell < 9; cell++)
                    if (cell != a && cell != b && cell != c)
                        value[cell] = next++;
                value[a] = 9;
                value[b] = 8;
                value[c] = 7;
                cross_check(3, 1, value);
            }
        }
    }
}
END_TEST

/* ---- 2. the public judge data ---- */

/* Read n, k and the matrix of a judge input file (a well-formed one). */
static int *read_judge_input(const char *text, int *n, long *k)
{
    char *end;
    *n = (int)strtol(text, &end, 10);
    *k = strtol(end, &end, 10);
    int *value = malloc((size_t)*n * (size_t)*n * sizeof *value);
    ck_assert_ptr_nonnull(value);
    for (int c = 0; c < *n * *n; c++)
        value[c] = (int)strtol(end, &end, 10);
    return value;
}

START_TEST(judge_data)
{
    char path[512];
    int found = 0;
    for (int t = 1; t <= 99; t++) {
        snprintf(path, sizeof path, "%s/matrix-game/%02d.in", harness_data_dir(), t);
        char *in = harness_read_file(path, NULL);
        if (in == NULL)
            continue;
        snprintf(path, sizeof path, "%s/matrix-game/%02d.out", harness_data_dir(), t);
        char *want = harness_read_file(path, NULL);
        ck_assert_msg(want != NULL, "%s is missing", path);
        char *got = run(IN_TEXT, in, OUT_TEXT);
        ck_assert_msg(strcmp(got, want) == 0, "%02d.in: got\n%swant\n%s", t, got, want);

        int n;
        long k;
        int *value = read_judge_input(in, &n, &k);
        char *json = json_of(n, k, value);
        char *got_json = run(IN_JSON, json, OUT_JSON);
        char *want_json = json_answer_of(want);
        ck_assert_str_eq(got_json, want_json);
        free(want_json);
        free(got_json);
        free(json);
        free(value);
        free(got);
        free(want);
        free(in);
        found++;
    }
    ck_assert_int_ge(found, 1);
}
END_TEST

/* ---- 3. the API example and the game's own examples ---- */

START_TEST(api_example)
{
    const char *want = "{\"game\":\"matrix-game\",\"outcomes\":[\"GGG\",\"GGG\",\"GMM\"]}";
    char *got = run(IN_JSON, "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", OUT_JSON);
    ck_assert_str_eq(got, want);
    free(got);
    got = run(IN_JSON, game->example_json, OUT_JSON);
    ck_assert_str_eq(got, want);
    free(got);
    got = run(IN_TEXT, game->example_text, OUT_JSON);
    ck_assert_str_eq(got, want);
    free(got);
    got = run(IN_TEXT, game->example_text, OUT_TEXT);
    ck_assert_str_eq(got, "GGG\nGGG\nGMM\n");
    free(got);
}
END_TEST

/* ---- 4. malformed input ---- */

static void text_error(const char *in, long line, long column, const char *needle)
{
    gj_error e = harness_text_error(game, in);
    ck_assert_msg(strstr(e.message, needle) != NULL, "message [%s] lacks [%s]", e.message, needle);
    ck_assert_msg(e.line == line && e.column == column,
                  "message [%s]: place %ld:%ld, expected %ld:%ld", e.message, e.line, e.column,
                  line, column);
}

static void json_error(const char *in, const char *field, const char *needle)
{
    gj_error e = harness_json_error(game, in);
    ck_assert_msg(strstr(e.message, needle) != NULL, "message [%s] lacks [%s]", e.message, needle);
    ck_assert_str_eq(e.field, field);
}

START_TEST(text_bad_header)
{
    text_error("", 1, 0, "expected the side n, found the end of the input");
    text_error("  \n\n", 3, 0, "expected the side n, found the end of the input");
    text_error("x 1\n", 1, 1, "expected the side n (an integer), found 'x'");
    text_error("3.0 1\n", 1, 1, "found '3.0'");
    text_error("2 1\n1 2\n3 4\n", 1, 1, "the side n must be between 3 and 2000, found 2");
    text_error("2001 1\n", 1, 1, "the side n must be between 3 and 2000, found 2001");
    text_error("-5 1\n", 1, 1, "between 3 and 2000, found -5");
    text_error("99999999999999999999999 1\n", 1, 1,
               "between 3 and 2000, found 99999999999999999999999");
    text_error("3", 1, 0, "expected k, found the end of the input");
    text_error("3 one\n", 1, 3, "expected k (an integer), found 'one'");
    text_error("3 0\n1 2 3\n4 5 6\n7 8 9\n", 1, 3, "k must be between 1 and 1, found 0");
    text_error("3 2\n1 2 3\n4 5 6\n7 8 9\n", 1, 3,
               "k must be between 1 and 1, found 2 (1 <= k <= n - 2, where n = 3");
    text_error("5 4\n", 1, 3, "k must be between 1 and 3, found 4 (1 <= k <= n - 2, where n = 5");
}
END_TEST

START_TEST(text_bad_values)
{
    text_error("3 1\n1 2 3\n4 5 6\n7 8", 4, 0,
               "expected the value at row 3, column 3 of the 3 x 3 matrix, found the end of the "
               "input");
    text_error("3 1\n1 2 3\n4 5\n", 4, 0,
               "expected the value at row 2, column 3 of the 3 x 3 matrix, found the end");
    text_error("3 1\n", 2, 0, "expected the value at row 1, column 1 of the 3 x 3 matrix");
    text_error("3 1\n1 2 3\n4 x 6\n7 8 9\n", 3, 3,
               "expected the value at row 2, column 2 of the 3 x 3 matrix (an integer), found "
               "'x'");
    text_error("3 1\n1 2 3\n4 5 6\n7 8 9z\n", 4, 5,
               "row 3, column 3 of the 3 x 3 matrix (an "
               "integer), found '9z'");
    text_error("3 1\n1 2 10\n4 5 6\n7 8 9\n", 2, 5,
               "the value at row 1, column 3 of the 3 x 3 matrix must be between 1 and 9, found "
               "10");
    text_error("3 1\n1 2 3\n0 5 6\n7 8 9\n", 3, 1, "must be between 1 and 9, found 0");
    text_error("3 1\n1 2 3\n4 -5 6\n7 8 9\n", 3, 3, "must be between 1 and 9, found -5");
    text_error("3 1\n1 2 3\n4 5 6\n7 8 123456789012345678901234567890\n", 4, 5,
               "must be between 1 and 9, found 123456789012345678901234567890");
}
END_TEST

START_TEST(text_not_a_permutation)
{
    text_error("3 1\n1 2 3\n4 5 6\n7 2 9\n", 4, 3,
               "value 2 appears twice, at row 1, column 2 (line 2, column 3) and at row 3, "
               "column 2; the matrix must hold each of 1..9 once");
    /* Rows need not be lines: the places follow the tokens. */
    text_error("3 1 9 8 7\n6 5 4 3 2 9", 2, 11,
               "value 9 appears twice, at row 1, column 1 (line 1, column 5) and at row 3, "
               "column 3");
}
END_TEST

START_TEST(text_trailing_garbage)
{
    text_error("3 1\n1 2 3\n4 5 6\n7 8 9\n10\n", 5, 1,
               "unexpected '10' after the end of the position");
    text_error("3 1\n1 2 3\n4 5 6\n7 8 9 x", 4, 7, "unexpected 'x'");
}
END_TEST

START_TEST(json_bad_shape)
{
    json_error("{", "", "invalid JSON");
    json_error("[1, 2]", "", "must be an object");
    json_error("{\"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", "k", "missing required field");
    json_error("{\"k\": 1}", "matrix", "missing required field");
    json_error("{\"k\": 1, \"n\": 3, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", "n", "unknown field");
    json_error("{\"k\": 1, \"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", "", "duplicate");
    json_error("{\"k\": 1, \"matrix\": \"123\"}", "matrix", "expected an array, found a string");
    json_error("{\"k\": 1, \"matrix\": [[1,2],[3,4]]}", "matrix",
               "expected 3 to 2000 elements, found 2");
    json_error("{\"k\": 1, \"matrix\": [[1,2,3],7,[7,8,9]]}", "matrix[1]",
               "expected an array, found an integer");
    json_error("{\"k\": 1, \"matrix\": [[1,2,3],[4,5],[6,7,8]]}", "matrix[1]",
               "row 2 has 2 values, expected 3");
    json_error("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9,10]]}", "matrix[2]",
               "row 3 has 4 values, expected 3");
}
END_TEST

START_TEST(json_bad_k)
{
    json_error("{\"k\": \"1\", \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", "k",
               "expected an integer, found a string");
    json_error("{\"k\": 1.0, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", "k",
               "expected an integer, found a number");
    json_error("{\"k\": 0, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", "k",
               "must be between 1 and 1, found 0");
    json_error("{\"k\": 2, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}", "k",
               "must be between 1 and 1, found 2 (1 <= k <= n - 2, where n = 3");
}
END_TEST

START_TEST(json_bad_values)
{
    json_error("{\"k\": 1, \"matrix\": [[1,2,3],[4,null,6],[7,8,9]]}", "matrix[1][1]",
               "expected an integer, found null");
    json_error("{\"k\": 1, \"matrix\": [[1,2,3],[4,5.5,6],[7,8,9]]}", "matrix[1][1]",
               "expected an integer, found a number");
    json_error("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,10]]}", "matrix[2][2]",
               "must be between 1 and 9, found 10");
    json_error("{\"k\": 1, \"matrix\": [[0,2,3],[4,5,6],[7,8,9]]}", "matrix[0][0]",
               "must be between 1 and 9, found 0");
    json_error("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,2,9]]}", "matrix[2][1]",
               "value 2 appears twice, at row 1, column 2 (matrix[0][1]) and at row 3, column "
               "2; the matrix must hold each of 1..9 once");
}
END_TEST

START_TEST(configured_limit)
{
    long small[GJ_MAX_LIMITS] = {5};
    int value[36];
    identity(6, value);
    char *text = text_of(6, 1, value, NULL);
    char *json = json_of(6, 1, value);
    gj_error e;
    ck_assert_ptr_null(harness_run(game, IN_TEXT, text, strlen(text), OUT_TEXT, small, &e));
    ck_assert_ptr_nonnull(strstr(e.message, "the side n must be between 3 and 5, found 6"));
    ck_assert_ptr_null(harness_run(game, IN_JSON, json, strlen(json), OUT_TEXT, small, &e));
    ck_assert_str_eq(e.field, "matrix");
    ck_assert_ptr_nonnull(strstr(e.message, "expected 3 to 5 elements, found 6"));
    long six[GJ_MAX_LIMITS] = {6};
    char *answer = harness_run(game, IN_TEXT, text, strlen(text), OUT_TEXT, six, &e);
    ck_assert_ptr_nonnull(answer);
    free(answer);
    free(json);
    free(text);
}
END_TEST

/* ---- 5. the largest official size ---- */

typedef struct judged {
    int n;
    long k;
    const int *value;
    const char *answer;
    int *cell_of;        /* by value - 1 */
    int *winner;         /* the answer's M cells, by decreasing value */
    long *winners_above; /* by value - 1: how many M cells hold a larger value */
} judged;

/* Index the answer: its M cells in value order. */
static void judge_index(judged *j)
{
    long nn = (long)j->n * j->n, count = 0;
    j->cell_of = malloc((size_t)nn * sizeof *j->cell_of);
    j->winner = malloc((size_t)nn * sizeof *j->winner);
    j->winners_above = malloc((size_t)nn * sizeof *j->winners_above);
    ck_assert(j->cell_of != NULL && j->winner != NULL && j->winners_above != NULL);
    for (long c = 0; c < nn; c++)
        j->cell_of[j->value[c] - 1] = (int)c;
    for (long v = nn; v >= 1; v--) {
        int c = j->cell_of[v - 1];
        j->winners_above[v - 1] = count;
        if (j->answer[(c / j->n) * (j->n + 1) + c % j->n] == 'M')
            j->winner[count++] = c;
    }
}

static void judge_free(judged *j)
{
    free(j->cell_of);
    free(j->winner);
    free(j->winners_above);
}

/* The rule, naively: the cell of value v is M exactly when every M cell of
 * larger value is within k of it.  An answer that passes at every cell is
 * the right one, since the rule fixes the labels one value at a time. */
static void judge_cell(const judged *j, long v)
{
    int n = j->n, c = j->cell_of[v - 1];
    int expect_m = 1;
    for (long w = 0; w < j->winners_above[v - 1] && expect_m; w++) {
        int d = j->winner[w];
        if (labs((long)(c / n - d / n)) + labs((long)(c % n - d % n)) > j->k)
            expect_m = 0;
    }
    char got = j->answer[(c / n) * (n + 1) + c % n];
    /* Not ck_assert: Check logs every passing assertion, too slow per cell. */
    if (got != (expect_m ? 'M' : 'G'))
        ck_abort_msg("n=%d k=%ld: cell (%d, %d) of value %ld is %c", n, j->k, c / n + 1, c % n + 1,
                     v, got);
}

/* Every cell when the winners are few; otherwise the largest `top` values
 * and `sampled` random cells, which keeps the naive rule affordable. */
static void check_by_definition(int n, long k, const int *value, const char *answer, long top,
                                long sampled, uint64_t *rng)
{
    judged j = {n, k, value, answer, NULL, NULL, NULL};
    long nn = (long)n * n;
    judge_index(&j);
    ck_assert_msg(answer[j.cell_of[nn - 1] / n * (n + 1) + j.cell_of[nn - 1] % n] == 'M',
                  "the largest value must be a win for M");
    if (top >= nn) {
        for (long v = nn; v >= 1; v--)
            judge_cell(&j, v);
    } else {
        for (long v = nn; v > nn - top; v--)
            judge_cell(&j, v);
        for (long t = 0; t < sampled; t++)
            judge_cell(&j, 1 + (long)rng_below(rng, (uint64_t)nn));
    }
    judge_free(&j);
}

static void solve_largest(long k, long top, long sampled)
{
    const int n = 2000;
    uint64_t rng = 0xb16b00b5ULL + (uint64_t)k;
    int *value = malloc((size_t)n * n * sizeof *value);
    ck_assert_ptr_nonnull(value);
    rng_shuffled(&rng, value, (long)n * n);
    size_t len;
    char *text = text_of(n, k, value, &len);
    /* One parse and solve, written both ways, as the server would. */
    gj_error e;
    long limit[GJ_MAX_LIMITS] = {game->limits[0].def};
    gj_buf text_out, json_out;
    buf_init(&text_out);
    buf_init(&json_out);
    void *pos = game->parse_text(text, len, limit, &e);
    ck_assert_msg(pos != NULL, "n=2000 k=%ld: %s", k, e.message);
    ck_assert_msg(game->solve(pos, &e) == 0, "n=2000 k=%ld: %s", k, e.message);
    game->write_text(pos, &text_out);
    game->write_json(pos, &json_out);
    game->free_position(pos);
    buf_putc(&text_out, '\0');
    buf_putc(&json_out, '\0');
    ck_assert(!text_out.failed && !json_out.failed);
    char *answer = buf_take(&text_out, NULL), *json = buf_take(&json_out, NULL);
    ck_assert_uint_eq(strlen(answer), (size_t)n * (n + 1));
    check_by_definition(n, k, value, answer, top, sampled, &rng);
    char *want_json = json_answer_of(answer);
    ck_assert_msg(strcmp(json, want_json) == 0, "JSON answer differs from the text answer");
    free(want_json);
    free(json);
    free(answer);
    free(text);
    free(value);
}

/* k = 1: a handful of winners, so every cell is judged by the rule. */
START_TEST(largest_k1)
{
    solve_largest(1, 2000L * 2000L, 0);
}
END_TEST

/* k = 1000: about half the board wins, so judge a sample. */
START_TEST(largest_k1000)
{
    solve_largest(1000, 20000, 400);
}
END_TEST

/* ---- 6. edge cases ---- */

START_TEST(edge_smallest)
{
    /* 3 x 3, identity and reversed: the largest value and its neighbour at
     * distance 1 win, nothing else. */
    char *got = harness_text(game, "3 1\n1 2 3\n4 5 6\n7 8 9\n");
    ck_assert_str_eq(got, "GGG\nGGG\nGMM\n");
    free(got);
    got = harness_text(game, "3 1\n9 8 7\n6 5 4\n3 2 1\n");
    ck_assert_str_eq(got, "MMG\nGGG\nGGG\n");
    free(got);
    /* The whole input on one line is still a 3 x 3 matrix. */
    got = harness_text(game, "3 1 1 2 4 6 8 3 9 5 7");
    ck_assert_str_eq(got, "GGG\nMGG\nMGG\n");
    free(got);
    /* The oracle agrees with the statement's sample. */
    static const int sample[9] = {1, 2, 4, 6, 8, 3, 9, 5, 7};
    char want[64];
    ck_assert_int_eq(matrix_game_oracle(3, 1, sample, want, sizeof want), 0);
    ck_assert_str_eq(want, "GGG\nMGG\nMGG\n");
}
END_TEST

START_TEST(edge_extreme_k)
{
    uint64_t rng = 42;
    for (int n = 3; n <= MG_ORACLE_MAX_SIDE; n++) {
        int value[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
        static const int ks[2] = {1, -2};
        for (int t = 0; t < 2; t++) {
            int k = ks[t] > 0 ? ks[t] : n + ks[t];
            identity(n, value);
            cross_check(n, k, value);
            reversed(n, value);
            cross_check(n, k, value);
            rng_shuffled(&rng, value, (long)n * n);
            cross_check(n, k, value);
        }
    }
}
END_TEST

/* Structured matrices at a middle size, against the definition. */
START_TEST(edge_identity_and_reversed)
{
    const int n = 120;
    static const long ks[] = {1, 2, 7, 59, 118};
    int *value = malloc((size_t)n * n * sizeof *value);
    ck_assert_ptr_nonnull(value);
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        for (int order = 0; order < 2; order++) {
            if (order == 0)
                identity(n, value);
            else
                reversed(n, value);
            char *text = text_of(n, ks[t], value, NULL);
            char *answer = harness_text(game, text);
            check_by_definition(n, ks[t], value, answer, (long)n * n, 0, NULL);
            free(answer);
            free(text);
        }
    }
    free(value);
}
END_TEST

/* ---- 7. the cache key ---- */

/* The key of a position parsed from `in`, solved first when asked. */
static char *key_of(harness_input how, const char *in, int solve_first, size_t *len)
{
    long lim[GJ_MAX_LIMITS];
    game_default_limits(game, lim);
    gj_error e;
    void *pos = how == IN_TEXT ? game->parse_text(in, strlen(in), lim, &e)
                               : game->parse_json(in, strlen(in), lim, &e);
    ck_assert_msg(pos != NULL, "%s", e.message);
    if (solve_first)
        ck_assert(game->solve(pos, &e) == 0);
    gj_buf b;
    buf_init(&b);
    game->write_key(pos, &b);
    game->free_position(pos);
    ck_assert(!b.failed);
    return buf_take(&b, len);
}

static void same_key(const char *a, size_t alen, const char *b, size_t blen, const char *what)
{
    ck_assert_msg(alen == blen && memcmp(a, b, alen) == 0, "keys differ: %s", what);
}

/* Text (as written, on one line, with tabs and CRLF) and JSON forms of one
 * position, before and after solve: one key, "n k\n" and 4 bytes a value. */
START_TEST(key_text_equals_json)
{
    uint64_t rng = 0x6b6579ULL;
    int value[64];
    for (int t = 0; t < 200; t++) {
        int n = 3 + (int)rng_below(&rng, 6);
        long k = 1 + (long)rng_below(&rng, (uint64_t)n - 2);
        rng_shuffled(&rng, value, (long)n * n);
        char *text = text_of(n, k, value, NULL), *json = json_of(n, k, value);
        size_t tlen, jlen, slen, wlen;
        char *tkey = key_of(IN_TEXT, text, 0, &tlen);
        char *jkey = key_of(IN_JSON, json, 0, &jlen);
        char *skey = key_of(IN_JSON, json, 1, &slen);
        same_key(tkey, tlen, jkey, jlen, "text and JSON");
        same_key(tkey, tlen, skey, slen, "before and after solve");
        /* Other whitespace: CRLF for newlines, tabs for spaces. */
        gj_buf odd;
        buf_init(&odd);
        for (const char *p = text; *p != '\0'; p++) {
            if (*p == '\n')
                buf_puts(&odd, "\r\n");
            else if (*p == ' ')
                buf_puts(&odd, "\t ");
            else
                buf_putc(&odd, *p);
        }
        buf_putc(&odd, '\0');
        ck_assert(!odd.failed);
        char *odd_text = buf_take(&odd, NULL);
        char *wkey = key_of(IN_TEXT, odd_text, 1, &wlen);
        same_key(tkey, tlen, wkey, wlen, "other whitespace");
        char head[32];
        int hlen = snprintf(head, sizeof head, "%d %ld\n", n, k);
        ck_assert_uint_eq(tlen, (size_t)hlen + 4 * (size_t)n * (size_t)n);
        ck_assert(memcmp(tkey, head, (size_t)hlen) == 0);
        free(wkey);
        free(odd_text);
        free(skey);
        free(jkey);
        free(tkey);
        free(json);
        free(text);
    }
}
END_TEST

/* Different positions, different keys: k, one swap, the side, and many
 * random boards compared pairwise. */
START_TEST(key_tells_positions_apart)
{
    enum { BOARDS = 120 };
    uint64_t rng = 99;
    static int value[BOARDS][16];
    static long ks[BOARDS];
    static char *keys[BOARDS];
    static size_t lens[BOARDS];
    for (int t = 0; t < BOARDS; t++) {
        /* 4 x 4 boards that differ from the first in a few places. */
        if (t == 0)
            rng_shuffled(&rng, value[0], 16);
        else
            memcpy(value[t], value[0], sizeof value[0]);
        ks[t] = 1 + (long)rng_below(&rng, 2);
        int a = (int)rng_below(&rng, 16), b = (int)rng_below(&rng, 16);
        int swap = value[t][a];
        value[t][a] = value[t][b];
        value[t][b] = swap;
        char *json = json_of(4, ks[t], value[t]);
        keys[t] = key_of(IN_JSON, json, 0, &lens[t]);
        free(json);
    }
    for (int s = 0; s < BOARDS; s++) {
        for (int t = s + 1; t < BOARDS; t++) {
            int same = ks[s] == ks[t] && memcmp(value[s], value[t], sizeof value[s]) == 0;
            int same_key = lens[s] == lens[t] && memcmp(keys[s], keys[t], lens[s]) == 0;
            if (same != same_key)
                ck_abort_msg("boards %d and %d: equal %d, equal keys %d", s, t, same, same_key);
        }
    }
    for (int t = 0; t < BOARDS; t++)
        free(keys[t]);
    /* The side counts: 3 x 3 and 4 x 4 identity, k = 1. */
    size_t len3, len4;
    char *key3 = key_of(IN_TEXT, "3 1\n1 2 3\n4 5 6\n7 8 9\n", 0, &len3);
    char *key4 = key_of(IN_TEXT, "4 1\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 16\n", 0, &len4);
    ck_assert(len3 != len4 || memcmp(key3, key4, len3) != 0);
    /* The transposed matrix is another position. */
    size_t lent;
    char *keyt = key_of(IN_TEXT, "3 1\n1 4 7\n2 5 8\n3 6 9\n", 0, &lent);
    ck_assert(len3 == lent && memcmp(key3, keyt, len3) != 0);
    free(keyt);
    free(key4);
    free(key3);
}
END_TEST

static Suite *matrix_game_suite(void)
{
    const harness_case cases[] = {
        {"oracle", oracle_random},
        {"oracle", oracle_top_three_placements},
        {"data", judge_data},
        {"api", api_example},
        {"errors", text_bad_header},
        {"errors", text_bad_values},
        {"errors", text_not_a_permutation},
        {"errors", text_trailing_garbage},
        {"errors", json_bad_shape},
        {"errors", json_bad_k},
        {"errors", json_bad_values},
        {"errors", configured_limit},
        {"edges", edge_smallest},
        {"edges", edge_extreme_k},
        {"edges", edge_identity_and_reversed},
        {"key", key_text_equals_json},
        {"key", key_tells_positions_apart},
    };
    const harness_case large[] = {
        {"largest", largest_k1},
        {"largest", largest_k1000},
    };
    Suite *s = harness_suite("matrix-game", cases, sizeof cases / sizeof cases[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(matrix_game_suite());
}

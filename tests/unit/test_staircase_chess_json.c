/* test_staircase_chess_json.c - staircase-chess' chunk-fed JSON reader
 * against the tree it replaces.
 *
 * The oracle is the jansson path the reader took over, sc_parse_tree.
 * Thousands of bodies from fixed seeds (valid boards with varied
 * whitespace and member order, and every kind of mistake, several at once
 * so that which one is reported first matters) go through both; the reader
 * is fed each body whole, one byte at a time and in random pieces.  Both
 * must agree on the verdict, the error (kind, field, line, column, message)
 * and the position (its key, which holds both boards, and its answer). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "harness.h"
#include "reader_diff.h"
#include "staircase_chess_core.h"

/* ---- the two readers ---- */

/* The position's key and, once solved, its JSON answer, into out. */
static void describe(void *pos, gj_buf *out)
{
    gj_error e;
    buf_init(out);
    game_staircase_chess.write_key(pos, out);
    buf_putc(out, '|');
    ck_assert_int_eq(game_staircase_chess.solve(pos, &e), 0);
    game_staircase_chess.write_json(pos, out);
    ck_assert(!out->failed);
}

/* The verdicts seen, by the first words of the message (or "solved"), so
 * the test can tell that the bodies reached every check. */
static const char *const verdicts[] = {
    "solved",
    "invalid JSON",
    "the JSON body must be an object",
    ": unknown field",
    ": missing required field",
    "a: expected an array",
    "a: expected 1 to",
    "a[0]: expected",
    "n + m must be at most",
    "]: expected an array",
    "]: expected 1 to",
    "cell",
    "]: expected an integer",
    "]: must be between",
    "b: expected",
    "as in a; a and b",
};
enum { NVERDICTS = sizeof verdicts / sizeof verdicts[0] };
static long verdict_count[NVERDICTS];

/* The game's reader against its tree. */
static const rd_game diff = {
    .game = &game_staircase_chess,
    .read_tree = sc_parse_tree,
    .describe = describe,
    .verdicts = verdicts,
    .nverdicts = NVERDICTS,
    .count = verdict_count,
};

/* ---- generated bodies ---- */

/* A value that is not a cell's: each kind a check can meet. */
static void odd_value(rd_gen *g)
{
    static const char *const odd[] = {
        "-1",
        "100001",
        "9223372036854775807",
        "-9223372036854775808",
        "92233720368547758080",
        "1.0",
        "-0.0",
        "1e0",
        "1e400",
        "\"5\"",
        "null",
        "true",
        "false",
        "[1, [2]]",
        "{\"a\": [1]}",
        "[]",
        "[1]",
        "[[1,2]]",
        "2.5",
        "100000",
    };
    buf_puts(&g->b, odd[rng_below(&g->rng, sizeof odd / sizeof odd[0])]);
}

/* A board of rows x cols values, a row's length sometimes off and mistakes
 * at rate 1 in odd (0: none). */
static void board(rd_gen *g, long rows, long cols, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 8)) {
        odd_value(g);
        return;
    }
    buf_putc(&g->b, '[');
    rd_blanks_rare(g);
    for (long i = 0; i < rows; i++) {
        if (i > 0) {
            buf_putc(&g->b, ',');
            rd_blanks_rare(g);
        }
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)rows * 2 + 1)) {
            odd_value(g);
            continue;
        }
        long width = cols;
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)rows * 2 + 1))
            width = rd_one_in(g, 3) ? 0 : rd_one_in(g, 2) ? cols + 1 : cols + 30;
        buf_putc(&g->b, '[');
        for (long j = 0; j < width; j++) {
            if (j > 0)
                buf_putc(&g->b, ',');
            rd_blanks_rare(g);
            if (odd > 0 && rd_one_in(g, odd * (uint64_t)(rows * cols) + 1))
                odd_value(g);
            else
                buf_put_long(&g->b, (long)rng_below(&g->rng, 100001));
        }
        rd_blanks_rare(g);
        buf_putc(&g->b, ']');
    }
    rd_blanks_rare(g);
    buf_putc(&g->b, ']');
}

/* A key no position has: short, empty, escaped, longer than an error
 * quotes. */
static void odd_key(rd_gen *g)
{
    static const char *const keys[] = {
        "\"n\"",
        "\"A\"",
        "\"\"",
        "\"b \"",
        "\"\\u00e9t\\u00e9\"",
        "\"a_key_far_longer_than_any_error_message_quotes_whole\"",
    };
    buf_puts(&g->b, keys[rng_below(&g->rng, sizeof keys / sizeof keys[0])]);
}

/* One body: the members in a random order, each mistake at rate 1 in odd;
 * b's shape sometimes differs from a's. */
static void body(rd_gen *g, long n, long m, uint64_t odd)
{
    int list[8], len = 0; /* 1 "a", 2 "b", 0 a key no position has */
    list[len++] = rd_one_in(g, 2) ? 1 : 2;
    list[len++] = 3 - list[0];
    if (odd > 0 && rd_one_in(g, odd * 4)) {
        len = 1;
        list[0] = (int)rng_below(&g->rng, 2) + 1;
    }
    if (odd > 0 && rd_one_in(g, odd * 3)) {
        int at = (int)rng_below(&g->rng, (uint64_t)len + 1);
        memmove(list + at + 1, list + at, (size_t)(len - at) * sizeof *list);
        list[at] = 0;
        len++;
    }
    if (odd > 0 && rd_one_in(g, odd * 8)) {
        int again = list[rng_below(&g->rng, (uint64_t)len)];
        list[len++] = again;
    }
    rd_blanks_rare(g);
    buf_putc(&g->b, '{');
    for (int k = 0; k < len; k++) {
        if (k > 0)
            buf_putc(&g->b, ',');
        rd_blanks_rare(g);
        if (list[k] == 0)
            odd_key(g);
        else if (list[k] == 1)
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"\\u0061\"" : "\"a\"");
        else
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"\\u0062\"" : "\"b\"");
        rd_blanks_rare(g);
        buf_putc(&g->b, ':');
        rd_blanks_rare(g);
        if (list[k] == 0) {
            odd_value(g);
        } else {
            long rows = n;
            if (odd > 0 && rd_one_in(g, odd * 4))
                rows = rd_one_in(g, 3) ? 0 : rd_one_in(g, 2) ? n + 1 : n + 30;
            board(g, rows, m, odd);
        }
        rd_blanks_rare(g);
    }
    buf_putc(&g->b, '}');
    rd_blanks_rare(g);
}

/* Bodies from seed `seed`: count of them, sides up to max, mistakes at
 * rate 1 in odd (0: every body valid), limits drawn from a few. */
static void run_bodies(uint64_t seed, int count, long max, uint64_t odd)
{
    rd_gen g = {seed, {0}};
    for (int c = 0; c < count; c++) {
        long n = 1 + (long)rng_below(&g.rng, (uint64_t)max);
        long m = 1 + (long)rng_below(&g.rng, (uint64_t)max);
        long lim[3] = {26, 26, 28};
        if (odd > 0 && rd_one_in(&g, 2)) {
            lim[0] = 1 + (long)rng_below(&g.rng, 26);
            lim[1] = 1 + (long)rng_below(&g.rng, 26);
            lim[2] = 2 + (long)rng_below(&g.rng, 27);
        }
        buf_init(&g.b);
        if (odd > 0 && rd_one_in(&g, odd * 12)) {
            static const char *const tops[] = {"[]", " 1", "\"x\"", "null", "[[1,2]]", "1.5"};
            buf_puts(&g.b, tops[rng_below(&g.rng, sizeof tops / sizeof tops[0])]);
        } else {
            body(&g, n, m, odd);
        }
        rd_finish_body(&diff, &g, odd, lim);
    }
}

/* ---- tests ---- */

/* Valid boards with n + m up to 14 in every whitespace and member order. */
START_TEST(test_valid)
{
    rd_clear(&diff);
    run_bodies(0x5eed0201, 1500, 7, 0);
    ck_assert_int_eq(verdict_count[0], 1500);
}
END_TEST

/* Bodies with mistakes, often several: each check is met, and the first
 * in the tree's order is the one both report. */
START_TEST(test_mistakes)
{
    rd_clear(&diff);
    run_bodies(0x5eed0202, 4000, 4, 2);
    run_bodies(0x5eed0203, 3000, 3, 1);
    run_bodies(0x5eed0204, 1500, 10, 4);
    run_bodies(0x5eed0205, 1000, 9, 16);
    rd_require(&diff, 10);
}
END_TEST

/* Bodies named by hand: escaped keys, shapes that disagree, the first of
 * two mistakes. */
START_TEST(test_named)
{
    static const char *const bodies[] = {
        "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]]}",
        "{\"b\": [[3,7,2],[2,3,1]], \"\\u0061\": [[2,7,3],[9,1,2]]}",
        "{\"a\": [[2,7,3],[9,1]], \"b\": [[3,7,2],[2,3,-1]]}",
        "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2]]}",
        "{\"a\": [[2,7,3],[9,1,2.5]], \"b\": 5}",
        "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]], \"x\": [}",
        "{\"b\": [[1]]}",
        "[1]",
    };
    const long lim[3] = {10, 10, 20};
    uint64_t rng = 1;
    for (size_t b = 0; b < sizeof bodies / sizeof bodies[0]; b++)
        rd_compare(&diff, bodies[b], strlen(bodies[b]), lim, &rng);
}
END_TEST

/* parse_json and read_json are the reader: their answer is the tree's. */
START_TEST(test_parse_json)
{
    const long lim[3] = {10, 10, 20};
    gj_error e;
    const char *body = "{\"b\": [[3,7,2],[2,3,1]], \"a\": [[2,7,3],[9,1,100001]]}";
    ck_assert_ptr_nonnull(game_staircase_chess.read_json);
    void *pos = game_staircase_chess.parse_json(body, strlen(body), lim, &e);
    ck_assert_ptr_null(pos);
    ck_assert_str_eq(e.field, "a[1][2]");
    ck_assert_str_eq(e.message, "a[1][2]: must be between 0 and 100000, found 100001");
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"valid", test_valid},
        {"mistakes", test_mistakes},
        {"named", test_named},
        {"parse_json", test_parse_json},
    };
    return harness_main(
        harness_suite("staircase-chess json", cases, sizeof cases / sizeof cases[0], 120));
}

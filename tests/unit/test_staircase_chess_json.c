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

/* The game's own verdicts, by words of the message, so the test can tell
 * that the bodies reached every check. */
static const char *const verdicts[] = {
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
    NULL,
};

/* The game's reader against its tree. */
static const rd_game diff = {
    .game = &game_staircase_chess,
    .read_tree = sc_parse_tree,
    .describe = describe,
    .verdicts = verdicts,
};

/* ---- generated bodies ---- */

/* The values that are no cell's: past 100000, and last the bound itself,
 * which a cell may hold but a row or a board may not be. */
static const rd_odd_values odd_values = {
    .past = "100001",
    .more = {"[[1,2]]", "2.5", "100000", NULL},
};

/* A board of rows x cols values, a row's length sometimes off and mistakes
 * at rate 1 in odd (0: none). */
static void board(rd_gen *g, long rows, long cols, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 8)) {
        rd_odd_value(g, &odd_values);
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
            rd_odd_value(g, &odd_values);
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
                rd_odd_value(g, &odd_values);
            else
                buf_put_long(&g->b, (long)rng_below(&g->rng, 100001));
        }
        rd_blanks_rare(g);
        buf_putc(&g->b, ']');
    }
    rd_blanks_rare(g);
    buf_putc(&g->b, ']');
}

/* The keys no position has, close to "a" and "b". */
static const rd_keys keys = {
    .other = "n",
    .capital = "A",
    .spaced = "b ",
    .doubled = NULL,
    .long_utf8 = 0,
};

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
            rd_odd_key(g, &keys);
        else if (list[k] == 1)
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"\\u0061\"" : "\"a\"");
        else
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"\\u0062\"" : "\"b\"");
        rd_blanks_rare(g);
        buf_putc(&g->b, ':');
        rd_blanks_rare(g);
        if (list[k] == 0) {
            rd_odd_value(g, &odd_values);
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

/* One body: sides n and m up to max, the limits drawn one time in two
 * (else the default), mistakes at rate 1 in odd. */
static void write_body(rd_gen *g, long max, uint64_t odd, long *lim)
{
    long n = 1 + (long)rng_below(&g->rng, (uint64_t)max);
    long m = 1 + (long)rng_below(&g->rng, (uint64_t)max);
    lim[0] = 26;
    lim[1] = 26;
    lim[2] = 28;
    if (odd > 0 && rd_one_in(g, 2)) {
        lim[0] = 1 + (long)rng_below(&g->rng, 26);
        lim[1] = 1 + (long)rng_below(&g->rng, 26);
        lim[2] = 2 + (long)rng_below(&g->rng, 27);
    }
    if (!rd_not_object(g, odd * 12, "[[1,2]]"))
        body(g, n, m, odd);
}

/* ---- the test ---- */

/* The bodies named by hand: escaped keys, shapes that disagree, the first
 * of two mistakes. */
static const char *const named[] = {
    "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]]}",
    "{\"b\": [[3,7,2],[2,3,1]], \"\\u0061\": [[2,7,3],[9,1,2]]}",
    "{\"a\": [[2,7,3],[9,1]], \"b\": [[3,7,2],[2,3,-1]]}",
    "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2]]}",
    "{\"a\": [[2,7,3],[9,1,2.5]], \"b\": 5}",
    "{\"a\": [[2,7,3],[9,1,2]], \"b\": [[3,7,2],[2,3,1]], \"x\": [}",
    "{\"b\": [[1]]}",
    "[1]",
    NULL,
};

/* Valid boards with n + m up to 14; mistakes, each of the tree's checks
 * met at least 10 times; for parse_json, a cell past its bound. */
static const rd_table table = {
    .name = "staircase-chess json",
    .diff = &diff,
    .write = write_body,
    .valid = {0x5eed0201, 1500, 7, 0},
    .mistakes =
        {
            {0x5eed0202, 4000, 4, 2},
            {0x5eed0203, 3000, 3, 1},
            {0x5eed0204, 1500, 10, 4},
            {0x5eed0205, 1000, 9, 16},
        },
    .least = 10,
    .named = named,
    .named_lim = {10, 10, 20},
    .parse_body = "{\"b\": [[3,7,2],[2,3,1]], \"a\": [[2,7,3],[9,1,100001]]}",
    .parse_field = "a[1][2]",
    .parse_message = "a[1][2]: must be between 0 and 100000, found 100001",
    .parse_lim = {10, 10, 20},
};

/* The suite is the driver's: this file only says what it runs. */
int main(void)
{
    return rd_main(&table);
}

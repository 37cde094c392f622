/* test_matrix_game_json.c - matrix-game's chunk-fed JSON reader against the
 * tree it replaces.
 *
 * The oracle is the jansson path the reader took over: jin_load_object,
 * then mg_from_json on the tree.  Thousands of bodies from fixed seeds
 * (valid matrices of 3..40 with varied whitespace and member order, and
 * every kind of mistake, several at once so that which one is reported
 * first matters) go through both; the reader is fed each body whole, one
 * byte at a time and in random pieces.  Both must agree on the verdict,
 * the error (kind, field, line, column, message) and the position (n, k,
 * the table of cells and the solved answer). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "harness.h"
#include "json_in.h"
#include "matrix_game_core.h"
#include "reader_diff.h"

/* ---- the two readers ---- */

/* The body read as parse_json read it before the reader: the tree, then
 * mg_from_json. */
static void *read_tree(const char *body, size_t len, const long *lim, gj_error *e)
{
    static const char *const keys[] = {"k", "matrix", NULL};
    json_t *root = jin_load_object(body, len, keys, e);
    if (root == NULL)
        return NULL;
    mg_position *pos = mg_from_json(root, lim, e);
    json_decref(root);
    return pos;
}

/* The tree's position solved, for same to compare its answer. */
static void settle(void *want)
{
    gj_error e;
    ck_assert_int_eq(mg_solve(want, &e), 0);
}

/* The reader's position is the tree's: n, k, the cells, and once solved
 * the outcome of every cell and row. */
static void same(void *got_pos, void *want_pos)
{
    mg_position *got = got_pos;
    const mg_position *want = want_pos;
    gj_error e;
    ck_assert_int_eq(got->n, want->n);
    ck_assert_int_eq(got->k, want->k);
    size_t nn = (size_t)want->n * (size_t)want->n;
    ck_assert(memcmp(got->cell_of, want->cell_of, nn * sizeof *got->cell_of) == 0);
    ck_assert_int_eq(mg_solve(got, &e), 0);
    ck_assert(memcmp(got->outcome, want->outcome, nn + (size_t)want->n) == 0);
}

/* The game's own verdicts, by words of the message, so the test can tell
 * that the bodies reached every check. */
static const char *const verdicts[] = {
    "matrix: expected an array",
    "matrix: expected 3 to",
    "k: expected an integer",
    "k: must be between",
    "]: expected an array",
    "(the matrix is square)",
    "]: expected an integer",
    "]: must be between",
    "appears twice",
    NULL,
};

/* The game's reader against its tree; an empty body, fed whole, is fed
 * as one piece of 0 bytes. */
static const rd_game diff = {
    .game = &game_matrix_game,
    .feed_empty = 1,
    .read_tree = read_tree,
    .settle = settle,
    .same = same,
    .verdicts = verdicts,
};

/* ---- generated bodies ---- */

/* A value that is not a whole number in range, or not a number: each kind
 * a check can meet.  n2 is the square of the matrix's side, most the
 * limit's square. */
static void odd_value(rd_gen *g, long n2, long most)
{
    char tmp[64];
    switch (rng_below(&g->rng, 24)) {
    case 0:
        buf_puts(&g->b, "0");
        break;
    case 1:
        buf_puts(&g->b, "-1");
        break;
    case 2:
        buf_put_long(&g->b, n2 + 1 + (long)rng_below(&g->rng, 3));
        break;
    case 3:
        buf_put_long(&g->b, most + 1);
        break;
    case 4:
        buf_puts(&g->b, "4294967296");
        break;
    case 5:
        buf_puts(&g->b, "4294967297");
        break;
    case 6:
        buf_puts(&g->b, rd_one_in(g, 2) ? "9223372036854775807" : "-9223372036854775808");
        break;
    case 7:
        buf_puts(&g->b, rd_one_in(g, 2) ? "92233720368547758080" : "-18446744073709551617");
        break;
    case 8:
        snprintf(tmp, sizeof tmp, "%ld.0", 1 + (long)rng_below(&g->rng, (uint64_t)n2));
        buf_puts(&g->b, tmp);
        break;
    case 9:
        buf_puts(&g->b, rd_one_in(g, 2) ? "1e0" : "-0.0");
        break;
    case 10:
        buf_puts(&g->b, "\"5\"");
        break;
    case 11:
        buf_puts(&g->b, "null");
        break;
    case 12:
        buf_puts(&g->b, rd_one_in(g, 2) ? "true" : "false");
        break;
    case 13:
        buf_puts(&g->b, "[1, [2]]");
        break;
    case 14:
        buf_puts(&g->b, "{\"a\": [1]}");
        break;
    case 15:
        buf_puts(&g->b, "1e400");
        break;
    case 16:
    case 17:
        buf_puts(&g->b, "-5");
        break;
    case 18:
    case 19:
        buf_puts(&g->b, "2.5");
        break;
    default:
        buf_put_long(&g->b, n2 + 1);
        break;
    }
}

/* Row i of the matrix: mostly n values of the permutation, sometimes
 * another type or with odd values (about 2 / odd of each in a matrix). */
static void row(rd_gen *g, const int *value, long i, long n, long width, long most, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 2 * (uint64_t)n)) {
        odd_value(g, n * n, most);
        return;
    }
    buf_putc(&g->b, '[');
    rd_blanks(g, 0);
    for (long j = 0; j < width; j++) {
        if (j > 0) {
            buf_putc(&g->b, ',');
            rd_blanks(g, 0);
        }
        if (odd > 0 && rd_one_in(g, odd * (uint64_t)(width * n) / 2 + 1))
            odd_value(g, n * n, most);
        else
            buf_put_long(&g->b, j < n ? value[i * n + j] : n * n);
        rd_blanks(g, 0);
    }
    buf_putc(&g->b, ']');
}

/* The member "matrix": rows rows of (mostly) n values each. */
static void matrix(rd_gen *g, const int *value, long n, long rows, long most, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 6)) {
        odd_value(g, n * n, most);
        return;
    }
    buf_putc(&g->b, '[');
    rd_blanks(g, 1);
    for (long i = 0; i < rows; i++) {
        if (i > 0) {
            buf_putc(&g->b, ',');
            rd_blanks(g, 1);
        }
        long width = n;
        if (odd > 0 && rd_one_in(g, odd * 2 * (uint64_t)n))
            width = rd_one_in(g, 2) ? n + (rd_one_in(g, 2) ? 1 : -1) : most > 100 ? n : 41;
        row(g, value, i < n ? i : 0, n, width, most, odd);
        rd_blanks(g, 0);
    }
    buf_putc(&g->b, ']');
}

/* The value of "k": mostly in 1..n-2, else at or past a bound or odd. */
static void k_value(rd_gen *g, long n, long most, uint64_t odd)
{
    if (odd > 0 && rd_one_in(g, odd * 2)) {
        switch (rng_below(&g->rng, 4)) {
        case 0:
            buf_put_long(&g->b, n - 1);
            break;
        case 1:
            buf_puts(&g->b, "0");
            break;
        default:
            odd_value(g, n * n, most);
            break;
        }
        return;
    }
    buf_put_long(&g->b, 1 + (long)rng_below(&g->rng, (uint64_t)(n - 2)));
}

/* The keys no position has, close to "k" and "matrix". */
static const rd_keys keys = {
    .other = "n",
    .capital = "K",
    .spaced = "matrix ",
    .doubled = "kk",
    .long_utf8 = 1,
};

/* One body: the members in a random order, each mistake at rate 1 in `odd`
 * (0: none), for a side n, rows rows and limit `most` (its square). */
static void body(rd_gen *g, const int *value, long n, long rows, long most, uint64_t odd)
{
    /* The members in writing order: 1 is "k", 2 "matrix", 0 a key no
     * position has; one may be missing or written twice. */
    int list[8], len = 0;
    list[len++] = rd_one_in(g, 2) ? 1 : 2;
    list[len++] = 3 - list[0];
    if (odd > 0 && rd_one_in(g, odd * 3)) {
        len = 1;
        list[0] = (int)rng_below(&g->rng, 2) + 1;
    }
    for (int extra = 0; odd > 0 && extra < 2 && rd_one_in(g, odd * 2); extra++) {
        int at = (int)rng_below(&g->rng, (uint64_t)len + 1);
        memmove(list + at + 1, list + at, (size_t)(len - at) * sizeof *list);
        list[at] = 0;
        len++;
    }
    if (odd > 0 && rd_one_in(g, odd * 6)) {
        int again = list[rng_below(&g->rng, (uint64_t)len)];
        list[len++] = again;
    }
    rd_blanks(g, 0);
    buf_putc(&g->b, '{');
    rd_blanks(g, 1);
    for (int m = 0; m < len; m++) {
        if (m > 0) {
            buf_putc(&g->b, ',');
            rd_blanks(g, 1);
        }
        if (list[m] == 0)
            rd_odd_key(g, &keys);
        else if (list[m] == 1)
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"\\u006b\"" : "\"k\"");
        else
            buf_puts(&g->b, rd_one_in(g, 8) ? "\"matri\\u0078\"" : "\"matrix\"");
        rd_blanks(g, 0);
        buf_putc(&g->b, ':');
        rd_blanks(g, 0);
        if (list[m] == 1)
            k_value(g, n, most, odd);
        else if (list[m] == 2)
            matrix(g, value, n, rows, most, odd);
        else
            odd_value(g, n * n, most);
        rd_blanks(g, 0);
    }
    buf_putc(&g->b, '}');
    rd_blanks(g, 0);
}

/* A random permutation of 1..n*n into value, with one repeat in half of
 * them when odd is not 0. */
static void permutation(rd_gen *g, int *value, long n, uint64_t odd)
{
    long nn = n * n;
    rng_shuffled(&g->rng, value, nn);
    if (odd > 0 && rd_one_in(g, 2))
        value[rng_below(&g->rng, (uint64_t)nn)] = value[rng_below(&g->rng, (uint64_t)nn)];
}

/* One body: a side of 3 to max_n, the limit drawn from a few (the default
 * when valid), mistakes at rate 1 in odd; the permutation's room is kept
 * from body to body, as large as the largest side a run asks for. */
static void write_body(rd_gen *g, long max_n, uint64_t odd, long *lim)
{
    static const long limits[] = {3, 4, 6, 9, 40, 2000, 6000};
    static int value[41 * 41];
    long n = 3 + (long)rng_below(&g->rng, (uint64_t)max_n - 2);
    lim[0] = odd > 0 ? limits[rng_below(&g->rng, sizeof limits / sizeof limits[0])] : 2000;
    long rows = n;
    if (odd > 0 && rd_one_in(g, odd * 3))
        rows = (long)rng_below(&g->rng, (uint64_t)n + 2);
    permutation(g, value, n, odd);
    if (!rd_not_object(g, odd * 10, "[[1,2,3]]"))
        body(g, value, n, rows, lim[0] * lim[0], odd);
}

/* ---- the test ---- */

/* The bodies named by hand: escaped keys, k past both bounds, a value that
 * only the final n rules out, the first of two mistakes. */
static const char *const named[] = {
    "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
    "{\"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"\\u006b\": 1}",
    "{\"k\": 2, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
    "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,16]]}",
    "{\"k\": 1, \"matrix\": [[1,2,16],[4,5,6],[7,8,1.5]]}",
    "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9],[1,2,3]]}",
    "{\"k\": 1, \"matrix\": [[1,2,3,4],[4,5,6],[7,8,9]]}",
    "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"x\": [}",
    "{\"k\": 1, \"n\": 2, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"n\": 3}",
    "{\"k\": 0.5, \"matrix\": 3}",
    "{\"matrix\": [[1,1,3],[4,5,6],[7,8,9]]}",
    "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]} ",
    "[1]",
    NULL,
};

/* Valid matrices of 3..40; mistakes, each of mg_from_json's checks met at
 * least 10 times; for parse_json, a cell past n * n. */
static const rd_table table = {
    .name = "matrix-game json",
    .diff = &diff,
    .write = write_body,
    .valid = {0x5eed0001, 1500, 40, 0},
    .mistakes =
        {
            {0x5eed0002, 4000, 12, 2},
            {0x5eed0003, 3000, 6, 1},
            {0x5eed0004, 1000, 30, 4},
            {0x5eed0005, 1000, 20, 16},
        },
    .least = 10,
    .named = named,
    .named_lim = {2000},
    .parse_body = "{\"matrix\": [[3,2,1],[4,5,6],[7,8,10]], \"k\": 1}",
    .parse_field = "matrix[2][2]",
    .parse_message = "matrix[2][2]: must be between 1 and 9, found 10",
    .parse_lim = {2000},
};

/* The suite is the driver's: this file only says what it runs. */
int main(void)
{
    return rd_main(&table);
}

/* test_prime_chocolate_json.c - prime-chocolate's chunk-fed JSON reader
 * against the tree it replaces.
 *
 * The oracle is the jansson path the reader took over: jin_load_object,
 * then pc_read_grid on the tree.  Thousands of bodies from fixed seeds
 * (valid bars up to 40 x 40 with varied whitespace, escapes, en dashes and
 * member order, and every kind of mistake, several at once so that which
 * one is reported first matters) go through both; the reader is fed each
 * body whole, one byte at a time and in random pieces.  Both must agree on
 * the verdict, the error (kind, field, line, column, message) and the
 * position: its key (the side and every square) and its solved answer,
 * against the same bar read from judge text. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "prime_chocolate_core.h"
#include "harness.h"
#include "reader_diff.h"
#include "json_in.h"

/* ---- the two readers ---- */

/* The body read as parse_json read it before the reader: the tree, then
 * pc_read_grid; the bar it gives is made a position through judge text
 * (the position is the game's own), so the two can be compared. */
static void *read_tree(const char *body, size_t len, const long *lim, gj_error *e)
{
    static const char *const keys[] = {"grid", NULL};
    json_t *root = jin_load_object(body, len, keys, e);
    if (root == NULL)
        return NULL;
    long n = 0;
    unsigned char *cell = pc_read_grid(json_object_get(root, "grid"), lim[0], &n, e);
    json_decref(root);
    if (cell == NULL)
        return NULL;
    gj_buf text;
    buf_init(&text);
    buf_put_long(&text, n);
    buf_putc(&text, '\n');
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < n; j++)
            buf_putc(&text, cell[i * n + j] ? '-' : 'X');
        buf_putc(&text, '\n');
    }
    free(cell);
    void *pos = game_prime_chocolate.parse_text(text.data, text.len, lim, e);
    ck_assert_msg(pos != NULL, "judge text of a bar the tree took: %s", e->message);
    buf_free(&text);
    return pos;
}

/* The key and the answer of a position, solved: what two positions must
 * share.  The caller frees *out. */
static void describe(void *pos, gj_buf *out)
{
    gj_error e;
    buf_init(out);
    game_prime_chocolate.write_key(pos, out);
    buf_putc(out, '|');
    ck_assert_int_eq(game_prime_chocolate.solve(pos, &e), 0);
    game_prime_chocolate.write_text(pos, out);
    ck_assert(!out->failed);
}

/* The game's own verdicts, by words of the message, so the test can tell
 * that the bodies reached every check. */
static const char *const verdicts[] = {
    "grid: expected an array", "grid: expected 1 to", "]: expected a string",
    "]: unexpected character", "(the bar is square)", NULL,
};

/* The game's reader against its tree. */
static const rd_game diff = {
    .game = &game_prime_chocolate,
    .read_tree = read_tree,
    .describe = describe,
    .verdicts = verdicts,
};

/* ---- generated bodies ---- */

/* The squares of a bar: '-' chocolate (also an en dash, raw or escaped),
 * 'X' the poisoned ones. */
static const rd_cells cells = {
    .cell = {'X', '-'},
    .escaped = {"\\u0058", "\\u002D"},
    .alt = {"\xe2\x80\x93", "\\u2013"},
    .short_row = "\"--X\"",
    .strangers = {".", "#", "\xe2\x80\x94", "\\u2012"},
};

/* One body: a side up to max_side, the limit drawn from a few (the
 * default when valid), mistakes at rate 1 in odd. */
static void write_body(rd_gen *g, long max_side, uint64_t odd, long *lim)
{
    static const long limits[] = {1, 2, 3, 5, 8, 40, 2000, 16384};
    enum { NLIMITS = sizeof limits / sizeof limits[0] };
    long rows = 1 + (long)rng_below(&g->rng, (uint64_t)max_side);
    long cols = rows;
    lim[0] = 2000;
    if (odd > 0) {
        lim[0] = limits[rng_below(&g->rng, NLIMITS)];
        if (rd_one_in(g, odd * 4))
            rows = rd_one_in(g, 3) ? 0 : (long)rng_below(&g->rng, (uint64_t)cols + 2);
    }
    if (!rd_not_object(g, odd * 12, "[\"--\"]"))
        rd_grid_body(g, &cells, rows, cols, odd);
}

/* ---- the test ---- */

/* The bodies named by hand: escaped keys, en dashes, rows past the limit,
 * grid[0] as wide as the rows but not as many, the first of two mistakes,
 * an error after a wrong row. */
static const char *const named[] = {
    "{\"grid\": [\"--X\", \"---\", \"---\"]}",
    "{\"gri\\u0064\": [\"-\xe2\x80\x93X\", \"--\\u2013\", \"\\u002d--\"]}",
    "{\"grid\": [\"--X\", \"---\"]}",
    "{\"grid\": [\"--\", \"---\", \"---\"]}",
    "{\"grid\": [\"--X\", \"--\", \"x\"]}",
    "{\"grid\": [\"--X\", \"---\", 5]}",
    "{\"grid\": [\"\", \"---\", \"---\"]}",
    "{\"grid\": [\"--x\", 5, 6]}",
    "{\"grid\": [\"-\", \"-\", \"-\", \"-\"]}",
    "{\"grid\": [\"----\"]}",
    "{\"grid\": []}",
    "{\"grid\": \"--X\"}",
    "{\"grid\": [\"-\"], \"x\": [}",
    "{\"grid\": [\"-\"], \"n\": 2, \"grid\": 3}",
    "{\"n\": 2}",
    "{}",
    "[\"--\"]",
    NULL,
};

/* Valid bars up to 40 x 40; mistakes, each of pc_read_grid's checks met at
 * least 10 times; for parse_json, a second row wider than the first. */
static const rd_table table = {
    .name = "prime-chocolate json",
    .diff = &diff,
    .write = write_body,
    .valid = {0x9c0c0001, 1500, 40, 0},
    .mistakes =
        {
            {0x9c0c0002, 4000, 12, 2},
            {0x9c0c0003, 3000, 6, 1},
            {0x9c0c0004, 1000, 30, 4},
            {0x9c0c0005, 1000, 20, 16},
        },
    .least = 10,
    .named = named,
    .named_lim = {3},
    .parse_body = "{\"grid\": [\"--X\", \"----\", 7]}",
    .parse_field = "grid[1]",
    .parse_message = "grid[1]: row has 4 cells, expected 3 (the bar is square)",
    .parse_lim = {100},
};

/* The suite is the driver's: this file only says what it runs. */
int main(void)
{
    return rd_main(&table);
}

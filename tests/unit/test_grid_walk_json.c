/* test_grid_walk_json.c - grid-walk's chunk-fed JSON reader against the
 * tree it replaces.
 *
 * The oracle is the jansson path the reader took over: jin_load_object,
 * then gw_parse_grid on the tree.  Thousands of bodies from fixed seeds
 * (valid grids up to 40 x 40 with varied whitespace, escapes and member
 * order, and every kind of mistake, several at once so that which one is
 * reported first matters) go through both; the reader is fed each body
 * whole, one byte at a time and in random pieces.  Both must agree on the
 * verdict, the error (kind, field, line, column, message) and the position
 * (its size, the padded grid with its border, and the solved answer). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "games.h"
#include "grid_walk_core.h"
#include "harness.h"
#include "reader_diff.h"
#include "json_in.h"

/* ---- the two readers ---- */

/* The body read as parse_json read it before the reader: the tree, then
 * gw_parse_grid. */
static void *read_tree(const char *body, size_t len, const long *lim, gj_error *e)
{
    static const char *const keys[] = {"grid", NULL};
    json_t *root = jin_load_object(body, len, keys, e);
    if (root == NULL)
        return NULL;
    gw_position *pos = gw_parse_grid(json_object_get(root, "grid"), lim, e);
    json_decref(root);
    return pos;
}

/* The tree's position solved, for same to compare its answer. */
static void settle(void *want)
{
    gj_error e;
    ck_assert_int_eq(gw_solve(want, &e), 0);
}

/* The reader's position is the tree's: the size, the open cells, and once
 * solved the winning cells. */
static void same(void *got_pos, void *want_pos)
{
    gw_position *got = got_pos;
    const gw_position *want = want_pos;
    gj_error e;
    ck_assert_int_eq(got->rows, want->rows);
    ck_assert_int_eq(got->cols, want->cols);
    ck_assert_int_eq(got->width, want->width);
    size_t cells = (size_t)(want->rows + 2) * (size_t)want->width;
    ck_assert(memcmp(got->open, want->open, cells) == 0);
    ck_assert_int_eq(gw_solve(got, &e), 0);
    ck_assert_int_eq(got->nwinners, want->nwinners);
    ck_assert(memcmp(got->winners, want->winners, (size_t)want->nwinners * sizeof *want->winners) ==
              0);
}

/* The game's own verdicts, by words of the message, so the test can tell
 * that the bodies reached every check. */
static const char *const verdicts[] = {
    "grid: expected an array",
    "grid: expected 1 to",
    "]: expected a string",
    "]: unexpected character",
    "the number of columns must be",
    "(the width of grid[0])",
    NULL,
};

/* The game's reader against its tree. */
static const rd_game diff = {
    .game = &game_grid_walk,
    .read_tree = read_tree,
    .settle = settle,
    .same = same,
    .verdicts = verdicts,
};

/* ---- generated bodies ---- */

/* The cells of a grid-walk grid: '.' free, '#' walls. */
static const rd_cells cells = {
    .cell = {'#', '.'},
    .escaped = {"\\u0023", "\\u002E"},
    .alt = {NULL, NULL},
    .short_row = "\"..#\"",
    .strangers = {"X", "-", "\xe2\x80\x93", "\\u2013"},
};

/* One body: rows and columns up to max_side, limits drawn from a few (the
 * default when valid), mistakes at rate 1 in odd. */
static void write_body(rd_gen *g, long max_side, uint64_t odd, long *lim)
{
    static const long limits[] = {1, 2, 3, 5, 8, 40, 2000};
    enum { NLIMITS = sizeof limits / sizeof limits[0] };
    long rows = 1 + (long)rng_below(&g->rng, (uint64_t)max_side);
    long cols = 1 + (long)rng_below(&g->rng, (uint64_t)max_side);
    lim[0] = 2000;
    lim[1] = 2000;
    if (odd > 0) {
        lim[0] = limits[rng_below(&g->rng, NLIMITS)];
        lim[1] = limits[rng_below(&g->rng, NLIMITS)];
        if (rd_one_in(g, odd * 4))
            rows = 0;
    }
    if (!rd_not_object(g, odd * 12, "[\"..\"]"))
        rd_grid_body(g, &cells, rows, cols, odd);
}

/* ---- the test ---- */

/* The bodies named by hand: escaped keys, rows past both limits, the first
 * of two mistakes, an error after a wrong row. */
static const char *const named[] = {
    "{\"grid\": [\"..#\", \"...\"]}",
    "{\"gri\\u0064\": [\"..#\", \"..\\u002e\"]}",
    "{\"grid\": [\"..#\", \"..\", \"x\"]}",
    "{\"grid\": [\"..#\", \"...\", 5]}",
    "{\"grid\": [\"\", \"...\"]}",
    "{\"grid\": [\"..x\", 5]}",
    "{\"grid\": [\".\", \".\", \".\", \".\"]}",
    "{\"grid\": [\"....\"]}",
    "{\"grid\": []}",
    "{\"grid\": \"..#\"}",
    "{\"grid\": [\"..#\", \"..\"], \"x\": [}",
    "{\"grid\": [\"..#\"], \"n\": 2, \"grid\": 3}",
    "{\"n\": 2}",
    "{}",
    "[\"..\"]",
    NULL,
};

/* Valid grids up to 40 x 40; mistakes, each of gw_parse_grid's checks met
 * at least 10 times; for parse_json, a second row wider than the first. */
static const rd_table table = {
    .name = "grid-walk json",
    .diff = &diff,
    .write = write_body,
    .valid = {0x9a1d0001, 1500, 40, 0},
    .mistakes =
        {
            {0x9a1d0002, 4000, 12, 2},
            {0x9a1d0003, 3000, 6, 1},
            {0x9a1d0004, 1000, 30, 4},
            {0x9a1d0005, 1000, 20, 16},
        },
    .least = 10,
    .named = named,
    .named_lim = {3, 3},
    .parse_body = "{\"grid\": [\"..#\", \"....\", 7]}",
    .parse_field = "grid[1]",
    .parse_message = "grid[1]: row 2 has 4 cells, expected 3 (the width of grid[0])",
    .parse_lim = {100, 100},
};

/* The suite is the driver's: this file only says what it runs. */
int main(void)
{
    return rd_main(&table);
}

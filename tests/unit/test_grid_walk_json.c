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

/* The verdicts seen, by words of the message (or "solved"), so the test
 * can tell that the bodies reached every check. */
static const char *const verdicts[] = {
    "solved",
    "invalid JSON",
    "the JSON body must be an object",
    ": unknown field",
    ": missing required field",
    "grid: expected an array",
    "grid: expected 1 to",
    "]: expected a string",
    "]: unexpected character",
    "the number of columns must be",
    "(the width of grid[0])",
};
enum { NVERDICTS = sizeof verdicts / sizeof verdicts[0] };
static long verdict_count[NVERDICTS];

/* The game's reader against its tree. */
static const rd_game diff = {
    .game = &game_grid_walk,
    .read_tree = read_tree,
    .settle = settle,
    .same = same,
    .verdicts = verdicts,
    .nverdicts = NVERDICTS,
    .count = verdict_count,
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

/* Bodies from seed `seed`: `count` of them, sides up to max_side, mistakes
 * at rate 1 in odd (0: every body valid), limits drawn from a few. */
static void run_bodies(uint64_t seed, int count, long max_side, uint64_t odd)
{
    static const long limits[] = {1, 2, 3, 5, 8, 40, 2000};
    enum { NLIMITS = sizeof limits / sizeof limits[0] };
    rd_gen g = {seed, {0}};
    for (int c = 0; c < count; c++) {
        long rows = 1 + (long)rng_below(&g.rng, (uint64_t)max_side);
        long cols = 1 + (long)rng_below(&g.rng, (uint64_t)max_side);
        long lim[2] = {2000, 2000};
        if (odd > 0) {
            lim[0] = limits[rng_below(&g.rng, NLIMITS)];
            lim[1] = limits[rng_below(&g.rng, NLIMITS)];
            if (rd_one_in(&g, odd * 4))
                rows = 0;
        }
        buf_init(&g.b);
        if (odd > 0 && rd_one_in(&g, odd * 12)) {
            static const char *const tops[] = {"[]", " 1", "\"x\"", "null", "[\"..\"]", "1.5"};
            buf_puts(&g.b, tops[rng_below(&g.rng, sizeof tops / sizeof tops[0])]);
        } else {
            rd_grid_body(&g, &cells, rows, cols, odd);
        }
        rd_finish_body(&diff, &g, odd, lim);
    }
}

/* ---- tests ---- */

/* Valid grids up to 40 x 40 in every whitespace and spelling. */
START_TEST(test_valid)
{
    run_bodies(0x9a1d0001, 1500, 40, 0);
    ck_assert_int_eq(verdict_count[0], 1500);
}
END_TEST

/* Bodies with mistakes, often several: each check is met, and the first
 * in gw_parse_grid's order is the one both report. */
START_TEST(test_mistakes)
{
    rd_clear(&diff);
    run_bodies(0x9a1d0002, 4000, 12, 2);
    run_bodies(0x9a1d0003, 3000, 6, 1);
    run_bodies(0x9a1d0004, 1000, 30, 4);
    run_bodies(0x9a1d0005, 1000, 20, 16);
    rd_require(&diff, 10);
}
END_TEST

/* The bodies a test names by hand: escaped keys, rows past both limits,
 * the first of two mistakes, an error after a wrong row. */
START_TEST(test_named)
{
    static const char *const bodies[] = {
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
    };
    const long lim[2] = {3, 3};
    uint64_t rng = 1;
    for (size_t b = 0; b < sizeof bodies / sizeof bodies[0]; b++)
        rd_compare(&diff, bodies[b], strlen(bodies[b]), lim, &rng);
}
END_TEST

/* parse_json is the reader: its answer to a body is the tree's. */
START_TEST(test_parse_json)
{
    const long lim[2] = {100, 100};
    gj_error e;
    const char *body = "{\"grid\": [\"..#\", \"....\", 7]}";
    void *pos = game_grid_walk.parse_json(body, strlen(body), lim, &e);
    ck_assert_ptr_null(pos);
    ck_assert_str_eq(e.field, "grid[1]");
    ck_assert_str_eq(e.message, "grid[1]: row 2 has 4 cells, expected 3 (the width of grid[0])");
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
        harness_suite("grid-walk json", cases, sizeof cases / sizeof cases[0], 120));
}

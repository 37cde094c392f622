/* test_grid_walk_matching.c - grid-walk's push-relabel matching against
 * the Hopcroft-Karp one it replaced (grid_walk_matching.h).
 *
 * On thousands of grids from fixed seeds (random densities from 0 to 45%,
 * corridors, domino tilings with dominoes taken out, grids blocked on one
 * colour only, rooms behind doors) both matchings must have the same size,
 * and the whole answer (the cells some maximum matching misses) must be
 * the same; test_grid_walk.c checks that answer against the game-tree
 * oracle.  A raised cancel flag must stop either matching. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "games.h"
#include "grid_walk_core.h"
#include "grid_walk_matching.h"
#include "harness.h"

static const long raised[] = {2000, 2000};

/* splitmix64: the tests' own fixed-seed generator. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* True with the given chance per mille. */
static int chance(uint64_t *s, int permille)
{
    return (int)(next_random(s) % 1000) < permille;
}

enum layout { RANDOM, CORRIDORS, DOMINOES, ONE_COLOUR, ROOMS, NLAYOUTS };

/* cells[r * cols + c] for a grid of the given layout: '.' or '#'. */
static void fill(char *cells, int rows, int cols, enum layout kind, int permille, uint64_t *s)
{
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            char *x = &cells[r * cols + c];
            switch (kind) {
            case RANDOM:
                *x = chance(s, permille) ? '#' : '.';
                break;
            case CORRIDORS: /* every third row a wall with a gap at alternate ends */
                *x = (r % 3 == 2 && c != ((r / 3) % 2 ? 0 : cols - 1)) || chance(s, permille / 8)
                         ? '#'
                         : '.';
                break;
            case DOMINOES: /* horizontal pairs in a brick pattern, some taken out */
                *x = '.';
                break;
            case ONE_COLOUR:
                *x = (r + c) % 2 == 0 && chance(s, permille) ? '#' : '.';
                break;
            case ROOMS: /* 6 x 6 rooms, a door in each wall most of the time */
                *x = (r % 6 == 5 && (c % 6 != 2 || chance(s, 300))) ||
                             (c % 6 == 5 && (r % 6 != 2 || chance(s, 300))) ||
                             chance(s, permille / 4)
                         ? '#'
                         : '.';
                break;
            default:
                break;
            }
        }
    }
    if (kind == DOMINOES)
        for (int r = 0; r < rows; r++)
            for (int c = r % 2; c + 1 < cols; c += 2)
                if (chance(s, permille))
                    cells[r * cols + c] = cells[r * cols + c + 1] = '#';
}

/* The judge text of the grid, parsed under the raised limits (*e for the
 * failure message). */
static gw_position *parse(int rows, int cols, const char *cells, gj_error *e)
{
    size_t len = (size_t)rows * (size_t)(cols + 1) + 32;
    char *text = malloc(len);
    ck_assert_ptr_nonnull(text);
    int at = snprintf(text, len, "%d %d\n", rows, cols);
    for (int r = 0; r < rows; r++) {
        memcpy(text + at, cells + r * cols, (size_t)cols);
        at += cols;
        text[at++] = '\n';
    }
    gj_error_clear(e);
    void *parsed = game_grid_walk.parse_text(text, (size_t)at, raised, e);
    ck_assert_msg(parsed != NULL, "%s", e->message);
    free(text);
    return parsed;
}

/* Both matchings of the grid: the same size, and the same answer. */
static void check_grid(int rows, int cols, const char *cells, const char *what)
{
    gj_error e;
    gw_position *pos = parse(rows, cols, cells, &e);
    gw_matching *hk = gw_match_with(pos, GW_HOPCROFT_KARP, &e);
    gw_matching *pr = gw_match_with(pos, GW_PUSH_RELABEL, &e);
    ck_assert_msg(hk != NULL && pr != NULL, "%s", e.message);
    ck_assert_msg(gw_matching_size(pr) == gw_matching_size(hk),
                  "%s %d x %d: push-relabel matched %ld pairs, Hopcroft-Karp %ld", what, rows, cols,
                  gw_matching_size(pr), gw_matching_size(hk));
    gw_free_matching(hk);
    gw_free_matching(pr);

    ck_assert_int_eq(gw_solve_with(pos, GW_HOPCROFT_KARP, &e), 0);
    long n = pos->nwinners;
    int *want = malloc(((size_t)n + 1) * sizeof *want);
    ck_assert_ptr_nonnull(want);
    memcpy(want, pos->winners, (size_t)n * sizeof *want);
    ck_assert_int_eq(gw_solve_with(pos, GW_PUSH_RELABEL, &e), 0);
    ck_assert_msg(pos->nwinners == n && memcmp(pos->winners, want, (size_t)n * sizeof *want) == 0,
                  "%s %d x %d: push-relabel gives %ld winning cells, Hopcroft-Karp %ld", what, rows,
                  cols, pos->nwinners, n);
    free(want);
    gw_free_position(pos);
}

static const char *const layout_names[] = {"random", "corridors", "dominoes", "one colour",
                                           "rooms"};

/* `count` grids of up to `side` x `side` cells of every layout and density. */
static void check_many(int count, int side, uint64_t seed)
{
    char *cells = malloc((size_t)side * (size_t)side);
    ck_assert_ptr_nonnull(cells);
    for (int i = 0; i < count; i++) {
        int rows = 1 + (int)(next_random(&seed) % (uint64_t)side);
        int cols = 1 + (int)(next_random(&seed) % (uint64_t)side);
        enum layout kind = (enum layout)(i % NLAYOUTS);
        int permille = (int)(next_random(&seed) % 451);
        fill(cells, rows, cols, kind, permille, &seed);
        check_grid(rows, cols, cells, layout_names[kind]);
    }
    free(cells);
}

START_TEST(test_small_grids)
{
    check_many(4000, 24, 1501);
}
END_TEST

START_TEST(test_medium_grids)
{
    check_many(400, 120, 1502);
}
END_TEST

START_TEST(test_large_grids)
{
    check_many(10, 600, 1503);
}
END_TEST

/* A raised flag stops the matching with GJ_CANCELLED, whichever algorithm. */
START_TEST(test_cancelled)
{
    int side = 300;
    uint64_t seed = 1504;
    char *cells = malloc((size_t)side * side);
    ck_assert_ptr_nonnull(cells);
    fill(cells, side, side, RANDOM, 50, &seed);
    gj_error e;
    gw_position *pos = parse(side, side, cells, &e);
    gj_cancel c;
    gj_cancel_init(&c, 0);
    gj_cancel_raise(&c, GJ_CANCEL_GONE);
    gj_cancel_bind(&c);
    for (int how = GW_PUSH_RELABEL; how <= GW_HOPCROFT_KARP; how++) {
        gj_error_clear(&e);
        ck_assert_int_eq(gw_solve_with(pos, (gw_algorithm)how, &e), -1);
        ck_assert_int_eq(e.kind, GJ_CANCELLED);
    }
    gj_cancel_bind(NULL);
    ck_assert_int_eq(gw_solve(pos, &e), 0);
    gw_free_position(pos);
    free(cells);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *matching_suite(void)
{
    const harness_case cases[] = {
        {"against hopcroft-karp", test_small_grids},
        {"against hopcroft-karp", test_medium_grids},
        {"against hopcroft-karp", test_large_grids},
        {"cancel", test_cancelled},
    };
    return harness_suite("grid-walk matching", cases, sizeof cases / sizeof cases[0], 300);
}

int main(void)
{
    return harness_main(matching_suite());
}

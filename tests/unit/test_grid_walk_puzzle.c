/* test_grid_walk_puzzle.c - unit tests of grid-walk's puzzle parts: the
 * bounded finder's view (gj_play.look) and the motifs (gj_play.motifs).
 *
 * Thousands of random small positions (fixed seeds: grids of up to 6 x 6
 * at every density, openings and random walks of up to 10 cells) are
 * parsed and ranked by the game, and every move's look at one and two
 * plies and the solving move's motifs are compared exactly with the
 * oracle's (tests/oracle), which reads them off the rules with its own
 * enumeration.  Beside that the measure's own promises: values in
 * [-1, 1], a move that leaves the opponent stuck reads exactly +1 at both
 * plies, a move that goes on reads below 0 one ply ahead; and the motifs'
 * vocabulary and the puzzle knobs of the registry entry. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "games.h"
#include "grid_walk.h"
#include "grid_walk_oracle.h"
#include "harness.h"

#define GAME      (&game_grid_walk)
#define MOVES_MAX 64 /* more than any position of 6 x 6 has */
#define SIDE_MAX  6
#define WALK_MAX  10
#define POSITIONS 4000
#define NMOTIFS   3

/* ck_assert logs every passing check; this speaks only when it fails. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

static const long default_limits[GJ_MAX_LIMITS] = {100, 100, 0, 0};

/* A random position: the grid (row-major) and its path (0-based cells). */
typedef struct walk {
    int rows, cols;
    char cells[SIDE_MAX * SIDE_MAX];
    int path[WALK_MAX + 1]; /* room for a move looked at */
    int n;
} walk;

/* Whether cell (r, c) is on w's grid, free and off the path. */
static int open_cell(const walk *w, int r, int c)
{
    if (r < 0 || r >= w->rows || c < 0 || c >= w->cols || w->cells[r * w->cols + c] != '.')
        return 0;
    for (int i = 0; i < w->n; i++)
        if (w->path[i] == r * w->cols + c)
            return 0;
    return 1;
}

/* A grid of random size and density and a random walk on it (one in five
 * an opening, no path); 0 when the grid has no free cell. */
static int random_walk(walk *w, uint64_t *rng)
{
    w->rows = 1 + (int)rng_below(rng, SIDE_MAX);
    w->cols = 1 + (int)rng_below(rng, SIDE_MAX);
    int blocked = (int)rng_below(rng, 50);
    int nfree = 0;
    for (int i = 0; i < w->rows * w->cols; i++) {
        w->cells[i] = (int)rng_below(rng, 100) < blocked ? '#' : '.';
        nfree += w->cells[i] == '.';
    }
    w->n = 0;
    if (nfree == 0)
        return 0;
    if (rng_below(rng, 5) == 0)
        return 1;
    int want = 1 + (int)rng_below(rng, WALK_MAX), at;
    do
        at = (int)rng_below(rng, (uint64_t)(w->rows * w->cols));
    while (w->cells[at] != '.');
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (;;) {
        w->path[w->n++] = at;
        int next[4], k = 0;
        for (int d = 0; d < 4; d++)
            if (open_cell(w, at / w->cols + dr[d], at % w->cols + dc[d]))
                next[k++] = (at / w->cols + dr[d]) * w->cols + at % w->cols + dc[d];
        if (w->n == want || k == 0)
            return 1;
        at = next[rng_below(rng, (uint64_t)k)];
    }
}

/* w as an analyze() request, loaded. */
static json_t *request_of(const walk *w)
{
    json_t *grid = json_array(), *path = json_array();
    for (int r = 0; r < w->rows; r++)
        json_array_append_new(grid, json_stringn(w->cells + r * w->cols, (size_t)w->cols));
    for (int i = 0; i < w->n; i++)
        json_array_append_new(
            path, json_pack("[i,i]", w->path[i] / w->cols + 1, w->path[i] % w->cols + 1));
    json_t *req = json_pack("{s:o, s:o}", "grid", grid, "path", path);
    EXPECT(req != NULL, "out of memory");
    return req;
}

/* The 0-based cell of a move's id (a padded cell, cols + 2 wide). */
static int cell_of(const walk *w, uint64_t id)
{
    int width = w->cols + 2;
    return ((int)id / width - 1) * w->cols + (int)id % width - 1;
}

/* The opponent's moves once the token has gone to cell x. */
static int replies(walk *w, int x)
{
    w->path[w->n++] = x;
    int k = open_cell(w, x / w->cols - 1, x % w->cols) +
            open_cell(w, x / w->cols + 1, x % w->cols) +
            open_cell(w, x / w->cols, x % w->cols - 1) + open_cell(w, x / w->cols, x % w->cols + 1);
    w->n--;
    return k;
}

/* Every random position: look and motifs against the oracle's, and the
 * measure's promises.  Each motif must be seen, and missed, on a position
 * with a choice. */
START_TEST(test_against_oracle)
{
    uint64_t rng = 20260101;
    long checked = 0, seen[NMOTIFS] = {0}, choices = 0;
    for (int t = 0; t < POSITIONS; t++) {
        walk w;
        if (!random_walk(&w, &rng))
            continue;
        json_t *req = request_of(&w);
        gj_error e;
        void *pos = GAME->play->parse(req, default_limits, &e);
        json_decref(req);
        EXPECT(pos != NULL, "parse: %s", e.message);
        gj_move moves[MOVES_MAX];
        gj_rank_head head;
        long n = GAME->play->rank(pos, MOVES_MAX, moves, &head, &e);
        EXPECT(n >= 0 && head.moves_total == n, "rank: %ld of %lld", n, head.moves_total);
        if (n == 0) {
            GAME->play->free(pos);
            continue;
        }
        int cells[MOVES_MAX];
        for (long i = 0; i < n; i++)
            cells[i] = cell_of(&w, moves[i].id);
        for (int plies = 1; plies <= 2; plies++) {
            double got[MOVES_MAX], want[MOVES_MAX];
            EXPECT(GAME->play->look(pos, moves, n, plies, got, &e) == 0, "look: %s", e.message);
            gw_oracle_look(w.rows, w.cols, w.cells, w.path, w.n, cells, (int)n, plies, want);
            for (long i = 0; i < n; i++) {
                EXPECT(got[i] == want[i], "position %d, move %ld, %d plies: %.17g, oracle %.17g", t,
                       i, plies, got[i], want[i]);
                EXPECT(got[i] >= -1 && got[i] <= 1, "position %d: %g out of [-1, 1]", t, got[i]);
                int stuck = replies(&w, cells[i]) == 0;
                EXPECT(!stuck || got[i] == 1, "position %d: a move that ends the game reads %g", t,
                       got[i]);
                EXPECT(stuck || plies == 2 || (got[i] > -1 && got[i] <= -0.2),
                       "position %d: a move that goes on reads %g one ply ahead", t, got[i]);
            }
        }
        unsigned bits = 99;
        EXPECT(GAME->play->motifs(pos, moves, n, &bits, &e) == 0, "motifs: %s", e.message);
        unsigned want = gw_oracle_motifs(w.rows, w.cols, w.cells, w.path, w.n, cells, (int)n);
        EXPECT(bits == want, "position %d: motifs %u, oracle %u", t, bits, want);
        if (n >= 2) {
            choices++;
            for (int m = 0; m < NMOTIFS; m++)
                seen[m] += bits >> m & 1;
        }
        checked++;
        GAME->play->free(pos);
    }
    ck_assert_int_gt(checked, POSITIONS / 4);
    for (int m = 0; m < NMOTIFS; m++)
        ck_assert_msg(seen[m] > 0 && seen[m] < choices, "motif %s on %ld of %ld positions",
                      grid_walk_motifs[m].name, seen[m], choices);
}
END_TEST

/* A move the position does not have is refused, not read. */
START_TEST(test_foreign_move)
{
    json_t *req = json_loads("{\"grid\": [\"...\", \"...\"], \"path\": [[1, 1]]}", 0, NULL);
    gj_error e;
    void *pos = GAME->play->parse(req, default_limits, &e);
    json_decref(req);
    ck_assert_ptr_nonnull(pos);
    gj_move far = {.id = 2 * 5 + 3}; /* [2, 3]: not next to the token */
    double v;
    unsigned bits;
    ck_assert_int_eq(GAME->play->look(pos, &far, 1, 1, &v, &e), -1);
    ck_assert_int_eq(e.kind, GJ_INTERNAL);
    ck_assert_int_eq(GAME->play->motifs(pos, &far, 1, &bits, &e), -1);
    GAME->play->free(pos);
}
END_TEST

/* The vocabulary: 1 to 3 motifs, lowercase-with-hyphens, each with a doc;
 * and the registry's puzzle parts: its knobs grow with the band, up to
 * 8 x 8, and every depth is served. */
START_TEST(test_registry)
{
    ck_assert_ptr_eq(GAME->motifs, grid_walk_motifs);
    ck_assert(GAME->play->look == grid_walk_look);
    ck_assert(GAME->play->motifs == grid_walk_motif_bits);
    int k = 0;
    for (; GAME->motifs[k].name != NULL; k++) {
        for (const char *c = GAME->motifs[k].name; *c; c++)
            ck_assert_msg((*c >= 'a' && *c <= 'z') || *c == '-', "%s", GAME->motifs[k].name);
        ck_assert(GAME->motifs[k].doc != NULL && strlen(GAME->motifs[k].doc) > 10);
    }
    ck_assert_int_eq(k, NMOTIFS);
    long last = 0;
    for (int b = 0; b < GJ_NBANDS; b++) {
        json_t *knobs = json_loads(GAME->puzzle_knobs[b], 0, NULL);
        ck_assert_ptr_nonnull(knobs);
        long cells = (long)json_integer_value(json_object_get(knobs, "rows")) *
                     (long)json_integer_value(json_object_get(knobs, "cols"));
        ck_assert_int_gt(cells, last);
        ck_assert_int_le(cells, 64);
        last = cells;
        json_decref(knobs);
    }
    ck_assert_int_eq(GAME->puzzle_depth_max, 0);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *puzzle_suite(void)
{
    const harness_case cases[] = {
        {"against the oracle", test_against_oracle},
        {"foreign move", test_foreign_move},
        {"registry", test_registry},
    };
    return harness_suite("grid-walk puzzle", cases, sizeof cases / sizeof cases[0], 300);
}

int main(void)
{
    return harness_main(puzzle_suite());
}

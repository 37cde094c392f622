/* grid_walk_core.h - what grid_walk.c (solve) and grid_walk_analysis.c
 * (POST /analyze) share: the position, its JSON grid reading, the solve, and
 * the maximum matching behind both.  Private to those two files.
 *
 * Cells are numbered in the padded grid: the cell in 1-based row r and
 * column c is r * width + c, and open[] has a blocked border all round, so
 * its four neighbours are always valid indices.  A matching is built from
 * the free cells of open[] as they are when gw_match runs; later changes to
 * open[] do not reach it (gw_drop_cell is the way to take a cell out). */
#ifndef GJ_GRID_WALK_CORE_H
#define GJ_GRID_WALK_CORE_H

#include <stdbool.h>
#include <jansson.h>

#include "error.h"

enum { GW_LIMIT_ROWS, GW_LIMIT_COLS };

typedef struct gw_position {
    long rows, cols;
    int width;           /* cols + 2: one blocked column on each side */
    unsigned char *open; /* (rows + 2) * width, 1 = free, the border blocked */
    int *winners;        /* after gw_solve: cells A wins from, row-major */
    long nwinners;
} gw_position;

void gw_free_position(void *pos);

/* The grid of the member "grid" of an object already loaded (the caller has
 * checked its keys): the checks and messages of POST /solve's JSON body.
 * NULL with *e filled. */
gw_position *gw_parse_grid(const json_t *grid, const long *limits, gj_error *e);

/* Fill winners: the start cells from which the mover (B) loses.  0, or -1
 * with *e filled. */
int gw_solve(void *pos, gj_error *e);

/* A maximum matching of the free cells, as bipartite graph (chessboard
 * colours). */
typedef struct gw_matching gw_matching;

/* NULL with *e filled (out of memory, or a broken invariant). */
gw_matching *gw_match(const gw_position *pos, gj_error *e);
void gw_free_matching(gw_matching *m);

/* Take the free cell v out of the graph and keep the matching maximum (one
 * augmenting search from v's former mate).  True when the maximum shrank,
 * that is when every maximum matching covered v. */
bool gw_drop_cell(gw_matching *m, int v);

/* mark[c] = 1 for every free cell that some maximum matching leaves
 * unmatched, 0 for every other cell; mark has one byte per padded cell. */
void gw_mark_avoidable(gw_matching *m, unsigned char *mark);

#endif

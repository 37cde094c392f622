/* grid_walk_core.h - what grid_walk.c (solve) and grid_walk_analysis.c
 * (POST /analyze) share: the position, its JSON grid reading, the solve, and
 * the maximum matching behind both.  Private to those two files.
 *
 * Cells are numbered in the padded grid: the cell in 1-based row r and
 * column c is r * width + c, and open[] has a blocked border all round, so
 * its four neighbours are always valid indices.  The matching is in
 * grid_walk_matching.h. */
#ifndef GJ_GRID_WALK_CORE_H
#define GJ_GRID_WALK_CORE_H

#include <stdbool.h>
#include <jansson.h>

#include "error.h"

enum { GW_LIMIT_ROWS, GW_LIMIT_COLS };

/* How the maximum matching is built (grid_walk_matching.h). */
typedef enum gw_algorithm {
    GW_PUSH_RELABEL,  /* the default: push-relabel with global relabelling */
    GW_HOPCROFT_KARP, /* the former solver, a baseline for the bench and tests */
} gw_algorithm;

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

/* gw_solve with the matching built by `how` (grid_walk_matching.h): the
 * bench and the tests compare the two.  0, or -1 with *e filled. */
int gw_solve_with(void *pos, gw_algorithm how, gj_error *e);

#endif

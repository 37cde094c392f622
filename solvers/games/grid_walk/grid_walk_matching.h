/* grid_walk_matching.h - a maximum matching of a grid's free cells, the
 * bipartite graph of orthogonal adjacency (the sides are the chessboard
 * colours), for grid-walk's solve and analysis.  Private to grid_walk*.c.
 *
 * A matching is built from the free cells of pos->open as they are when
 * gw_match runs; later changes to open[] do not reach it (gw_drop_cell is
 * the way to take a cell out).  Cells are numbered as in grid_walk_core.h.
 * Both algorithms give a maximum matching, not always the same one; what
 * grid-walk reads from it (gw_mark_avoidable, gw_drop_cell) is the same for
 * every maximum matching.  Building one checks the thread's cancel flag
 * (cancel.h) every few thousand steps. */
#ifndef GJ_GRID_WALK_MATCHING_H
#define GJ_GRID_WALK_MATCHING_H

#include <stdbool.h>

#include "error.h"
#include "grid_walk_core.h"

typedef struct gw_matching gw_matching;

/* A maximum matching by `how`, from a Karp-Sipser greedy start.  NULL with
 * *e filled: out of memory, GJ_CANCELLED, or a broken invariant. */
gw_matching *gw_match_with(const gw_position *pos, gw_algorithm how, gj_error *e);

/* gw_match_with(pos, GW_PUSH_RELABEL, e). */
gw_matching *gw_match(const gw_position *pos, gj_error *e);

void gw_free_matching(gw_matching *m);

/* The bytes gw_match_with allocates for pos, at most (its graph's arrays). */
size_t gw_matching_bytes(const gw_position *pos);

/* The number of matched pairs. */
long gw_matching_size(const gw_matching *m);

/* Take the free cell v out of the graph and keep the matching maximum (one
 * augmenting search from v's former mate).  True when the maximum shrank,
 * that is when every maximum matching covered v. */
bool gw_drop_cell(gw_matching *m, int v);

/* mark[c] = 1 for every free cell that some maximum matching leaves
 * unmatched, 0 for every other cell; mark has one byte per padded cell. */
void gw_mark_avoidable(gw_matching *m, unsigned char *mark);

#endif

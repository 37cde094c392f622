/* grid_walk_oracle.h - brute-force referee for grid-walk.
 *
 * Plays the game straight from its rules by exhaustive game-tree search: A
 * puts the token on a free cell, then B and A alternately move it to an
 * adjacent free cell it has never been on, and whoever cannot move loses.  A
 * state is (the token's cell, the cells visited so far).  It knows nothing
 * about matchings, so it can judge the fast solver.  Grids are plain
 * row-major arrays of rows*cols bytes, '.' free and '#' blocked. */
#ifndef GJ_GRID_WALK_ORACLE_H
#define GJ_GRID_WALK_ORACLE_H

/* The most free cells one search accepts (the memo has k * 2^k bytes). */
#define GW_ORACLE_MAX_FREE 20

/* The judge output for the grid: "LOSE\n", or "WIN\n" and one "r c\n" line
 * per winning start cell (1-based, row-major order), as a malloc'd string
 * the caller frees.  NULL when the grid has more than GW_ORACLE_MAX_FREE
 * free cells or memory runs out. */
char *grid_walk_oracle(int rows, int cols, const char *cells);

/* Mid-play: one grid's game tree, its memo kept across questions. */
typedef struct gw_tree gw_tree;

/* NULL when the grid has more than GW_ORACLE_MAX_FREE free cells or memory
 * runs out. */
gw_tree *gw_tree_new(int rows, int cols, const char *cells);
void gw_tree_free(gw_tree *t);

/* 1 when the player to move wins, 0 when they lose, with the token on the
 * free cell (r, c) (0-based) and visited[i * cols + j] != 0 for every cell
 * the token has been on (the token's own cell may be marked or not). */
int gw_tree_mover_wins(gw_tree *t, int r, int c, const unsigned char *visited);

/* The remoteness of the same position: the moves left to the end with the
 * winner hurrying and the loser delaying (0 with no move; when the mover
 * wins, 1 + the least over moves to a lost position; else 1 + the greatest
 * over all moves); -1 when out of memory. */
int gw_tree_remoteness(gw_tree *t, int r, int c, const unsigned char *visited);

#endif

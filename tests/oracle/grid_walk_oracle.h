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

/* The puzzle's parts by the rules (game.h's gj_play.look and .motifs, as
 * grid_walk_puzzle.c states them), for positions of any size: the grid,
 * the path's cells path[0..npath) as 0-based r * cols + c (npath 0: the
 * opening, A to place the token), and the moves' cells moves[0..nmoves),
 * each a legal move there.
 *
 * The measure: the player to move on a cell is worth, to themselves,
 * (m * (n + 1) + r) / (5 (n + 1)) with m their legal moves, r the free
 * unvisited cells their walk can still reach and n the grid's free cells,
 * and -1 with no move.  value[i] is, one ply ahead, minus the opponent's
 * worth after moves[i]; two plies ahead, the least over the opponent's
 * replies of the mover's worth after it, +1 with no reply. */
void gw_oracle_look(int rows, int cols, const char *cells, const int *path, int npath,
                    const int *moves, int nmoves, int plies, double *value);

/* The motifs' bits (grid_walk_motifs' order) of moves[0] among the
 * moves: 1 cut-off (the opponent is left one move), 2 wall-off (a cell the
 * walk could reach before the move, other than its own, is out of reach
 * after it; never at the opening), 4 generous (another move leaves the
 * opponent fewer moves). */
unsigned gw_oracle_motifs(int rows, int cols, const char *cells, const int *path, int npath,
                          const int *moves, int nmoves);

#endif

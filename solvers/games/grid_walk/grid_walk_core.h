/* grid_walk_core.h - what grid_walk.c (solve) and grid_walk_analysis.c
 * (POST /analyze) share: the position, its JSON grid reading, the solve, and
 * the maximum matching behind both, the path of a walk and its reading
 * (grid_walk_path.c), and the picture the analysis' parsed position draws
 * (grid_walk_draw.c).  Private to the game's files.
 *
 * Cells are numbered in the padded grid: the cell in 1-based row r and
 * column c is r * width + c, and open[] has a blocked border all round, so
 * its four neighbours are always valid indices.  The matching is in
 * grid_walk_matching.h. */
#ifndef GJ_GRID_WALK_CORE_H
#define GJ_GRID_WALK_CORE_H

#include <stdbool.h>
#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

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

/* The 1-based row of padded cell c (the border is row 0). */
static inline long gw_cell_row(const gw_position *pos, int c)
{
    return c / pos->width;
}

/* The 1-based column of padded cell c. */
static inline long gw_cell_col(const gw_position *pos, int c)
{
    return c % pos->width;
}

/* Whether padded cells a and b share a side. */
static inline bool gw_adjacent(const gw_position *pos, int a, int b)
{
    int d = a > b ? a - b : b - a;
    return d == 1 || d == pos->width; /* the padding keeps rows apart */
}

/* The walk's "path" in the tree v, checked against pos: each element a
 * 1-based [row, column] of the grid, free, next to the one before and new.
 * 0 with *out (the padded cells, room for *n + 1) and the visited cells
 * blocked in pos->open but for the last, the token's; or -1 with *e. */
int gw_path_from_json(const json_t *v, gw_position *pos, int **out, long *n, gj_error *e);

/* An /analyze body's "path" read as it arrives (game.h's gj_event_reader,
 * analysis_read.h): its elements kept as pairs, judged only by
 * gw_path_judge once the grid is read, with gw_path_from_json's checks,
 * order and words.  Its finished position is a gw_path_read. */
typedef struct gw_path_read gw_path_read;
extern const gj_event_reader gw_path_events;
int gw_path_judge(const gw_path_read *read, gw_position *pos, int **out, long *n, gj_error *e);

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

/* The picture of a walk (game.h's gj_play.draw, grid_walk_draw.c): pos
 * with open[] as the analysis keeps it (the path blocked but for the
 * token's cell), the path's n padded cells, the token on the last.  0, or
 * -1 with *e (GJ_UNMET past svg.h's bound on the board). */
int gw_draw(const gw_position *pos, const int *path, long n, gj_buf *out, int *width, int *height,
            gj_error *e);

/* Remoteness (grid_walk_far.c): a search over the cells still open in a
 * position (pos->open as the analysis set it: the path blocked, the token's
 * cell open), its memo kept across the calls of one analysis. */
typedef struct gw_far gw_far;

/* What gw_far_walk answers past the bound of analysis.h. */
#define GW_FAR_PAST (-2L)

/* A search over pos (kept, not copied): NULL with *e. */
gw_far *gw_far_new(const gw_position *pos, gj_error *e);
void gw_far_free(gw_far *f);

/* The value of the token on v, to move, with every cell open from v still
 * free: 2 * remoteness + 1 when the mover wins, + 0 when not; and after[i]
 * the same for the position moves[i] (each an open neighbour of v) leads
 * to.  GW_FAR_PAST past the bound, -1 with *e (out of memory, cancelled). */
long gw_far_walk(gw_far *f, int v, const int *moves, int nmoves, long *after, gj_error *e);

/* The position in play p (grid_walk.h's grid_walk_play) as the puzzle's
 * parts read it: its grid, with the path blocked but for the token's cell,
 * and into *token the token's padded cell (-1 at the opening, before it is
 * placed) and into *visited the path's length.  Read only. */
const gw_position *gw_play_view(const void *p, int *token, long *visited);

#endif

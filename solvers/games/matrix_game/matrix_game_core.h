/* matrix_game_core.h - what matrix_game.c (solve), matrix_game_read.c (the
 * readers), matrix_game_analysis.c (POST /analyze), matrix_game_puzzle.c
 * (puzzles) and matrix_game_draw.c (pictures) share: the position, its JSON reading and validation,
 * the table of winning cells, the token of a position in play and the picture of one.  Private to
 * those files.
 *
 * W[c], "c is a winning cell", means the player who has just moved the
 * token onto c wins from there; the solver's M/G table is exactly W (M
 * placing the token on c).  See matrix_game.c for why the table is right and
 * matrix_game_analysis.c for what it says about a position in mid-play. */
#ifndef GJ_MATRIX_GAME_CORE_H
#define GJ_MATRIX_GAME_CORE_H

#include <stdint.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"
#include "text_read.h"

enum { MG_LIMIT_N };

typedef struct mg_position {
    long n, k;
    /* The matrix as read, row-major; freed once cell_of is built. */
    uint32_t *value;
    /* By value - 1: the cell holding it, packed (row + 1) << 16 | (column + 1),
     * so that zero marks a value no cell holds and calloc clears the table. */
    uint32_t *cell_of;
    /* After mg_solve: n rows of n 'M' (winning cell) / 'G', each followed by
     * '\n' (the judge text, stride n + 1). */
    char *outcome;
} mg_position;

/* 1-based row and column of a packed cell. */
static inline long mg_row(uint32_t cell)
{
    return (long)(cell >> 16);
}

/* The 1-based column of a packed cell. */
static inline long mg_col(uint32_t cell)
{
    return (long)(cell & 0xffff);
}

/* W at 1-based (row, col); only after mg_solve. */
static inline int mg_winning(const mg_position *pos, long row, long col)
{
    return pos->outcome[(row - 1) * (pos->n + 1) + (col - 1)] == 'M';
}

void mg_free(mg_position *pos);

/* A position of side n with room for the n x n values (value only), or
 * NULL with *e. */
mg_position *mg_position_new(long n, long k, gj_error *e);

/* The values read (pos->value, each in 1..n^2) filed by value into
 * pos->cell_of, and pos->value freed: GJ_NO_REPEAT; GJ_REPEAT_FOUND, with
 * value kept for mg_find_repeat; GJ_REPEAT_FAILED with *e (memory). */
gj_repeat mg_index_cells(mg_position *pos, gj_error *e);

/* The first repeat of pos->value in reading order, as the row-major
 * indices of its two cells: 0, or -1 with *e (memory). */
int mg_find_repeat(const mg_position *pos, long *first, long *second, gj_error *e);

/* game.h's work_bytes: the solve's outcome rows and the /solve answer. */
size_t mg_work_bytes(const void *pos);

/* The judge text's steps (text_read.h), in matrix_game_read.c. */
extern const gj_text_steps mg_text_steps;

/* The picture of a position in play (game.h's gj_play.draw,
 * matrix_game_draw.c): the token on 1-based (row, col), row 0 at the
 * opening, `to_move` 'M' or 'G'.  0, or -1 with *e (GJ_UNMET past svg.h's
 * bound on the board). */
int mg_draw(const mg_position *pos, long row, long col, char to_move, gj_buf *out, int *width,
            int *height, gj_error *e);

/* The position named by the members "k" and "matrix" of an object already
 * loaded (the caller has checked its keys): the same checks and messages as
 * POST /solve's JSON body.  NULL with *e filled. */
mg_position *mg_from_json(const json_t *root, const long *limits, gj_error *e);

/* The JSON body of POST /solve read as it arrives, straight into the
 * position's arrays (no tree): open, feed the body in chunks of any size,
 * then finish, which gives what mg_from_json gives for the body loaded by
 * jin_load_object (the same position, or the same error; JSON errors
 * first).  A failed open or feed leaves *e filled; close a reader that is
 * not finished. */
typedef struct mg_json_reader mg_json_reader;
/* A reader for bodies under `limits`, or NULL with *e. */
mg_json_reader *mg_json_open(const long *limits, gj_error *e);
/* The next n bytes of the body: 0, or -1 with *e (a JSON error). */
int mg_json_feed(mg_json_reader *r, const char *p, size_t n, gj_error *e);
/* The body has ended: the position, or NULL with *e; r is freed either way. */
mg_position *mg_json_finish(mg_json_reader *r, gj_error *e);
/* Free a reader not finished (NULL is fine). */
void mg_json_close(mg_json_reader *r);

/* The same reader driven by another pull's events (game.h's
 * gj_event_reader: "k" and "matrix", the bulk one): how an /analyze body's
 * position is read as it arrives (analysis_read.h). */
extern const gj_event_reader mg_events;

/* The matrix of pos as jansson's compact dump writes the one read:
 * [[v,...],...] row by row.  Allocation failure shows in out->failed. */
void mg_write_matrix(const mg_position *pos, gj_buf *out);

/* Fill pos->outcome (W for every cell): 0, or -1 with *e filled. */
int mg_solve(mg_position *pos, gj_error *e);

/* The position under a parsed position in play (matrix_game_play), solved,
 * and its token's packed cell into *token (0 at the opening, where every
 * cell is a move): NULL with *e when the solve fails. */
const mg_position *mg_play_at(void *play, uint32_t *token, gj_error *e);

#endif

/* staircase_chess_core.h - the solver's pieces that the analysis shares
 * (staircase_chess.c owns them; staircase_chess_analysis.c uses them), and
 * the picture its parsed position draws (staircase_chess_draw.c).
 *
 * Contract: sc_read_json() reads and checks "a" and "b" exactly as a solve
 * does.  sc_tabulate() prepares the rank tables of a board; sc_rank() gives
 * the rank of a staircase (row lengths, top row first, in the board's own
 * orientation).  sc_sweep() fills value[r] for the rank r of every staircase
 * that contains `profile` (NULL: the empty board, so all of them), in rank
 * order, and returns profile's own: value[r] is the best margin (own future
 * score minus the opponent's) of the player to move there.  value[] must
 * hold rank(profile) + 1 entries; those of other staircases are left as
 * they were.  A move only adds a stone, so every staircase reachable from
 * `profile` contains it and has a smaller rank. */
#ifndef GJ_STAIRCASE_CHESS_CORE_H
#define GJ_STAIRCASE_CHESS_CORE_H

#include <stdint.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"

/* Largest n + m: masks fit 32 bits, C(28, 14) ranks fit an int32 array of
 * 160 MB. */
#define SC_MAX_SIZE 28

enum { SC_LIMIT_ROWS, SC_LIMIT_COLS, SC_LIMIT_SIZE };

typedef struct sc_board {
    long n, m;
    int32_t *a; /* n*m, black's value of each cell */
    int32_t *b; /* n*m, white's value of each cell */
    long score; /* black minus white under perfect play, after solve */
} sc_board;

/* The rank tables.  The path of a staircase has `rows` down steps among
 * `size` bits; a tall board is read transposed so that `rows` is the short
 * side. */
typedef struct sc_moves {
    long rows, size;
    int tall;
    uint32_t states; /* C(size, rows) */
    uint32_t binom[SC_MAX_SIZE + 1][SC_MAX_SIZE + 1];
    uint32_t step[SC_MAX_SIZE][SC_MAX_SIZE];   /* [p][j]: rank drop, C(p - 1, j) */
    int32_t gain[2][SC_MAX_SIZE][SC_MAX_SIZE]; /* [who][p][j]: A (black) or B (white) */
} sc_moves;

void sc_board_free(void *p);
/* A copy of board g (its score included), or NULL with *e. */
sc_board *sc_board_copy(const sc_board *g, gj_error *e);
/* The board of the JSON object's "a" and "b" under the limits, or NULL
 * with *e naming the field. */
sc_board *sc_read_json(const json_t *root, const long *limits, gj_error *e);
/* The JSON body of POST /solve read as it arrives (json_pull.h): exactly
 * the answers and errors, in the same order, of sc_parse_tree, the jansson
 * path it took over (kept as the reference).  open, feed the body in pieces
 * of any size (0, or -1 with *e; then only close), then finish (the board,
 * or NULL with *e; it closes the reader either way). */
typedef struct sc_json_reader sc_json_reader;
sc_json_reader *sc_json_open(const long *limits, gj_error *e);
int sc_json_feed(sc_json_reader *r, const char *p, size_t n, gj_error *e);
void *sc_json_finish(sc_json_reader *r, gj_error *e);
void sc_json_close(sc_json_reader *r);
void *sc_parse_tree(const char *buf, size_t len, const long *limits, gj_error *e);
void sc_tabulate(const sc_board *pos, sc_moves *t);
uint32_t sc_rank(const sc_moves *t, const long *profile);
/* Fill value[] for every staircase containing `profile` (NULL: the empty
 * board, so every staircase), in rank order; *result is profile's value.
 * 0, or -1 with *e when cancelled (cancel.h). */
int sc_sweep(const sc_moves *t, int32_t *value, const long *profile, int32_t *result, gj_error *e);
/* The board, the row lengths (top row first) and the stone count of a
 * parsed position in play (staircase_chess_play's), as it is now: what
 * the puzzle's look and motifs read.  Nothing returned is to be changed. */
void sc_play_view(const void *pos, const sc_board **board, const long **profile, long *stones);

/* The picture of a staircase in play (game.h's gj_play.draw,
 * staircase_chess_draw.c): board g, its rows' stones `profile` (top row
 * first), `stones` in all; played[k] the cell (row * m + column) of the
 * k-th stone placed and so_far black's score minus white's, or played NULL
 * when the order is not known.  0, or -1 with *e (GJ_UNMET past svg.h's
 * bound on the board). */
int sc_draw(const sc_board *g, const long *profile, long stones, const long *played,
            long long so_far, gj_buf *out, int *width, int *height, gj_error *e);

#endif

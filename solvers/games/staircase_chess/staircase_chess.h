/* staircase_chess.h - the staircase-chess game as the rest of the service sees it: its
 * registry entry (game.h) and the functions that entry points to which live
 * in files of their own (staircase_chess_analysis.c, staircase_chess_generate.c,
 * staircase_chess_puzzle.c).  What
 * the game's files share beyond this is staircase_chess_core.h, private to them. */
#ifndef GJ_STAIRCASE_CHESS_H
#define GJ_STAIRCASE_CHESS_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

extern const gj_game game_staircase_chess;

/* analyze(), its request's members and play_move() (game.h). */
int staircase_chess_analyze(const char *buf, size_t len, const long *limits, gj_buf *out,
                            gj_error *e);
extern const char *const staircase_chess_analyze_keys[];
int staircase_chess_play_move(json_t *req, const json_t *entry, gj_error *e);
/* The game's parsed positions in play (game.h's gj_play), which analyze()
 * is a wrapper over. */
extern const gj_play staircase_chess_play;

/* gj_play's look and motifs on a parsed position in play, and the game's
 * own puzzle themes that motifs' bits name (game.h). */
int staircase_chess_look(void *pos, const gj_move *moves, long n, int plies, double *value,
                         gj_error *e);
int staircase_chess_motifs_of(void *pos, const gj_move *moves, long n, unsigned *bits, gj_error *e);
extern const gj_theme staircase_chess_motifs[];

/* generate(), generate_most(), generate_keep() and the generator's own knobs (game.h). */
int staircase_chess_generate(const char *buf, size_t len, const long *limits, gj_buf *out,
                             gj_error *e);
int staircase_chess_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                                  int *scored, gj_error *e);
int staircase_chess_generate_keep(const char *buf, size_t len, const long *limits,
                                  struct gen_kept *kept, gj_error *e);
extern const char *const staircase_chess_generate_knobs[];

/* The true bound on the legal moves of a position in play the generator
 * makes (proved beside the generator, checked against every small board by
 * tests/unit/test_generate.c): some position of the size has that many,
 * none more. */
long sc_gen_most(long rows, long cols);

#endif

/* matrix_game.h - the matrix-game game as the rest of the service sees it: its
 * registry entry (game.h) and the functions that entry points to which live
 * in files of their own (matrix_game_analysis.c, matrix_game_generate.c,
 * matrix_game_puzzle.c).  What the game's files share beyond this is
 * matrix_game_core.h, private to them. */
#ifndef GJ_MATRIX_GAME_H
#define GJ_MATRIX_GAME_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

extern const gj_game game_matrix_game;

/* analyze(), its request's members and play_move() (game.h). */
int matrix_game_analyze(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e);
extern const char *const matrix_game_analyze_keys[];
int matrix_game_play_move(json_t *req, const json_t *entry, gj_error *e);
/* The game's parsed positions in play (game.h's gj_play), which analyze()
 * is a wrapper over. */
extern const gj_play matrix_game_play;

/* The puzzles' parts of it (matrix_game_puzzle.c): gj_play's look and
 * motifs, and the vocabulary the motifs' bits name (gj_game.motifs). */
int matrix_game_look(void *pos, const gj_move *moves, long n, int plies, double *value,
                     gj_error *e);
int matrix_game_motifs(void *pos, const gj_move *moves, long n, unsigned *bits, gj_error *e);
extern const gj_theme matrix_game_motif_list[];

/* generate(), generate_most(), generate_keep() and the generator's own knobs (game.h). */
int matrix_game_generate(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e);
int matrix_game_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                              int *scored, gj_error *e);
int matrix_game_generate_keep(const char *buf, size_t len, const long *limits,
                              struct gen_kept *kept, gj_error *e);
extern const char *const matrix_game_generate_knobs[];

/* The true bound on the legal moves of a position in play the generator
 * makes (proved beside the generator, checked against every small board by
 * tests/unit/test_generate.c): some position of the size has that many,
 * none more. */
long mg_gen_most(long n, long k);

#endif

/* nim_shortcuts.h - the nim-shortcuts game as the rest of the service sees it: its
 * registry entry (game.h) and the functions that entry points to which live
 * in files of their own (nim_shortcuts_analysis.c, nim_shortcuts_generate.c,
 * nim_shortcuts_puzzle.c).  What
 * the game's files share beyond this is nim_shortcuts_core.h, private to them. */
#ifndef GJ_NIM_SHORTCUTS_H
#define GJ_NIM_SHORTCUTS_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

extern const gj_game game_nim_shortcuts;

/* analyze(), its request's members, its parsed position and play_move()
 * (game.h). */
int nim_shortcuts_analyze(const char *buf, size_t len, const long *limits, gj_buf *out,
                          gj_error *e);
extern const char *const nim_shortcuts_analyze_keys[];
extern const gj_play nim_shortcuts_play;
int nim_shortcuts_play_move(json_t *req, const json_t *entry, gj_error *e);

/* generate(), generate_most(), generate_keep() and the generator's own knobs (game.h). */
int nim_shortcuts_generate(const char *buf, size_t len, const long *limits, gj_buf *out,
                           gj_error *e);
int nim_shortcuts_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                                int *scored, gj_error *e);
int nim_shortcuts_generate_keep(const char *buf, size_t len, const long *limits,
                                struct gen_kept *kept, gj_error *e);
extern const char *const nim_shortcuts_generate_knobs[];

/* The puzzle's parts of the parsed position (game.h's gj_play look and
 * motifs, nim_shortcuts_puzzle.c) and the motifs' vocabulary (gj_game's
 * motifs, bit i of nim_shortcuts_motif_bits naming entry i). */
int nim_shortcuts_look(void *pos, const gj_move *moves, long n, int plies, double *value,
                       gj_error *e);
int nim_shortcuts_motif_bits(void *pos, const gj_move *moves, long n, unsigned *bits, gj_error *e);
extern const gj_theme nim_shortcuts_motifs[];

/* The true bound on the legal moves of a position in play the generator
 * makes (proved beside the generator, checked against every small board by
 * tests/unit/test_generate.c): some position of the size has that many,
 * none more. */
long long ns_gen_most(long shortcuts, long range);

#endif

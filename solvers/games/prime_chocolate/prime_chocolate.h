/* prime_chocolate.h - the prime-chocolate game as the rest of the service sees it: its
 * registry entry (game.h) and the functions that entry points to which live
 * in files of their own (prime_chocolate_analysis.c, prime_chocolate_generate.c).  What
 * the game's files share beyond this is prime_chocolate_core.h, private to them. */
#ifndef GJ_PRIME_CHOCOLATE_H
#define GJ_PRIME_CHOCOLATE_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

extern const gj_game game_prime_chocolate;

/* analyze(), its request's members and play_move() (game.h). */
int prime_chocolate_analyze(const char *buf, size_t len, const long *limits, gj_buf *out,
                            gj_error *e);
extern const char *const prime_chocolate_analyze_keys[];
int prime_chocolate_play_move(json_t *req, const json_t *entry, gj_error *e);
/* The parsed position in play (game.h's gj_play) that analyze() wraps. */
extern const gj_play prime_chocolate_play;

/* generate(), generate_most(), generate_keep() and the generator's own knobs (game.h). */
int prime_chocolate_generate(const char *buf, size_t len, const long *limits, gj_buf *out,
                             gj_error *e);
int prime_chocolate_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                                  int *scored, gj_error *e);
int prime_chocolate_generate_keep(const char *buf, size_t len, const long *limits,
                                  struct gen_kept *kept, gj_error *e);
extern const char *const prime_chocolate_generate_knobs[];

/* The game's puzzle motifs (gj_game's motifs, prime_chocolate_puzzle.c):
 * bit i of gj_play.motifs names entry i. */
extern const gj_theme prime_chocolate_motifs[];

/* The true bound on the legal moves of a position in play the generator
 * makes (proved beside the generator, checked against every small board by
 * tests/unit/test_generate.c): some position of the size has that many,
 * none more. */
long pc_gen_most(long n, const long *used, long nused);

#endif

/* grid_walk.h - the grid-walk game as the rest of the service sees it: its
 * registry entry (game.h) and the functions that entry points to which live
 * in files of their own (grid_walk_analysis.c, grid_walk_generate.c,
 * grid_walk_puzzle.c).  What the game's files share beyond this is
 * grid_walk_core.h, private to them. */
#ifndef GJ_GRID_WALK_H
#define GJ_GRID_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

extern const gj_game game_grid_walk;

/* analyze(), its request's members and play_move() (game.h). */
int grid_walk_analyze(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e);
extern const char *const grid_walk_analyze_keys[];
int grid_walk_play_move(json_t *req, const json_t *entry, gj_error *e);
/* The parsed position in play that analyze() wraps and the line drives (game.h). */
extern const gj_play grid_walk_play;

/* The puzzle's parts of a position in play (grid_walk_puzzle.c): game.h's
 * gj_play.look and gj_play.motifs, and the motifs' vocabulary
 * (gj_game.motifs). */
int grid_walk_look(void *pos, const gj_move *moves, long n, int plies, double *value, gj_error *e);
int grid_walk_motif_bits(void *pos, const gj_move *moves, long n, unsigned *bits, gj_error *e);
extern const gj_theme grid_walk_motifs[];

/* generate(), generate_most(), generate_keep() and the generator's own knobs (game.h). */
int grid_walk_generate(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e);
int grid_walk_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                            int *scored, gj_error *e);
int grid_walk_generate_keep(const char *buf, size_t len, const long *limits, struct gen_kept *kept,
                            gj_error *e);
extern const char *const grid_walk_generate_knobs[];

/* The true bound on the legal moves of a position in play the generator
 * makes (proved beside the generator, checked against every small board by
 * tests/unit/test_generate.c): some position of the size has that many,
 * none more. */
long gw_gen_most(long rows, long cols);
/* The bound among the positions in play with exactly `winning` winning
 * moves and another move (0: none), on a grid that may have blocks or has
 * none: exact by enumeration up to 9 cells, gw_gen_most above. */
long gw_gen_most_winning(long rows, long cols, bool blocks, long winning);

#endif

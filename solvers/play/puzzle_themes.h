/* puzzle_themes.h - the themes a puzzle carries (puzzle.h): named
 * properties of its solution, computed from the line and the rules each
 * time the puzzle is made, never stored.
 *
 * The general themes hold in any game and read only what every game's
 * ranking says (outcomes, remoteness) and the bounded finder's view
 * (gj_play.look); each game adds its own motifs (gj_game.motifs, decided
 * by gj_play.motifs on each step's position).  A puzzle's themes are the
 * general ones that hold of it, then the motifs that hold at any of its
 * steps, in vocabulary order. */
#ifndef GJ_PUZZLE_THEMES_H
#define GJ_PUZZLE_THEMES_H

#include <stdbool.h>

#include "game.h"

/* The general themes, {NULL, NULL}-terminated, in the order answers list them. */
extern const gj_theme puzzle_general_themes[];

/* The deepest puzzle g serves (gj_game.puzzle_depth_max, 0 read as
 * GJ_PUZZLE_DEPTHS). */
int puzzle_depth_max(const gj_game *g);

/* Theme i of g's whole vocabulary, the general themes first, then g's
 * motifs; NULL past the end. */
const gj_theme *puzzle_theme_at(const gj_game *g, int i);

/* Whether `name` is a theme of g's vocabulary. */
bool puzzle_theme_known(const gj_game *g, const char *name);

#endif

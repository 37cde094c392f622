/* puzzle_rating.h - a built puzzle's difficulty, rating and themes, from
 * its line alone (puzzle.h states the finder model, the scale and the
 * rating; puzzle_themes.h the themes).  Integer arithmetic, divisions and
 * four-decimal rounding only, so the same on every machine. */
#ifndef GJ_PUZZLE_RATING_H
#define GJ_PUZZLE_RATING_H

#include "game.h"
#include "puzzle.h"

/* p's miss, difficulty, rating and themes from its built line (each
 * step's miss, greedy move, motifs and ranked moves set). */
void puzzle_rate(puzzle *p);

/* The index of theme `name` in g's vocabulary (puzzle_theme_at), or -1
 * when it has none of that name. */
int puzzle_theme_index(const gj_game *g, const char *name);

#endif

/* puzzle_build.h - one generator candidate made into a puzzle (puzzle.h).
 *
 * The generator is asked for a position in play with exactly one winning
 * move and at least min_moves moves, and hands its kept candidate over
 * parsed (generate.h's gen_keep).  Each step is ranked whole and must have
 * one solving move among at least two; the solving move and the defender's
 * first-ranked reply are played on a clone, to the depth asked.  The built
 * line is then rated (puzzle_rating.h) and its id written (puzzle_id.h).
 * The search (puzzle_search.h) counts why candidates were not kept. */
#ifndef GJ_PUZZLE_BUILD_H
#define GJ_PUZZLE_BUILD_H

#include <stdbool.h>

#include "error.h"
#include "puzzle.h"

/* Why a candidate was not kept: what puzzle_build returns less one, and
 * the search's own band and theme filters, counted for the message of a
 * search that found none in time. */
enum {
    PUZZLE_MISS_UNIQUE,
    PUZZLE_MISS_ENDS,
    PUZZLE_MISS_LISTED,
    PUZZLE_MISS_REPEATS,
    PUZZLE_MISS_BAND,
    PUZZLE_MISS_THEME,
    PUZZLE_NMISS
};

/* The puzzle of generator seed s into p (p's game, depth, min_moves and
 * knobs set; its line before is dropped), from the candidate at p->skip
 * when `again` (a rebuild: one candidate, no search), else from the
 * generator's search within budget_ms, which sets p->skip.  limits (the
 * game's and the budget ceiling, GEN_NLIMITS) are copied into p, which
 * its positions read as long as it lives.  0, 1 + PUZZLE_MISS_* when the
 * candidate is no puzzle, -1 with *e. */
int puzzle_build(puzzle *p, long long s, bool again, const long *limits, long budget_ms,
                 gj_error *e);

/* Free what a puzzle holds (a zeroed one too). */
void puzzle_free(puzzle *p);

#endif

/* puzzle_search.h - puzzles made (puzzle.h): found by a search over the
 * generator's candidates, rebuilt from an id, or picked for the day.
 *
 * Each candidate is made into a puzzle by puzzle_build.h (its line to the
 * depth asked, each step held to one solving move, rated and named);
 * here the request is read, what the size cannot reach refused at once,
 * and candidates tried in the order a seed gives, so a seed always gives
 * the same puzzle. */
#ifndef GJ_PUZZLE_SEARCH_H
#define GJ_PUZZLE_SEARCH_H

#include <stdbool.h>

#include <jansson.h>

#include "error.h"
#include "game.h"
#include "puzzle.h"
#include "puzzle_build.h" /* puzzle_free */

#define PUZZLE_MIN_MOVES_DEFAULT 4
/* The daily puzzles' dates: from PUZZLE_DAILY_FIRST to tomorrow (UTC). */
#define PUZZLE_DAILY_FIRST "2026-01-01"
/* A daily puzzle is PUZZLE_DAILY_DEPTH moves deep when one of the day's
 * first PUZZLE_DAILY_TRIES candidates is, else one move deep. */
#define PUZZLE_DAILY_DEPTH 2
#define PUZZLE_DAILY_TRIES 200
/* The generator's budget of an id's rebuild: one candidate, whose solve
 * the caller's deadline bounds first; never the search's budget. */
#define PUZZLE_REBUILD_MS 3600000L
/* The most candidates a GET /puzzle may bound its search to ("tries"). */
#define PUZZLE_TRIES_MAX 5000

/* A puzzle as GET /puzzle/{game} asks for it: `params` holds "seed",
 * "band" or "difficulty_min"/"difficulty_max", "depth", "min_moves",
 * "budget_ms" (at most limits[GEN_LIMIT_BUDGET]), "tries" (1 to
 * PUZZLE_TRIES_MAX) and the game's generator knobs.  Candidates are tried in
 * the seed's order until one fits, so a seed always gives the same puzzle
 * (when one is found within the budget at all); *seeded says whether the
 * caller gave the seed.  Without tries the budget alone ends the search,
 * so whether it finds one depends on the machine's speed; with tries at
 * most that many candidates are tried and the outcome depends on the
 * parameters alone, a search that runs out of budget first being
 * GJ_OVERLOADED.  0, or -1 with *e: bad_input naming the member, GJ_UNMET
 * naming the constraint no candidate met (in time, or within tries). */
int puzzle_find(const gj_game *g, const json_t *params, const long *limits, puzzle *p, bool *seeded,
                gj_error *e);

/* The puzzle `id` names, rebuilt by making the one candidate it names (no
 * search, nothing a budget or a busy machine can fail): 0, or -1 with *e
 * (bad_input for an id that is not one, not_found for one of another
 * game). */
int puzzle_from_id(const gj_game *g, const char *id, const long *limits, puzzle *p, gj_error *e);

/* The daily puzzle of `date` ("YYYY-MM-DD", from PUZZLE_DAILY_FIRST to
 * `today` + 1 day; `today` the same form): one per game and day, seeded by
 * the game and the date, of any difficulty (see PUZZLE_DAILY_DEPTH).  0, or
 * -1 with *e (bad_input naming "date"). */
int puzzle_daily(const gj_game *g, const char *date, const char *today, const long *limits,
                 puzzle *p, gj_error *e);

#endif

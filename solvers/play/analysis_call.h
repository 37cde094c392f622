/* analysis_call.h - a game's analysis of a request held as JSON, read back,
 * and what the endpoints over analyze() share.
 *
 * analysis_call() runs the game's own analyze() on a request written as
 * JSON text and reads the answer back: what play_pos.h's adapter drives a
 * game without a parsed position of its own (game.h's gj_play) with, and
 * the tests' definition of an analysis.  The line, the engine, the moves
 * to play (play_moves.h) and puzzles drive every game through play_pos.h
 * instead, so a
 * game with gj_play never goes through JSON text between their steps;
 * the ranking policy is still the game's, the same in `moves`, in the line
 * and for the engine. */
#ifndef GJ_ANALYSIS_CALL_H
#define GJ_ANALYSIS_CALL_H

#include <jansson.h>

#include "error.h"
#include "game.h"

/* g's analysis of `req` (an analyze() request object, left unchanged) with
 * "max_moves" set to max_moves: the answer as JSON (the caller
 * json_decref()s it), or NULL with *e filled as analyze() filled it. */
json_t *analysis_call(const gj_game *g, const json_t *req, long max_moves, const long *limits,
                      gj_error *e);

/* The members `names` (NULL-terminated) of req that only the wrapper reads:
 * the first one present, or NULL. */
const char *analysis_first_member(const json_t *req, const char *const *names);

/* The most members an endpoint over analyze() may list: the game's and the
 * wrapper's own. */
#define ANALYSIS_MAX_MEMBERS 16

/* Every member of `req` is one the endpoint takes: one of g's analyze_keys
 * (without "max_moves" when `drop` names it; NULL drops none) or one of
 * `own` (the wrapper's, NULL-terminated, "?name" when optional).  0, or -1
 * with *e naming the first other member and listing exactly those, so the
 * message of /analyze or /move is not the bare analyze()'s. */
int analysis_known_members(const gj_game *g, const json_t *req, const char *drop,
                           const char *const *own, gj_error *e);

#endif

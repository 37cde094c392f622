/* analysis_call.h - a game's analysis of a request held as JSON, read back:
 * the tests' and the bench's definition of an analysis.
 *
 * analysis_call() runs the game's own analyze() on a request written as
 * JSON text and reads the answer back.  The product never does: the line,
 * the engine, the moves to play and puzzles drive every game through its
 * parsed position (game.h's gj_play); play_adapter.h drives a game through
 * this call instead, the oracle those are held to. */
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

#endif

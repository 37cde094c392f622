/* analysis_call.h - a game's analysis of a request held as JSON, read back.
 *
 * The engine, the moves to play and puzzles work over the analysis answer
 * (analysis.h), never inside a game: they run the game's own analyze() on
 * a request they have changed (a move played, max_moves set) and read the
 * ranked moves from its JSON; so does the perfect-play line for a game
 * without a parsed position of its own (play_pos.h's adapter).  So the
 * ranking policy is the game's, the same in `moves`, in the line and for
 * the engine. */
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

/* The most moves "moves" may hold (each one is an analysis). */
#define ANALYSIS_MOVES_MAX 200

/* Play `moves` (a JSON array, each a move as the game's analysis writes
 * one, or NULL for none) on req in order, as UCI's "position ... moves"
 * does: each must be one of the legal moves of the position the earlier
 * ones lead to, found in that position's analysis and played with the
 * game's play_move.  0, or -1 with *e: bad_input naming "moves[k]" and why
 * (not a move of the position, the game already over, or a position with
 * more moves than one analysis lists). */
int analysis_play_moves(const gj_game *g, json_t *req, const json_t *moves, const long *limits,
                        gj_error *e);

#endif

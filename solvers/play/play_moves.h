/* play_moves.h - the moves to play first ("moves") of /analyze and /move.
 *
 * A request may name moves to play from its position, in order, as UCI's
 * "position ... moves" does; the position they lead to is the one
 * answered.  They are found and played on the position parsed once
 * (play_pos.h), each checked, and a move that is not legal there is
 * refused naming moves[k]. */
#ifndef GJ_PLAY_MOVES_H
#define GJ_PLAY_MOVES_H

#include <jansson.h>

#include "error.h"
#include "game.h"
#include "play_pos.h"

/* The most moves "moves" may hold. */
#define PLAY_MOVES_MAX 200

/* `moves` (a request's "moves", or NULL for none) is a list of at most
 * PLAY_MOVES_MAX moves of a game that takes moves to play: 0, or -1
 * with *e naming "moves".  Checked before the position is read, so these
 * messages come first, as they always have. */
int play_moves_check(const gj_game *g, const json_t *moves, gj_error *e);

/* Play `moves` (checked by play_moves_check) on p, in order, as UCI's
 * "position ... moves" does: each must be one of the legal moves of the
 * position the earlier ones lead to, found there (gj_play's find) and
 * played in place, with no JSON text between moves.  0, or -1 with *e:
 * bad_input naming "moves[k]" and why (not a move of the position, or the
 * game already over). */
int play_moves(play_pos *p, const json_t *moves, gj_error *e);

#endif

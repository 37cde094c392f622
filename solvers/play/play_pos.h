/* play_pos.h - a game's position in play, parsed once, for every game.
 *
 * The perfect-play line (line.h) drives a game through game.h's gj_play:
 * parse once, analyse, rank, write and play moves, write members.  A game
 * that offers it (gj_game.play) is driven directly; for a game that does
 * not yet, play_open() gives the same interface over the game's JSON
 * analyze() and play_move(), as the line worked before: each ranking is
 * the game's analysis of the request written as JSON text (analysis_call.h),
 * a move is named by its index in that analysis, and each move is played on
 * that JSON.  So what drives a game has one code path for every game, this
 * adapter is the definition the games' own gj_play is tested against
 * (tests/unit/test_play.c), and it goes away from the line when the last
 * game offers gj_play. */
#ifndef GJ_PLAY_POS_H
#define GJ_PLAY_POS_H

#include <jansson.h>

#include "error.h"
#include "game.h"

typedef struct play_pos {
    const gj_play *ops; /* the game's own, or the adapter's */
    void *pos;          /* what ops->parse made */
} play_pos;

/* g's position of the analyze() request `req` (loaded, its members checked,
 * left unchanged) into *p, through g->play or the adapter; limits must
 * outlive *p.  0, or -1 with *e (the game's own message). */
int play_open(play_pos *p, const gj_game *g, const json_t *req, const long *limits, gj_error *e);

/* Whether g is driven through the adapter (no gj_play of its own). */
int play_adapted(const gj_game *g);

/* Free what play_open made. */
void play_close(play_pos *p);

#endif

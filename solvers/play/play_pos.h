/* play_pos.h - a game's position in play, parsed once, for every game.
 *
 * The perfect-play line (line.h), the moves to play (play_moves.h), the
 * engine (engine.h), its level games (levels.h) and puzzles (puzzle.h)
 * drive a game through game.h's gj_play: parse once, analyse, rank, write,
 * find and play moves, clone, write members, with no JSON text between
 * steps.  Every game offers it (gj_game.play).  The definition it is held
 * to, the same interface over the game's JSON analyze() and play_move(),
 * is a test's (tests/oracle/play_adapter.h), which gives a game entry
 * whose `play` is that adapter, opened here like any other. */
#ifndef GJ_PLAY_POS_H
#define GJ_PLAY_POS_H

#include <jansson.h>

#include "analysis_read.h"
#include "error.h"
#include "game.h"

typedef struct play_pos {
    const gj_play *ops; /* the game's gj_play */
    void *pos;          /* what ops->parse made */
} play_pos;

/* g's position of the analyze() request `req` (loaded, its members checked,
 * left unchanged) into *p, through g->play; limits must outlive *p.  0, or
 * -1 with *e (the game's own message; GJ_INTERNAL for a game without
 * gj_play). */
int play_open(play_pos *p, const gj_game *g, const json_t *req, const long *limits, gj_error *e);

/* play_open over a request whose position was read as its body arrived
 * (analysis_read.h): the same checks in the same order, the position's
 * own refusal given where the game's parse would give it, and read->pos
 * taken by the game (adopt).  0, or -1 with *e. */
int play_open_read(play_pos *p, const gj_game *g, const json_t *req, analysis_body *read,
                   const long *limits, gj_error *e);

/* Free what play_open made. */
void play_close(play_pos *p);

#endif

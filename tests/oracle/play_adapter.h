/* play_adapter.h - a game's position in play driven through its JSON
 * analyze() and play_move(): the oracle of its parsed position.
 *
 * Every game offers game.h's gj_play, which the product drives (the line,
 * the moves to play, the engine, its levels, puzzles).  The adapter gives
 * the same interface over the game's JSON analysis instead, the way every
 * line was walked before gj_play: each ranking is the game's analysis of
 * the request written as JSON text (analysis_call.h), a move is named by
 * its index in that analysis, each move is played on that JSON with the
 * game's play_move, and each written entry goes through after.h's JSON
 * writer.  So it is the definition the parsed positions are held to, byte
 * for byte (tests/unit/test_play.c, test_line.c, test_engine.c) and timed
 * against (bench/line_rate.c).  Its find() searches the last analysis when
 * that one lists every move (a puzzle's step, ranked whole), else one
 * analysis of at most ANALYSIS_MAX_MOVES_LIMIT moves. */
#ifndef GJ_PLAY_ADAPTER_H
#define GJ_PLAY_ADAPTER_H

#include "game.h"

/* *out becomes g (a game of games.def, by name) with `play` the adapter
 * over g's own analyze() and play_move(), so whatever opens a position
 * (play_pos.h) drives it through JSON text: 0, or -1 when g is none of
 * games.def's. */
int play_adapter_game(const gj_game *g, gj_game *out);

#endif

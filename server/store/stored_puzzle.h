/* stored_puzzle.h - a rated puzzle (puzzle.h) as the store keeps it
 * (store.h's store_puzzle), shared by the `puzzles` command (fill, import)
 * and the routes that store a puzzle on its first rated play.
 *
 * The position is the puzzle's first position as GET /puzzle writes it,
 * the solution the line's moves in order (solving move, reply, ...), the
 * themes their names space-separated, the band the difficulty's (0 easy, 1
 * medium, 2 hard) and the starting rating the computed one with deviation
 * GLICKO_PUZZLE_RD and volatility GLICKO_START_VOL, no plays. */
#ifndef GJ_STORED_PUZZLE_H
#define GJ_STORED_PUZZLE_H

#include "error.h"
#include "puzzle.h"
#include "store.h"

/* Fill *out from p (out's texts owned by it: store_puzzle_free): 0, or -1
 * with *e (only when memory runs out). */
int stored_puzzle_from(const puzzle *p, store_puzzle *out, gj_error *e);

#endif

/* puzzle_write.h - the text of the puzzles' answers: a puzzle as GET
 * /puzzle serves it, its band, and the one JSON form every value of a
 * puzzle answer is written in (so the bytes are the same on every run). */
#ifndef GJ_PUZZLE_WRITE_H
#define GJ_PUZZLE_WRITE_H

#include <jansson.h>

#include "buf.h"
#include "puzzle.h"

/* The band of a difficulty: "easy", "medium" or "hard". */
const char *puzzle_band(double difficulty);

/* Append v as compact JSON, keys sorted (one text per value); out->failed
 * when it cannot be written. */
void puzzle_put_json(gj_buf *out, const json_t *v);

/* {"game","id","position","to_move","legal_moves","depth","min_moves",
 * "difficulty","band","rating","themes"}: the puzzle without its
 * solution, the difficulty with four decimals, the themes in vocabulary
 * order (puzzle_themes.h). */
void puzzle_write(const puzzle *p, gj_buf *out);

#endif

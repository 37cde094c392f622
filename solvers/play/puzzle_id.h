/* puzzle_id.h - a puzzle's id: written from its fields, read back into
 * them, and one spelling only.
 *
 * An id names a puzzle without any state: "2" (the format's major
 * version), then base64url of the compact JSON, keys sorted,
 * {"c":skip,"d":depth,"g":game,"k":{knobs},"m":min_moves,"s":seed} and an
 * 8-hex-digit checksum of that JSON (FNV-1a, its low 32 bits), joined by
 * '.'.  seed and skip name the generator's kept candidate itself
 * (generate.h), so the id rebuilds the same position, line and difficulty
 * by making that one candidate (puzzle_from_id, puzzle_search.h): the same
 * on every machine and every version with the same major number.  One
 * puzzle has one id: any other spelling of the same fields is refused.
 * Version 1 ids named the seed of the generator's search instead and are
 * no longer read.  Nothing here makes or checks a position. */
#ifndef GJ_PUZZLE_ID_H
#define GJ_PUZZLE_ID_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "error.h"
#include "game.h"
#include "puzzle.h"

#define PUZZLE_ID_MAJOR 2

/* FNV-1a, 64 bits, of s[len]: the ids' checksums and the daily seeds. */
uint64_t puzzle_fnv1a(const char *s, size_t len);

/* The id of p's naming fields (game, seed, skip, depth, min_moves, knobs)
 * into p->id: 0, or -1 with *e (GJ_UNMET for one of PUZZLE_ID_MAX or more
 * characters). */
int puzzle_id_make(puzzle *p, gj_error *e);

/* Fail *e as a bad id: bad_input "id: why" naming the field "id"; -1. */
int puzzle_id_bad(gj_error *e, const char *why);

/* The naming fields of the puzzle `id` names into a zeroed *p, its line
 * left empty: 0, or -1 with *e and *p zeroed (bad_input naming "id" for a
 * text that is no id, another spelling of one or a member that is no knob
 * of g's generator; not_found for an id of another game). */
int puzzle_id_read(const gj_game *g, const char *id, puzzle *p, gj_error *e);

#endif

/* after.h - the "after" of every answer entry as a whole request body.
 *
 * A game's analysis writes each entry's "after" as what the move changed
 * (its diff: matrix-game {"token","to_move"}, grid-walk {"token","to_move",
 * "visited"}, nim-shortcuts {"heaps","to_move"}, prime-chocolate
 * {"chocolate_left","primes_used","to_move"}, staircase-chess {"profile",
 * "to_move"}): the line, the engine and the moves to play all walk the game
 * on those.  What /analyze and /move answer is, by default ("after":
 * "full"), the whole position instead: the request's position members with
 * the move played by the game's play_move, in the request's order, then the
 * diff's members the position lacks.  So every member a client read before
 * is still there, and the object posted back unchanged to /analyze or /move
 * describes exactly the position after the move (the games take the diff's
 * extra members back and check them against the position).  "after":
 * "diff" keeps the diff, for clients with huge positions.
 *
 * Cost: a member the move leaves alone (the matrix, the grid, the
 * shortcuts, the boards) is written once per request and copied as bytes
 * into each entry; only the members the move changes are written per
 * entry.  The "after" bytes of one answer are bounded by
 * ANALYSIS_AFTER_BYTES_MAX (analysis.h): past it the answer is a 422 naming
 * the bound and the ways out, never a shortened answer.  Under it they are
 * asked of the thread's memory grant as they are written (grant.h), since
 * they can pass what the request's body was charged many times over. */
#ifndef GJ_AFTER_H
#define GJ_AFTER_H

#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

/* The most members kept written once per request. */
#define AFTER_CACHE 8

typedef struct after_writer {
    const gj_game *game;
    int full;     /* whole positions (1) or the games' diffs (0) */
    size_t bytes; /* the "after" bytes written so far in this answer */
    size_t limit; /* the bound on bytes */
    struct {
        json_t *value; /* held, so its address names it for the whole request */
        gj_buf text;
    } cache[AFTER_CACHE];
    int cached;
} after_writer;

/* Read and remove the optional "after" member of a request: *full is 1 for
 * "full" or absent, 0 for "diff".  0, or -1 with *e naming "after". */
int after_take(json_t *root, int *full, gj_error *e);

/* A writer for one answer of game g; full as after_take gave it. */
void after_init(after_writer *w, const gj_game *g, int full);
void after_free(after_writer *w);

/* The members of `entry` (an analysis entry whose "after" is the diff)
 * without braces, comma-separated, with "after" whole when w->full;
 * `req` is the position the move is played in (an analyze() request).
 * 0, or -1 with *e (the bound passed: GJ_UNMET naming "after"). */
int after_put_members(after_writer *w, const json_t *req, const json_t *entry, gj_buf *out,
                      gj_error *e);

/* Count `bytes` more of whole "after"s written into this answer by other
 * means (a game's parsed position, game.h's gj_play): 0, or -1 with *e as
 * after_put_members fails when the bound is passed, or with the grant's
 * refusal (grant.h). */
int after_count(after_writer *w, size_t bytes, gj_error *e);

/* An analysis answer (parsed) of the position `req`, written with every
 * "moves" entry through after_put_members: 0, or -1 with *e.  What an
 * answer held only as JSON text is rewritten with (kit/generate.c); a
 * parsed position writes its own (after_write_answer). */
int after_put_answer(after_writer *w, const json_t *req, const json_t *answer, gj_buf *out,
                     gj_error *e);

/* The analysis of `pos` (a position of `ops`, game.h's gj_play) into out,
 * its "moves" entries with whole afters when w->full: the head as the
 * game's analyze() writes it, then each entry of rank(max_moves) through
 * write_move(whole = 1), each after counted against the bound as it is
 * written.  max_moves is the one the position was parsed with.  The same
 * bytes after_put_answer makes of the analysis read back, without JSON
 * text between.  0, or -1 with *e (out cut back to where it was). */
int after_write_answer(after_writer *w, const gj_play *ops, void *pos, long max_moves, gj_buf *out,
                       gj_error *e);

#endif

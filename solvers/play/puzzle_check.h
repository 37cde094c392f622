/* puzzle_check.h - a visitor's try at a puzzle (the body of POST
 * /puzzle/{game}/{id}/check) read, then judged against the puzzle its id
 * rebuilt (puzzle_search.h): each move found among the step's legal ones,
 * right only when it is the solving one.  Nothing here searches, solves
 * or rebuilds. */
#ifndef GJ_PUZZLE_CHECK_H
#define GJ_PUZZLE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "puzzle.h"

/* A visitor's try, {"moves":[...], "reveal": bool}, read before any
 * puzzle is rebuilt so that a bad body costs nothing and is named as
 * itself. */
typedef struct puzzle_try {
    json_t *root;
    const json_t *moves; /* an array of at most PUZZLE_DEPTH_MAX, or NULL */
    bool reveal;
} puzzle_try;

/* Read and check `body` into *t: 0, or -1 with *e naming the member. */
int puzzle_try_read(const char *body, size_t len, puzzle_try *t, gj_error *e);

/* The try in root, an object a caller has read itself (one whose body also
 * carries members of its own, taken out before): moves and reveal checked
 * as puzzle_try_read checks them, any other member refused.  0 with
 * t->root holding the caller's reference to root, or -1 with *e and root
 * still the caller's. */
int puzzle_try_take(json_t *root, puzzle_try *t, gj_error *e);

/* Free what puzzle_try_read filled (a zeroed one too). */
void puzzle_try_free(puzzle_try *t);

/* The try judged against p: each of the visitor's moves judged in turn,
 * the defender's reply after each correct one while the puzzle goes on,
 * "solved" after the last; the solution only when revealed or once a move
 * was wrong.  0, or -1 with *e (bad_input naming moves[k] and why for an
 * illegal move, giving the form of a move and never a move). */
int puzzle_check_try(const puzzle *p, const puzzle_try *t, gj_buf *out, gj_error *e);

/* puzzle_try_read then puzzle_check_try on `body`. */
int puzzle_check(const puzzle *p, const char *body, size_t len, gj_buf *out, gj_error *e);

#endif

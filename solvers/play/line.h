/* line.h - POST /analyze with "line": the perfect-play line.
 *
 * line_analyze() is what /analyze runs for every game.  A request without
 * the line members is answered with the game's analysis of its parsed
 * position (play_pos.h).  With "moves" (play_moves.h: the moves played
 * from the position, in order, each checked, on the position parsed once)
 * the position they lead to is the one analysed.  "after" ("full", the
 * default, or "diff") says how every entry's after is written (after.h),
 * in "moves" and in the line alike.  With "line": true it answers the
 * game's analysis plus
 *
 *   "line": [entry, ...], "line_truncated": false, "line_cycle": false
 *
 * where the entries, shaped like the "moves" entries, are the moves both
 * sides play from the position under perfect play: each is moves[0], the
 * best move by the game's ranking policy (analysis.h), of the position the
 * previous ones lead to.  The line ends where the game ends (a position
 * with no legal move) or after "max_line" moves (1..LINE_MAX_LIMIT, default
 * LINE_MAX_DEFAULT); "line_truncated" is true when it stopped at max_line
 * with moves still to play.  A game whose positions repeat
 * (matrix-game, which never ends) stops at the first move that leads to a
 * position the line has already reached: "line_cycle" is then true and
 * "line_cycle_start" is the index of the first move of the cycle, so
 * line[line_cycle_start..] repeats forever.
 *
 * The work bound counts moves.  The line drives the game through its
 * parsed position (game.h's gj_play, play_pos.h): parsed once, then each
 * move is a best move found and played in place, so max_line alone bounds
 * it, up to LINE_MAX_LIMIT, whatever the position's size; the moves to
 * play ("moves") are played on it too, PLAY_MOVES_MAX of them at most.
 * What bounds the answer's bytes is its afters': with "after": "full" (the
 * default) every entry, in "moves" and in the line, carries the whole
 * position, and all of them together may hold at most
 * ANALYSIS_AFTER_BYTES_MAX (after.h; 422 past it, naming "after": "diff"
 * or fewer moves), so a long line of a large position is asked with
 * "after": "diff".  No bound depends on the body as sent: padding, spacing
 * and escapes never change an answer, which is a function of the parsed
 * request alone.
 *
 * Cost: the position parsed once and analysed once (matrix-game: one
 * solve for the whole request); with whole afters the listed moves ranked
 * once more and written from the position (after.h); then per move of the
 * line the game's best move, which for matrix-game is a walk of its
 * winning cells or of the few largest values, not of the matrix.  A
 * repeating game's positions are hashed, so the cycle check is linear in
 * the line's length.  The loop checks the cancel flag
 * between moves, so a deadline stops a long line. */
#ifndef GJ_LINE_H
#define GJ_LINE_H

#include <jansson.h>
#include <stddef.h>

#include "analysis_read.h"
#include "buf.h"
#include "error.h"
#include "game.h"

#define LINE_MAX_DEFAULT 100
#define LINE_MAX_LIMIT   10000

/* An /analyze request read once (line_prepare): the position's members,
 * the line options in effect, and
 * the request's canonical form, on which alone the answer depends (the
 * position's members with sorted keys, plus "line" and the max_line in
 * effect when the line is asked for, "after": "diff" when asked; "line":
 * false is no line, "after": "full" the default).  Two
 * bodies with one canonical form get byte-identical answers, so the form is
 * what a cache or an entity tag may be keyed on. */
typedef struct line_request {
    json_t *root;   /* the position's members: the request less the line options */
    json_t *moves;  /* "moves", played before the analysis (play_moves.h), or NULL */
    int want;       /* "line": true */
    int after_full; /* "after": whole positions (after.h), not diffs */
    long max_line;  /* in effect: the caller's, or LINE_MAX_DEFAULT */
    char *canonical;
    size_t canonical_len;
    /* The body read as it arrived (analysis_read.h): root came from it, and
     * the position is the one it read, which the first opening takes;
     * NULL when the position is parsed from root. */
    analysis_body *read;
} line_request;

/* Parse and check the request body buf[len] into *q: 0, or -1 with *e
 * (invalid JSON, a bad line option) and *q holding nothing.  The game's
 * own members are checked when it runs (line_run). */
int line_prepare(const char *buf, size_t len, line_request *q, gj_error *e);
/* line_prepare over a body already read into its tree (json_tree.h), which
 * *q takes (it is released with q, or at once on failure). */
int line_prepare_tree(json_t *root, line_request *q, gj_error *e);

/* line_prepare over a body read as it arrived with its bulk member in the
 * game's arrays (analysis_read.h), which *q takes (it is released with q,
 * or at once on failure): the same request, canonical form and errors. */
int line_prepare_read(analysis_body *read, line_request *q, gj_error *e);

/* q's canonical form handed over as the whole of *out (a buffer of its
 * own, for the caller to free), q keeping none: a key built on it need not
 * copy a large body's form. */
void line_take_canonical(line_request *q, gj_buf *out);

/* The analysis of a prepared request, with its line when asked for, into
 * out: 0, or -1 with *e.  The line is played on q->root, so a prepared
 * request runs once. */
int line_run(const gj_game *g, line_request *q, const long *limits, gj_buf *out, gj_error *e);

/* Free what line_prepare made. */
void line_request_free(line_request *q);

/* line_prepare, line_run and line_request_free in one call: 0, or -1
 * with *e filled. */
int line_analyze(const gj_game *g, const char *buf, size_t len, const long *limits, gj_buf *out,
                 gj_error *e);

#endif

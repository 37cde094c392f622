/* generate.h - what every game's puzzle generator (POST /generate) shares.
 *
 * A request is a JSON object: the common members read here ("seed",
 * "skip", "tries", "budget_ms", "outcome", "winning_moves", "min_moves", "answer", "after")
 * and the game's own knobs, which its <game>_generate.c lists and reads.
 * gen_run then samples candidates from a seeded PRNG (splitmix64 of rng.h,
 * the same numbers on every machine), solves each with the game's real
 * solver (solve, or analyze for a position in play), keeps the first whose
 * answer meets the request and writes
 *
 *   {"game":..,"seed":..,"position":<JSON twin or /analyze body>,
 *    "input":"<judge text>" (opening positions only),"answer":<the solver's
 *    answer> (unless "answer": false),"candidates":<how many were tried>,
 *    "skip":<where the kept candidate began>}
 *
 * "skip" names the kept candidate itself, not the search that found it: it
 * counts the PRNG's numbers drawn before that candidate, so the same
 * request with that "skip" and "tries": 1 makes the same position again at
 * once, one candidate solved.  "skip" in a request starts the PRNG there;
 * "tries" bounds the candidates (GJ_UNMET naming the count when none fits).
 *
 * A position in play is answered with its analysis, whose afters are whole
 * request bodies unless "after": "diff" (after.h), as /analyze writes them.
 *
 * Within budget_ms: the loop checks the clock between candidates and binds a
 * gj_cancel with the deadline around each solve, so a large candidate cannot
 * overrun; nothing fitting in time is GJ_UNMET naming the constraint and the
 * count tried.  A flag the caller bound (gj_cancel_bound: the server's job)
 * is bound again after each solve and checked between candidates, so a
 * client that went away stops the search as GJ_CANCELLED.  A position asked for by "winning_moves"
 * also keeps a move that does not win (more moves than winning ones): a forced move is no puzzle.
 * The same request with the same seed gives the same bytes (when it is met within the budget at
 * all).
 *
 * generate() (game.h) gets limits[0..GJ_MAX_LIMITS-1], the game's limits in
 * force, and limits[GEN_LIMIT_BUDGET], the ceiling on budget_ms. */
#ifndef GJ_GENERATE_H
#define GJ_GENERATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"
#include "rng.h"

/* Index of the budget ceiling (ms) in the limits generate() takes. */
#define GEN_LIMIT_BUDGET GJ_MAX_LIMITS
/* The limits array generate() takes has this many entries. */
#define GEN_NLIMITS (GJ_MAX_LIMITS + 1)

#define GEN_BUDGET_DEFAULT_MS 500
#define GEN_SEED_MAX          ((1LL << 53) - 1) /* what a JSON number holds exactly */
#define GEN_MAX_KNOBS         8
#define GEN_TRIES_MAX         1000000 /* the most candidates "tries" may ask for */

/* The ceiling on budget_ms of a daemon without --generate-budget-ms. */
#define GEN_BUDGET_CEILING_DEFAULT_MS 2000

typedef enum gen_outcome { GEN_ANY = 0, GEN_WIN, GEN_LOSE } gen_outcome;

/* The request's common members, read by gen_run before the game's knobs. */
typedef struct gen_request {
    const json_t *root;
    long long seed;
    long long skip; /* numbers of the seed's sequence passed before the first candidate */
    long tries;     /* the most candidates tried; 0: as many as the budget allows */
    long budget_ms;
    gen_outcome outcome;
    long winning_moves;   /* -1 when not asked */
    long min_moves;       /* the fewest legal moves the position may have; 0: any */
    bool with_answer;     /* "answer": false leaves the solver's answer out */
    int after_full;       /* "after" (after.h): the answer's afters whole or as diffs */
    bool in_play;         /* the position is an /analyze body (the game may set it) */
    long long most_moves; /* the game's bound on the moves of a position in play */
    bool most_winning;    /* most_moves counts only positions with winning_moves winning */
    bool has_score;       /* the game asked for score in [score_lo, score_hi] */
    long long score_lo, score_hi;
} gen_request;

/* One sampled position: its JSON (the /solve twin or the /analyze body) and,
 * for an opening position, its judge text. */
typedef struct gen_candidate {
    gj_buf position;
    gj_buf input;
    long long skip; /* the PRNG's numbers drawn before it, from the seed */
} gen_candidate;

typedef struct gen_spec {
    const gj_game *game;
    /* The game's own request members (without '?'), NULL-terminated. */
    const char *const *knobs;
    /* The answer is a score (staircase-chess): "winning_moves" counts the
     * moves reaching the best score, not winning ones, so it says nothing
     * of the outcome. */
    bool scored;
    /* Read and check the knobs of req->root into `knobs` (the game's struct)
     * against the limits; sets req->most_moves, may set req->in_play and
     * has_score, and refuses constraints of its own that are impossible by
     * definition.  0, or -1 with *e. */
    int (*read)(gen_request *req, const long *limits, void *knobs, gj_error *e);
    /* Write one candidate; 1 to skip it (no position of that shape), else 0. */
    int (*sample)(gj_rng *r, const gen_request *req, const void *knobs, gen_candidate *c);
    /* From /solve's answer: 1 when the player to move wins, -1 when she
     * loses (staircase-chess: the score) into *score; 0, or -1 when the
     * answer is not as expected. */
    int (*score)(const json_t *answer, long long *score);
} gen_spec;

/* The whole generation for one request (see above): 0 with the answer
 * appended to out, or -1 with *e. */
int gen_run(const gen_spec *spec, const char *buf, size_t len, const long *limits, void *knobs,
            gj_buf *out, gj_error *e);

/* Optional integer member `name` of root into *out (left as is when absent),
 * which must lie in [lo, hi]; the message names `limit` when it is the
 * limit in force that was passed.  0, or -1 with *e. */
int gen_long(const json_t *root, const char *name, long lo, long hi, const char *limit, long *out,
             gj_error *e);
/* Optional number member `name` (an integer or a fraction) in [lo, hi]. */
int gen_share(const json_t *root, const char *name, double lo, double hi, double *out, gj_error *e);
/* Optional member `name`, a pair [lo, hi] of integers within [min, max]
 * with lo <= hi.  *present says whether it was given. */
int gen_pair(const json_t *root, const char *name, long min, long max, long out[2], bool *present,
             gj_error *e);
/* The smaller of a game's limit in force and the generator's own cap. */
long gen_cap(long limit, long cap);

/* For gen_spec.score: 1 when v is the string `win`, -1 for any other
 * string; 0, or -1 when v is no string. */
int gen_score_word(const json_t *v, const char *win, long long *out);
/* Row i (0-based) of a grid of characters, n of them: `"row"` in the JSON
 * array (a comma before all but the first) and `row\n` in the judge text. */
void gen_put_row(gen_candidate *c, long i, const char *row, size_t n);

/* The candidate a request in play kept, handed over as the game's parsed
 * position instead of written out (gen_keep): what puzzles (play/puzzle.h)
 * build their line on, so the kept position is never written, read back
 * and parsed again. */
typedef struct gen_kept {
    json_t *position; /* its /analyze body, as the judging loaded it */
    void *pos;        /* that body parsed by the game's gj_play (game.h), ranked once */
    long long skip;   /* where the kept candidate began, as the answer's "skip" */
} gen_kept;

/* gen_run's search for a request in play (winning_moves or min_moves
 * asked), the kept candidate handed to *kept (the caller frees position
 * and pos, the latter with the game's gj_play.free) instead of an answer
 * written: 0, or -1 with *e, as gen_run fails.  "answer" and "after" are
 * read and checked but nothing is written. */
int gen_keep(const gen_spec *spec, const char *buf, size_t len, const long *limits, void *knobs,
             gen_kept *kept, gj_error *e);

/* What gen_run would read of the request, without its search: the most
 * legal moves a position in play of the asked size can have into *most and
 * whether the answer is a score into *scored.  min_moves and winning_moves
 * are not held against it.  0, or -1 with *e (the request's own error). */
int gen_most(const gen_spec *spec, const char *buf, size_t len, const long *limits, void *knobs,
             long long *most, int *scored, gj_error *e);

#endif

/* puzzle.h - rated puzzles of any game, their ids, the daily puzzle and the
 * check of a visitor's moves (GET /puzzle, POST /puzzle/.../check).
 *
 * Game-agnostic: a puzzle is made of what every game already has, its
 * generator (generate.h, asked for a position in play with exactly one
 * winning move and at least min_moves legal moves), its analysis and its
 * play_move (game.h).  A puzzle of depth N is N solving moves in a row by
 * the player to move (the attacker), each the only solving move of its
 * position (staircase-chess: the only move reaching the best score),
 * against the defender's most resilient replies: the first move of the
 * defender's ranked analysis (the slowest loss where the game answers
 * remoteness, else the ranking policy's best).
 *
 * Difficulty is the chance that the club engine (level PUZZLE_RATER of
 * engine.h) fails the puzzle: 1 - the product over the steps of its chance
 * to play the solving move, computed exactly from its weights (never
 * sampled).  Bands: easy below PUZZLE_MEDIUM_FROM, hard from
 * PUZZLE_HARD_FROM, medium between.
 *
 * An id names a puzzle without any state: "2" (the format's major
 * version), then base64url of the compact JSON, keys sorted,
 * {"c":skip,"d":depth,"g":game,"k":{knobs},"m":min_moves,"s":seed} and an
 * 8-hex-digit checksum of that JSON, joined by '.'.  seed and skip name the
 * generator's kept candidate itself (generate.h), so the id rebuilds the
 * same position, line and difficulty by making that one candidate: no
 * search, nothing a budget or a busy machine can fail, the same on every
 * machine and every version with the same major number (the generators'
 * sampling is part of that contract).  One puzzle has one id: any other
 * spelling of the same fields is refused.  Version 1 ids named the seed of
 * the generator's search instead and are no longer read. */
#ifndef GJ_PUZZLE_H
#define GJ_PUZZLE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "game.h"

#define PUZZLE_ID_MAJOR          2
#define PUZZLE_DEPTH_MAX         6
#define PUZZLE_MIN_MOVES_DEFAULT 4
#define PUZZLE_RATER             3    /* the engine level a difficulty is measured against */
#define PUZZLE_MEDIUM_FROM       0.25 /* difficulty bands: easy below, ... */
#define PUZZLE_HARD_FROM         0.45 /* ... hard from here on */
#define PUZZLE_ID_MAX            1024 /* the longest id taken */
/* The daily puzzles' dates: from PUZZLE_DAILY_FIRST to tomorrow (UTC). */
#define PUZZLE_DAILY_FIRST "2026-01-01"
/* A daily puzzle is PUZZLE_DAILY_DEPTH moves deep when one of the day's
 * first PUZZLE_DAILY_TRIES candidates is, else one move deep. */
#define PUZZLE_DAILY_DEPTH 2
#define PUZZLE_DAILY_TRIES 200
/* The generator's budget of an id's rebuild: one candidate, whose solve
 * the caller's deadline bounds first; never the search's budget. */
#define PUZZLE_REBUILD_MS 3600000L
/* The most candidates a GET /puzzle may bound its search to ("tries"). */
#define PUZZLE_TRIES_MAX 5000

typedef struct puzzle_step {
    json_t *position; /* the attacker's position: an analyze() request */
    json_t *moves;    /* its analysis' ranked moves, every legal one */
    long legal;       /* how many there are */
    double chance;    /* the rater's chance to play the solving move, moves[0] */
    json_t *reply;    /* the defender's reply entry after it; NULL after the last step */
} puzzle_step;

typedef struct puzzle {
    const gj_game *game;
    long long seed; /* the generator's seed of the position */
    long long skip; /* where in that seed's sequence its candidate began (generate.h) */
    int depth;
    long min_moves;
    json_t *knobs; /* the game's generator knobs (an object, maybe empty) */
    puzzle_step steps[PUZZLE_DEPTH_MAX];
    json_t *to_move; /* the analysis' "to_move" */
    double difficulty;
    char id[PUZZLE_ID_MAX];
} puzzle;

/* The band of a difficulty: "easy", "medium" or "hard". */
const char *puzzle_band(double difficulty);

/* A puzzle as GET /puzzle/{game} asks for it: `params` holds "seed",
 * "band" or "difficulty_min"/"difficulty_max", "depth", "min_moves",
 * "budget_ms" (at most limits[GEN_LIMIT_BUDGET]), "tries" (1 to
 * PUZZLE_TRIES_MAX) and the game's generator knobs.  Candidates are tried in
 * the seed's order until one fits, so a seed always gives the same puzzle
 * (when one is found within the budget at all); *seeded says whether the
 * caller gave the seed.  Without tries the budget alone ends the search,
 * so whether it finds one depends on the machine's speed; with tries at
 * most that many candidates are tried and the outcome depends on the
 * parameters alone, a search that runs out of budget first being
 * GJ_OVERLOADED.  0, or -1 with *e: bad_input naming the member, GJ_UNMET
 * naming the constraint no candidate met (in time, or within tries). */
int puzzle_find(const gj_game *g, const json_t *params, const long *limits, puzzle *p, bool *seeded,
                gj_error *e);

/* The puzzle `id` names, rebuilt: 0, or -1 with *e (bad_input for an id
 * that is not one, not_found for one of another game). */
int puzzle_from_id(const gj_game *g, const char *id, const long *limits, puzzle *p, gj_error *e);

/* The daily puzzle of `date` ("YYYY-MM-DD", from PUZZLE_DAILY_FIRST to
 * `today` + 1 day; `today` the same form): one per game and day, seeded by
 * the game and the date, of any difficulty (see PUZZLE_DAILY_DEPTH).  0, or
 * -1 with *e (bad_input naming "date"). */
int puzzle_daily(const gj_game *g, const char *date, const char *today, const long *limits,
                 puzzle *p, gj_error *e);

/* {"game","id","position","to_move","legal_moves","depth","difficulty",
 * "band"}: the puzzle without its solution. */
void puzzle_write(const puzzle *p, gj_buf *out);

/* A visitor's try, the body of POST /puzzle/{game}/{id}/check
 * ({"moves":[...], "reveal": bool}), read before any puzzle is rebuilt so
 * that a bad body costs nothing and is named as itself. */
typedef struct puzzle_try {
    json_t *root;
    const json_t *moves; /* an array of at most PUZZLE_DEPTH_MAX, or NULL */
    bool reveal;
} puzzle_try;

/* Read and check `body` into *t: 0, or -1 with *e naming the member. */
int puzzle_try_read(const char *body, size_t len, puzzle_try *t, gj_error *e);

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

/* Free what a puzzle holds (a zeroed one too). */
void puzzle_free(puzzle *p);

#endif

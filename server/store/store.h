/* store.h - the puzzle store: stored puzzles per game, their ratings and
 * the players' learned from plays, what each player was served and played.
 *
 * One interface, two engines chosen by the URL `--store` gives:
 *
 *   sqlite:PATH          an embedded SQLite file (the default; WAL, one
 *                        writer at a time, a busy timeout), store_sqlite.c
 *   postgresql://...     PostgreSQL through libpq, for several replicas
 *   postgres://...       sharing one store (a row lock per update), store_pg.c
 *   none                 no store: store_open gives NULL, and the routes
 *                        that need one answer 404 naming --store
 *
 * One schema for both (store_schema.c), versioned: store_open applies the
 * migrations it lacks in one transaction and refuses a store whose schema
 * is newer than STORE_SCHEMA_VERSION, naming both versions.
 *
 * Every function is safe from any thread.  Every value the caller gives
 * reaches SQL only as a bound parameter.  A failure of the store itself
 * (unreachable, read-only, full, a lost connection) is GJ_UNAVAILABLE with
 * a sentence saying what, and the next call tries again (a lost PostgreSQL
 * connection is opened anew), so the store comes back without a restart.
 * A function that returned 0 has made what it wrote durable against the
 * death of the process.
 *
 * Ratings are Glicko-2 (glicko2.h): each rated play is one game between the
 * player and the puzzle, both updated (as lichess does for its puzzles). */
#ifndef GJ_STORE_H
#define GJ_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "glicko2.h"

#define STORE_SCHEMA_VERSION 1
#define STORE_URL_DEFAULT    "sqlite:data/gamejudge.db" /* --store's default, from the cwd */
#define STORE_GAME_MAX       32                         /* bytes of a game's name, with its NUL */
#define STORE_ID_MAX         1024 /* bytes of a puzzle id, with its NUL (puzzle.h's PUZZLE_ID_MAX) */
#define STORE_PLAYER_MAX     65   /* a player id: 1-64 bytes, with its NUL */
#define STORE_KEY_MAX        129  /* an Idempotency-Key: 1-128 bytes, with its NUL */
#define STORE_THEMES_MAX     512  /* a puzzle's themes, space-separated, with the NUL */

typedef struct gj_store gj_store;

/* A stored puzzle.  position and solution are JSON texts owned by the
 * struct (store_puzzle_free); the rest is inline. */
typedef struct store_puzzle {
    char game[STORE_GAME_MAX];
    char id[STORE_ID_MAX];
    char *position; /* the puzzle's first position, as GET /puzzle writes it */
    char *solution; /* the line: a JSON array of moves, solving move and reply in turn */
    char themes[STORE_THEMES_MAX]; /* its themes, space-separated, as GET /puzzle names them */
    int band;                      /* 0 easy, 1 medium, 2 hard */
    int depth;                     /* solving moves */
    double difficulty;             /* 0..1, four decimals (puzzle.h) */
    glicko rating;                 /* starts at the computed rating, GLICKO_PUZZLE_RD */
    long plays;                    /* rated plays */
    long wins;                     /* of which the player solved it */
} store_puzzle;

/* What a play changed.  For a play not rated (a later attempt), before and
 * after are both the values now. */
typedef struct store_play_result {
    bool rated;    /* the play is the player's first complete attempt at the puzzle */
    bool repeated; /* a retry of an already recorded play: nothing changed again */
    glicko player_before, player_after;
    glicko puzzle_before, puzzle_after;
    long puzzle_plays, puzzle_wins; /* after the play */
} store_play_result;

/* A player's complete attempt at a puzzle. */
typedef struct store_play {
    const store_puzzle *puzzle; /* stored first when it is not (its stats ignored) */
    const char *player;         /* 1-64 bytes, checked by the caller */
    const char *key;            /* the Idempotency-Key, NULL when none */
    const char *attempt;        /* the attempt's canonical text: a retry is the same text */
    bool solved;                /* else failed at a wrong move, or revealed */
    bool has_player;            /* the site sent the player's rating: player_rating holds it */
    glicko player_rating;       /* that rating (clamped by the caller) */
    long long at_ms;            /* when, ms since the epoch (UTC) */
} store_play;

/* What GET /puzzle/{game}/next asks. */
typedef struct store_next_ask {
    const char *game;
    const char *player;
    bool has_rating; /* rating given by the site; else the stored one, else the start */
    double rating;
    int band;          /* -1 any, else 0..2 */
    int depth;         /* 0 any */
    const char *theme; /* NULL any, else one theme name */
    long long at_ms;   /* when, ms since the epoch */
} store_next_ask;

/* One play, as a player's activity lists it. */
typedef struct store_activity_row {
    long long at_ms;
    char game[STORE_GAME_MAX];
    char id[STORE_ID_MAX];
    bool solved;
    glicko player_before, player_after;
    double puzzle_rating; /* the puzzle's before the play */
    char themes[STORE_THEMES_MAX];
} store_activity_row;

/* The store's own counters since start, for the metrics. */
typedef struct store_counters {
    unsigned long plays_recorded; /* rated plays written */
    unsigned long plays_unrated;  /* later attempts answered without a rating */
    unsigned long plays_repeated; /* retries of a recorded play */
    unsigned long served;         /* puzzles handed out by store_next */
    unsigned long errors;         /* calls that failed for the store's sake (GJ_UNAVAILABLE) */
    unsigned long calls;          /* calls made */
    double seconds;               /* their time in all */
    double latency_le[8];         /* calls within 0.5, 1, 2, 5, 10, 50, 250 ms, +Inf */
} store_counters;

/* Open the store `url` names and bring its schema to STORE_SCHEMA_VERSION:
 * 0 with *out (NULL for "none"), or -1 with *e: bad_input for a URL of no
 * known kind or a schema newer than this build knows (both versions named),
 * unavailable when it cannot be reached.  A SQLite file's folder is made
 * when missing (one level). */
int store_open(const char *url, gj_store **out, gj_error *e);

/* Close it (NULL is fine). */
void store_close(gj_store *s);

/* "sqlite" or "postgresql". */
const char *store_kind(const gj_store *s);

/* The URL with any password replaced by "***", for logs and errors. */
void store_redact(const char *url, char *out, size_t cap);

/* Whether the store answers and takes writes now: 0, or -1 with *e
 * (unavailable, saying why).  For /readyz. */
int store_ping(gj_store *s, gj_error *e);

/* Store p unless its (game, id) is stored: *added says which.  p's
 * rating, plays and wins are its starting values.  0, or -1 with *e. */
int store_put(gj_store *s, const store_puzzle *p, bool *added, gj_error *e);

/* The stored puzzle (game, id) into *out: 0, or -1 with *e (not_found when
 * it is not stored). */
int store_get(gj_store *s, const char *game, const char *id, store_puzzle *out, gj_error *e);

/* Free what store_get, store_next or store_each filled (a zeroed one too). */
void store_puzzle_free(store_puzzle *p);

/* How many puzzles of game are stored (game NULL: of every game). */
int store_count(gj_store *s, const char *game, long *out, gj_error *e);

/* Call each(ctx, p) for every stored puzzle of game (NULL: every game) in
 * (game, id) order; each returns 0 to go on, else the walk stops and
 * store_each returns that value.  0, or -1 with *e. */
int store_each(gj_store *s, const char *game, int (*each)(void *ctx, const store_puzzle *p),
               void *ctx, gj_error *e);

/* Record a player's complete attempt (see store_play), in one transaction
 * with the puzzle's row locked: the first attempt by this player at this
 * puzzle is rated (both sides updated, the play kept); a retry of it (the
 * same key, or no key and the same attempt text) answers what the first
 * answered; any other later attempt is answered, unrated.  A key already
 * used by another player or puzzle is GJ_CONFLICT.  0, or -1 with *e. */
int store_record(gj_store *s, const store_play *in, store_play_result *out, gj_error *e);

/* The player's rating in game into *out: the stored one, else the start
 * (*known false).  0, or -1 with *e. */
int store_player(gj_store *s, const char *game, const char *player, glicko *out, bool *known,
                 gj_error *e);

/* The stored puzzle of a->game nearest a->rating (the player's: as
 * store_player, unless the site gave one) that matches the filters and
 * that a->player was never served, into *out, marked served to the player
 * in the same transaction, so two concurrent calls never hand one player
 * the same puzzle.  Found by two index walks from the rating (up and down)
 * over (game, rating): O(log n) plus the player's served puzzles skipped.
 * 0, or -1 with *e (not_found, saying the pool is exhausted for this
 * player, when none is left). */
int store_next(gj_store *s, const store_next_ask *a, store_puzzle *out, gj_error *e);

/* Call each(ctx, row) for the player's rated plays newest first, those
 * before `before_ms` (0: any) and from `since_ms` on, at most `max`; each
 * returns 0 to go on.  0, or -1 with *e. */
int store_activity(gj_store *s, const char *player, long long before_ms, long long since_ms,
                   long max, int (*each)(void *ctx, const store_activity_row *row), void *ctx,
                   gj_error *e);

/* A copy of the counters. */
void store_counters_read(gj_store *s, store_counters *out);

#endif

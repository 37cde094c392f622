/* store_schema.c - the migrations of store_schema.h.  Types are the ones
 * both engines read alike: TEXT, BIGINT (SQLite: integer affinity) and
 * DOUBLE PRECISION (SQLite: real affinity), so a number bound as text is
 * stored and compared as a number by both.  KEYTEXT is TEXT ordered byte
 * by byte (store.c writes the engine's byte_order after it), for the
 * columns that keys and pages order: declared on the column, the order
 * is the indexes' own, so no query has to name a collation (which on
 * PostgreSQL would keep it from the index). */
#include "store_schema.h"

#include <stddef.h>

/* Version 1: puzzles with their ratings, players' ratings per game, one
 * row per rated play (its key unique across the store), and what each
 * player was served.  puzzles_by_rating is the walk of store_next (rating
 * then id, so the nearest puzzle is one index step away); plays_by_player
 * is the activity's, newest first. */
static const char *const schema_v1[] = {
    "CREATE TABLE puzzles ("
    " game KEYTEXT NOT NULL, id KEYTEXT NOT NULL,"
    " position TEXT NOT NULL, solution TEXT NOT NULL, themes TEXT NOT NULL,"
    " band BIGINT NOT NULL, depth BIGINT NOT NULL, difficulty DOUBLE PRECISION NOT NULL,"
    " rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
    " vol DOUBLE PRECISION NOT NULL, plays BIGINT NOT NULL, wins BIGINT NOT NULL,"
    " PRIMARY KEY (game, id))",
    "CREATE INDEX puzzles_by_rating ON puzzles (game, rating, id)",
    "CREATE TABLE players ("
    " game KEYTEXT NOT NULL, player KEYTEXT NOT NULL,"
    " rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
    " vol DOUBLE PRECISION NOT NULL, plays BIGINT NOT NULL, wins BIGINT NOT NULL,"
    " PRIMARY KEY (game, player))",
    "CREATE TABLE plays ("
    " game KEYTEXT NOT NULL, id KEYTEXT NOT NULL, player KEYTEXT NOT NULL,"
    " at_ms BIGINT NOT NULL, solved BIGINT NOT NULL, attempt TEXT NOT NULL,"
    " idem_key TEXT UNIQUE,"
    " player_rating DOUBLE PRECISION NOT NULL, player_rd DOUBLE PRECISION NOT NULL,"
    " player_vol DOUBLE PRECISION NOT NULL,"
    " player_rating_after DOUBLE PRECISION NOT NULL, player_rd_after DOUBLE PRECISION NOT NULL,"
    " player_vol_after DOUBLE PRECISION NOT NULL,"
    " puzzle_rating DOUBLE PRECISION NOT NULL, puzzle_rd DOUBLE PRECISION NOT NULL,"
    " puzzle_vol DOUBLE PRECISION NOT NULL,"
    " puzzle_rating_after DOUBLE PRECISION NOT NULL, puzzle_rd_after DOUBLE PRECISION NOT NULL,"
    " puzzle_vol_after DOUBLE PRECISION NOT NULL,"
    " puzzle_plays BIGINT NOT NULL, puzzle_wins BIGINT NOT NULL,"
    " PRIMARY KEY (game, id, player))",
    "CREATE INDEX plays_by_player ON plays (player, at_ms, game, id)",
    "CREATE TABLE served ("
    " game KEYTEXT NOT NULL, player KEYTEXT NOT NULL, id KEYTEXT NOT NULL, at_ms BIGINT NOT NULL,"
    " PRIMARY KEY (game, player, id))",
    NULL,
};

const char *const *const store_migrations[] = {schema_v1, NULL};

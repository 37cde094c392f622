/* store_engine.h - what store.c needs of a database engine, and nothing
 * more: connect, run one statement with text parameters, and transactions.
 * store.c holds every statement, the schema and the logic once; an engine
 * (store_sqlite.c, store_pg.c) only carries them to its database.
 *
 * Statements are written once for both engines: parameters are $1..$n
 * (SQLite binds them by name), values travel as text (NULL is SQL NULL;
 * numbers are written with %.17g or %lld and read back with strtod or
 * strtoll), and the schema's types are ones both read alike (TEXT, BIGINT,
 * DOUBLE PRECISION).  Where they differ, the engine says so here.
 *
 * A connection is used by one thread at a time (store.c keeps a pool). */
#ifndef GJ_STORE_ENGINE_H
#define GJ_STORE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* A statement's result: nrows x ncols cells, row-major, each a NUL-ended
 * text or NULL for SQL NULL, all owned by the struct. */
typedef struct store_rows {
    size_t nrows, ncols;
    char **cells;
} store_rows;

/* The cell (row, col), NULL when out of range or SQL NULL. */
const char *store_cell(const store_rows *r, size_t row, size_t col);

/* Free the cells (a zeroed struct too) and zero it. */
void store_rows_free(store_rows *r);

typedef struct store_engine {
    const char *name; /* "sqlite", "postgresql" */
    /* Whether rows read in a transaction must be locked for the update
     * with "FOR UPDATE" (PostgreSQL); SQLite's write transaction already
     * holds the whole database. */
    bool row_locks;
    /* A statement that makes concurrent starts apply migrations one at a
     * time, run first in the migration's transaction; NULL when the write
     * transaction already does (SQLite). */
    const char *migration_lock;
    /* A statement taking one player's turn ($1 the game, $2 the player)
     * until the transaction ends, run first by store_next, so one
     * player's concurrent calls walk one after another instead of each
     * finding the puzzle the other has just taken; NULL when the write
     * transaction already serialises them (SQLite). */
    const char *player_lock;
    /* A statement run first in store_next's transaction so its commit does
     * not wait for the log's flush to disk (PostgreSQL: synchronous_commit
     * off for that transaction alone); NULL where a commit never waits for
     * one (SQLite in WAL with synchronous=NORMAL).  Such a commit survives
     * the daemon dying; only a crash of the database server itself within
     * a fraction of a second can lose it, and all it loses is a served
     * mark, never a play. */
    const char *quick_commit;
    /* What follows TEXT in the schema's key columns (store_schema.c) to
     * order them byte by byte: " COLLATE \"C\"" on PostgreSQL, whose
     * default follows the database's locale; "" on SQLite, already byte
     * order.  So every engine lists puzzles and plays in strcmp order, each
     * through its indexes. */
    const char *byte_order;
    /* Open a connection to target (SQLite: the file's path; PostgreSQL: the
     * whole URL): 0 with *db, or -1 with *e (unavailable, saying why, or
     * bad_input for a target the engine cannot read; the password never
     * shown). */
    int (*connect)(const char *target, void **db, gj_error *e);
    void (*disconnect)(void *db);
    /* Whether the connection can still be used; store.c opens a new one
     * when it cannot. */
    bool (*healthy)(void *db);
    /* Run sql with params[0..n-1] as $1..$n, keeping the rows in *out when
     * out is not NULL: 0, or -1 with *e (unavailable for the database's
     * own failures: gone, busy past the timeout, read-only, full). */
    int (*query)(void *db, const char *sql, const char *const *params, int n, store_rows *out,
                 gj_error *e);
    /* Begin a transaction; `write` when it will write (SQLite: BEGIN
     * IMMEDIATE, so it waits for the writer's lock up front rather than
     * failing at its first write).  0, or -1 with *e. */
    int (*begin)(void *db, bool write, gj_error *e);
    /* Commit: 0 once durable against the process dying, or -1 with *e and
     * the transaction rolled back. */
    int (*commit)(void *db, gj_error *e);
    /* Roll back whatever is open; never fails the caller. */
    void (*rollback)(void *db);
} store_engine;

extern const store_engine store_sqlite_engine;
extern const store_engine store_pg_engine;

#endif

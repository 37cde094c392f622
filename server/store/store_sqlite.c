/* store_sqlite.c - the SQLite engine: store.c's statements carried to an
 * embedded database file, one sqlite3 handle per engine connection.
 *
 * The file is in WAL mode, so readers never wait for the writer and a
 * commit appends to the log rather than rewriting pages; synchronous=NORMAL
 * syncs the log only at checkpoints.  A commit is then durable against the
 * death of the process (the log is in the kernel's hands once written) but
 * not against a power loss or a kernel crash, which may lose the last
 * commits though never corrupt the file.  A busy timeout makes a writer of
 * another process (`gamejudge puzzles fill` beside the daemon) wait for the
 * lock rather than fail; within one process store.c lets one writer in at
 * a time, so the timeout's sleeps are not on the usual path.
 *
 * Statements are prepared once per connection and kept (a small cache
 * keyed by their text); parameters $1..$n are bound by name as text, and
 * the schema's column types (DOUBLE PRECISION, BIGINT) give the columns
 * the numeric affinity that turns such text into numbers on the way in and
 * in comparisons.  Numbers come back as text: integers with %lld, doubles
 * with %.17g, which strtod reads back to the same double. */
#include "store_engine.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQLITE_BUSY_MS   5000 /* how long a writer waits for another process's lock */
#define SQLITE_STMT_KEPT 48   /* prepared statements kept per connection */

typedef struct kept_stmt {
    char *sql;
    sqlite3_stmt *st;
    unsigned long used; /* the connection's clock at its last use, for eviction */
} kept_stmt;

typedef struct sqlite_conn {
    sqlite3 *db;
    kept_stmt kept[SQLITE_STMT_KEPT];
    size_t nkept;
    unsigned long clock;
} sqlite_conn;

/* Fill *e for SQLite's result code rc on db (NULL: no handle) while doing
 * `what`, and return -1: unavailable for the failures of the file, the
 * disk or the lock, internal for a statement SQLite refused. */
static int sqlite_fail(sqlite3 *db, int rc, const char *what, gj_error *e)
{
    const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_NOMEM:
        return gj_fail_nomem(e);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_READONLY:
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_PROTOCOL:
    case SQLITE_NOLFS:
        return gj_fail(e, GJ_UNAVAILABLE, "the SQLite store cannot %s now: %s", what, msg);
    default:
        return gj_fail(e, GJ_INTERNAL, "the SQLite store refused a statement: %s", msg);
    }
}

/* Run one statement of the connection's setup, no parameters, rows ignored. */
static int sqlite_setup(sqlite3 *db, const char *sql, gj_error *e)
{
    int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : sqlite_fail(db, rc, "be opened", e);
}

/* Open the file at target, WAL and the settings above: 0 with *db, or -1
 * with *e unavailable (a missing folder, a file that is read-only or not a
 * database). */
static int sqlite_connect(const char *target, void **db, gj_error *e)
{
    sqlite_conn *c = calloc(1, sizeof *c);
    if (!c)
        return gj_fail_nomem(e);
    /* One thread at a time uses a connection (store.c's pool), so SQLite's
     * own mutex on it would only cost. */
    int rc = sqlite3_open_v2(target, &c->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             NULL);
    if (rc != SQLITE_OK) {
        gj_fail(e, GJ_UNAVAILABLE, "the SQLite store %s cannot be opened: %s", target,
                c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
        sqlite3_close(c->db);
        free(c);
        return -1;
    }
    sqlite3_extended_result_codes(c->db, 1);
    sqlite3_busy_timeout(c->db, SQLITE_BUSY_MS);
    if (sqlite3_db_readonly(c->db, "main") == 1) {
        gj_fail(e, GJ_UNAVAILABLE, "the SQLite store %s is read-only", target);
    } else if (sqlite_setup(c->db, "PRAGMA journal_mode=WAL", e) == 0 &&
               sqlite_setup(c->db, "PRAGMA synchronous=NORMAL", e) == 0 &&
               /* LIKE as PostgreSQL's: a theme filter matches its case only. */
               sqlite_setup(c->db, "PRAGMA case_sensitive_like=ON", e) == 0) {
        *db = c;
        return 0;
    }
    sqlite3_close(c->db);
    free(c);
    return -1;
}

/* Finalize the kept statements and close the file (NULL is fine). */
static void sqlite_disconnect(void *db)
{
    sqlite_conn *c = db;
    if (!c)
        return;
    for (size_t i = 0; i < c->nkept; i++) {
        sqlite3_finalize(c->kept[i].st);
        free(c->kept[i].sql);
    }
    sqlite3_close(c->db);
    free(c);
}

/* A SQLite handle stays usable after any failure of the file: the next
 * statement simply tries the file again. */
static bool sqlite_healthy(void *db)
{
    return db != NULL;
}

/* The prepared statement for sql, kept or prepared now (evicting the one
 * least recently used when the cache is full): 0 with *st, or -1 with *e. */
static int sqlite_prepare(sqlite_conn *c, const char *sql, sqlite3_stmt **st, gj_error *e)
{
    c->clock++;
    for (size_t i = 0; i < c->nkept; i++)
        if (strcmp(c->kept[i].sql, sql) == 0) {
            c->kept[i].used = c->clock;
            *st = c->kept[i].st;
            return 0;
        }
    sqlite3_stmt *fresh;
    int rc = sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &fresh, NULL);
    if (rc != SQLITE_OK)
        return sqlite_fail(c->db, rc, "prepare a statement", e);
    char *copy = strdup(sql);
    if (!copy) {
        sqlite3_finalize(fresh);
        return gj_fail_nomem(e);
    }
    size_t slot = c->nkept;
    if (slot == SQLITE_STMT_KEPT) {
        slot = 0;
        for (size_t i = 1; i < c->nkept; i++)
            if (c->kept[i].used < c->kept[slot].used)
                slot = i;
        sqlite3_finalize(c->kept[slot].st);
        free(c->kept[slot].sql);
    } else {
        c->nkept++;
    }
    c->kept[slot] = (kept_stmt){copy, fresh, c->clock};
    *st = fresh;
    return 0;
}

/* Column col of st's current row as a malloc'd text (NULL for SQL NULL),
 * numbers written so that they read back exactly: 0, or -1 when memory
 * runs out. */
static int sqlite_cell(sqlite3_stmt *st, int col, char **out)
{
    char num[32];
    const char *text;
    size_t len;
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
        *out = NULL;
        return 0;
    case SQLITE_INTEGER:
        len = (size_t)snprintf(num, sizeof num, "%lld", (long long)sqlite3_column_int64(st, col));
        text = num;
        break;
    case SQLITE_FLOAT:
        len = (size_t)snprintf(num, sizeof num, "%.17g", sqlite3_column_double(st, col));
        text = num;
        break;
    default:
        text = (const char *)sqlite3_column_text(st, col);
        len = (size_t)sqlite3_column_bytes(st, col);
        if (!text)
            return -1;
    }
    *out = malloc(len + 1);
    if (!*out)
        return -1;
    memcpy(*out, text, len);
    (*out)[len] = '\0';
    return 0;
}

/* Append st's current row to *rows (cap cells allocated in *cap): 0, or -1
 * when memory runs out. */
static int sqlite_add_row(sqlite3_stmt *st, store_rows *rows, size_t *cap)
{
    size_t ncols = rows->ncols, need = (rows->nrows + 1) * ncols;
    if (need > *cap) {
        size_t grown = *cap ? *cap * 2 : ncols * 8;
        while (grown < need)
            grown *= 2;
        char **cells = realloc(rows->cells, grown * sizeof *cells);
        if (!cells)
            return -1;
        rows->cells = cells;
        *cap = grown;
    }
    char **row = rows->cells + rows->nrows * ncols;
    for (size_t i = 0; i < ncols; i++)
        row[i] = NULL;
    rows->nrows++;
    for (size_t i = 0; i < ncols; i++)
        if (sqlite_cell(st, (int)i, &row[i]) < 0)
            return -1;
    return 0;
}

/* Run sql with params bound by name as $1..$n, its rows into *out when out
 * is given: 0, or -1 with *e. */
static int sqlite_query(void *db, const char *sql, const char *const *params, int n,
                        store_rows *out, gj_error *e)
{
    sqlite_conn *c = db;
    sqlite3_stmt *st = NULL;
    if (out)
        memset(out, 0, sizeof *out);
    if (sqlite_prepare(c, sql, &st, e) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "$%d", i + 1);
        int at = sqlite3_bind_parameter_index(st, name);
        if (at == 0)
            continue;
        /* The texts outlive the statement's run, which resets below. */
        int rc = params[i] ? sqlite3_bind_text(st, at, params[i], -1, SQLITE_STATIC)
                           : sqlite3_bind_null(st, at);
        if (rc != SQLITE_OK) {
            sqlite3_clear_bindings(st);
            return sqlite_fail(c->db, rc, "bind a parameter", e);
        }
    }
    size_t cap = 0;
    int rc;
    if (out)
        out->ncols = (size_t)sqlite3_column_count(st);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (out && sqlite_add_row(st, out, &cap) < 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    int fail = rc == SQLITE_DONE ? 0 : rc;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (!fail)
        return 0;
    if (out)
        store_rows_free(out);
    return fail == SQLITE_NOMEM ? gj_fail_nomem(e) : sqlite_fail(c->db, fail, "run a statement", e);
}

/* Run one transaction command: 0, or -1 with *e saying `what` failed. */
static int sqlite_command(sqlite_conn *c, const char *sql, const char *what, gj_error *e)
{
    int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : sqlite_fail(c->db, rc, what, e);
}

/* BEGIN IMMEDIATE for a writer: it takes the write lock now (waiting up to
 * the busy timeout), so no statement of the transaction fails on it later. */
static int sqlite_begin(void *db, bool write, gj_error *e)
{
    return sqlite_command(db, write ? "BEGIN IMMEDIATE" : "BEGIN", "begin a transaction", e);
}

/* Roll back whatever is open; nothing is open when SQLite is in autocommit. */
static void sqlite_rollback(void *db)
{
    sqlite_conn *c = db;
    if (c && !sqlite3_get_autocommit(c->db))
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Commit: once COMMIT returns the log holds the transaction (see above).
 * A failed commit (a full disk) is rolled back. */
static int sqlite_commit(void *db, gj_error *e)
{
    if (sqlite_command(db, "COMMIT", "commit", e) == 0)
        return 0;
    sqlite_rollback(db);
    return -1;
}

const store_engine store_sqlite_engine = {
    .name = "sqlite",
    .row_locks = false,
    .migration_lock = NULL,
    .connect = sqlite_connect,
    .disconnect = sqlite_disconnect,
    .healthy = sqlite_healthy,
    .query = sqlite_query,
    .begin = sqlite_begin,
    .commit = sqlite_commit,
    .rollback = sqlite_rollback,
};

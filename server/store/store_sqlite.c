/* store_sqlite.c - the SQLite engine: store.c's statements carried to an
 * embedded database file, one sqlite3 handle per engine connection.
 *
 * The file is in WAL mode, so readers never wait for the writer and a
 * commit appends to the log rather than rewriting pages; synchronous=NORMAL
 * syncs the log only at checkpoints.  A commit is then durable against the
 * death of the process (the log is in the kernel's hands once written) but
 * not against a power loss or a kernel crash, which may lose the last
 * commits though never corrupt the file.
 *
 * Checkpoints (copying the log back into the file, with its fsyncs) are
 * made by a thread of their own, one per file in the process, woken when
 * a commit finds the log past CHECKPOINT_PAGES; SQLite would otherwise
 * make them inside the commit that crossed the line, adding an fsync's
 * time to that request.  The thread's checkpoints are PASSIVE: they never
 * wait for, nor hold up, a reader or the writer.  But under a steady
 * stream of commits such a checkpoint never finds the log idle, and the
 * log starts over only after a checkpoint that caught up with it; so a
 * commit that finds the log past CHECKPOINT_PAGES_SELF checkpoints it
 * itself (store.c's writer lock held: no commit comes in between), which
 * then copies only what the thread had not, and the log stays bounded.
 *
 * A busy timeout makes a writer of another process (`gamejudge puzzles
 * fill` beside the daemon) wait for the lock rather than fail; within one
 * process store.c lets one writer in at a time, so the timeout's sleeps
 * are not on the usual path.
 *
 * Statements are prepared once per connection and kept (a small cache
 * keyed by their text); parameters $1..$n are bound by name as text, and
 * the schema's column types (DOUBLE PRECISION, BIGINT) give the columns
 * the numeric affinity that turns such text into numbers on the way in and
 * in comparisons.  Numbers come back as text: integers with %lld, doubles
 * with %.17g, which strtod reads back to the same double. */
#include "store_engine.h"

#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQLITE_BUSY_MS        5000 /* how long a writer waits for another process's lock */
#define SQLITE_STMT_KEPT      48   /* prepared statements kept per connection */
#define CHECKPOINT_PAGES      1000 /* log pages that wake the checkpointer (SQLite's default) */
#define CHECKPOINT_PAGES_SELF 4000 /* log pages past which commits checkpoint themselves */
#define JOURNAL_LIMIT         "67108864" /* bytes the log is cut back to once checkpointed */

/* The checkpointing thread of one file, shared by its connections. */
typedef struct checkpointer {
    char *path;
    int refs; /* connections to the file; under checkpointers_lock */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool due, stop; /* under lock */
    int done;       /* the log's pages the last checkpoint went through; under lock */
    struct checkpointer *next;
} checkpointer;

static pthread_mutex_t checkpointers_lock = PTHREAD_MUTEX_INITIALIZER;
static checkpointer *checkpointers;

typedef struct kept_stmt {
    char *sql;
    sqlite3_stmt *st;
    unsigned long used; /* the connection's clock at its last use, for eviction */
} kept_stmt;

typedef struct sqlite_conn {
    sqlite3 *db;
    checkpointer *cp; /* NULL when its thread could not be started */
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

/* The checkpointer's thread: a PASSIVE checkpoint each time a commit
 * wakes it, on a connection of its own, until told to stop. */
static void *checkpoint_main(void *arg)
{
    checkpointer *cp = arg;
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(cp->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
        SQLITE_OK) {
        /* All left to the commits past CHECKPOINT_PAGES_SELF. */
        sqlite3_close(db);
        db = NULL;
    }
    pthread_mutex_lock(&cp->lock);
    while (!cp->stop) {
        if (!cp->due) {
            pthread_cond_wait(&cp->wake, &cp->lock);
            continue;
        }
        cp->due = false;
        pthread_mutex_unlock(&cp->lock);
        int log = 0, copied = 0;
        if (db)
            sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &copied);
        pthread_mutex_lock(&cp->lock);
        cp->done = copied > 0 ? copied : 0;
    }
    pthread_mutex_unlock(&cp->lock);
    sqlite3_close(db);
    return NULL;
}

/* SQLite's call after each commit (the write lock released), with the
 * log's length in pages: wake the checkpointer once enough pages are new
 * since its last checkpoint, or checkpoint here past CHECKPOINT_PAGES_SELF
 * (see above). */
static int checkpoint_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
    checkpointer *cp = arg;
    if (pages >= CHECKPOINT_PAGES_SELF) {
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    } else if (pages >= CHECKPOINT_PAGES) {
        pthread_mutex_lock(&cp->lock);
        /* Under a steady stream of commits the log never starts over (a
         * PASSIVE checkpoint never finds it idle), so the thread is woken
         * per CHECKPOINT_PAGES new pages, not at every commit. */
        if (pages < cp->done)
            cp->done = 0;
        if (!cp->due && pages - cp->done >= CHECKPOINT_PAGES) {
            cp->due = true;
            pthread_cond_signal(&cp->wake);
        }
        pthread_mutex_unlock(&cp->lock);
    }
    return SQLITE_OK;
}

/* The checkpointer of the file at path, started by its first connection;
 * NULL when it cannot be (memory, threads), which only costs speed. */
static checkpointer *checkpointer_join(const char *path)
{
    pthread_mutex_lock(&checkpointers_lock);
    checkpointer *cp = checkpointers;
    while (cp && strcmp(cp->path, path) != 0)
        cp = cp->next;
    if (!cp && (cp = calloc(1, sizeof *cp)) != NULL) {
        cp->path = strdup(path);
        pthread_mutex_init(&cp->lock, NULL);
        pthread_cond_init(&cp->wake, NULL);
        /* The thread takes no signal: they are the daemon's (its sigwait). */
        sigset_t all, was;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &was);
        int started = cp->path && pthread_create(&cp->thread, NULL, checkpoint_main, cp) == 0;
        pthread_sigmask(SIG_SETMASK, &was, NULL);
        if (!started) {
            pthread_cond_destroy(&cp->wake);
            pthread_mutex_destroy(&cp->lock);
            free(cp->path);
            free(cp);
            cp = NULL;
        } else {
            cp->next = checkpointers;
            checkpointers = cp;
        }
    }
    if (cp)
        cp->refs++;
    pthread_mutex_unlock(&checkpointers_lock);
    return cp;
}

/* A connection is done with cp: the last one stops its thread. */
static void checkpointer_leave(checkpointer *cp)
{
    if (!cp)
        return;
    pthread_mutex_lock(&checkpointers_lock);
    bool last = --cp->refs == 0;
    if (last)
        for (checkpointer **at = &checkpointers; *at; at = &(*at)->next)
            if (*at == cp) {
                *at = cp->next;
                break;
            }
    pthread_mutex_unlock(&checkpointers_lock);
    if (!last)
        return;
    pthread_mutex_lock(&cp->lock);
    cp->stop = true;
    pthread_cond_signal(&cp->wake);
    pthread_mutex_unlock(&cp->lock);
    pthread_join(cp->thread, NULL);
    pthread_cond_destroy(&cp->wake);
    pthread_mutex_destroy(&cp->lock);
    free(cp->path);
    free(cp);
}

/* sqlite3_exec's callback: the first column of the row into ctx (16 bytes). */
static int first_cell(void *ctx, int ncols, char **cells, char **names)
{
    (void)names;
    snprintf(ctx, 16, "%s", ncols > 0 && cells[0] ? cells[0] : "");
    return 0;
}

/* Put the file in WAL mode.  SQLite answers the mode it is in rather than
 * fail when it cannot switch (no room for the log beside the file: a
 * read-only folder), and a store out of WAL would make readers wait for
 * the writer, so that is refused too.  0, or -1 with *e unavailable. */
static int sqlite_wal(sqlite3 *db, const char *target, gj_error *e)
{
    char mode[16] = "";
    int rc = sqlite3_exec(db, "PRAGMA journal_mode=WAL", first_cell, mode, NULL);
    if (rc != SQLITE_OK)
        return sqlite_fail(db, rc, "be opened", e);
    if (strcmp(mode, "wal") != 0)
        return gj_fail(e, GJ_UNAVAILABLE,
                       "the SQLite store %s cannot keep its log (WAL) beside the file, so "
                       "it stays in journal mode %s: is its folder writable?",
                       target, mode[0] ? mode : "unknown");
    return 0;
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
    int rc = sqlite3_open_v2(
        target, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
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
    } else if (sqlite_wal(c->db, target, e) == 0 &&
               sqlite_setup(c->db, "PRAGMA synchronous=NORMAL", e) == 0 &&
               sqlite_setup(c->db, "PRAGMA journal_size_limit=" JOURNAL_LIMIT, e) == 0 &&
               /* LIKE as PostgreSQL's: a theme filter matches its case only. */
               sqlite_setup(c->db, "PRAGMA case_sensitive_like=ON", e) == 0) {
        /* The hook replaces SQLite's automatic checkpoints, which stay
         * (at CHECKPOINT_PAGES) when the thread could not be had. */
        c->cp = checkpointer_join(target);
        if (c->cp)
            sqlite3_wal_hook(c->db, checkpoint_hook, c->cp);
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
    checkpointer_leave(c->cp);
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
    .player_lock = NULL,
    .quick_commit = NULL,
    .byte_order = "",
    .connect = sqlite_connect,
    .disconnect = sqlite_disconnect,
    .healthy = sqlite_healthy,
    .query = sqlite_query,
    .begin = sqlite_begin,
    .commit = sqlite_commit,
    .rollback = sqlite_rollback,
};

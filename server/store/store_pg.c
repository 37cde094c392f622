/* store_pg.c - the PostgreSQL engine: store.c's statements carried to a
 * server through libpq, one connection per engine handle.
 *
 * Several daemons may share one database, so the rows a transaction reads
 * to update are locked with FOR UPDATE (row_locks) and migrations take a
 * transaction-scoped advisory lock first, so concurrent starts apply them
 * one at a time.
 *
 * A failure of the server rather than of the statement (the connection
 * refused or lost, the server shutting down, out of disk or connections,
 * a read-only standby, a lock or deadlock given up on) is GJ_UNAVAILABLE:
 * store.c answers 503 and the next call tries again.  healthy() reads what
 * the server sent while the connection sat idle, so a connection the
 * server closed (a restart) is noticed before it is used, and store.c
 * opens a new one.  No message shows a password: libpq names host, port
 * and user but not the password, and where it quotes a piece of a URL it
 * cannot read (a bad %-escape), every form of the URL's password is
 * hidden from its message first. */
#include "store_engine.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

/* Connection settings the URL may override: a server that does not answer
 * is given up on after a few seconds rather than holding a worker, and
 * pg_stat_activity names the client. */
#define PG_CONNECT_TIMEOUT "5"
#define PG_APPLICATION     "gamejudge"

/* The key of the migration's advisory lock: "gamejudg" in ASCII, a number
 * no other application sharing the database is likely to pick. */
#define PG_MIGRATION_LOCK "SELECT pg_advisory_xact_lock(7449355540992713831)"

/* Drop the server's notices ("relation already exists, skipping" and the
 * like), which libpq would otherwise print on stderr between log lines. */
static void pg_quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* Copy text into out (cap bytes) on one line: libpq's messages end in a
 * newline and may carry a tab-indented hint on the next. */
static void pg_flatten(const char *text, char *out, size_t cap)
{
    size_t o = 0;
    bool space = false;
    for (const char *p = text ? text : ""; *p && o + 1 < cap; p++) {
        if ((unsigned char)*p < 0x20 || *p == ' ') {
            space = o > 0;
            continue;
        }
        if (space && o + 2 < cap)
            out[o++] = ' ';
        space = false;
        out[o++] = *p;
    }
    out[o] = '\0';
}

/* Whether a SQLSTATE names a failure of the server or of the moment rather
 * than of the statement: connection exceptions (08), a transaction given up
 * as a deadlock or serialization failure (40), out of resources such as
 * disk or connections (53), lock not available (55P03), operator
 * intervention such as shutdown or a cancelled statement (57), system
 * errors (58), a read-only transaction (25006: a standby) and a database
 * that is gone (3D000). */
static bool pg_state_unavailable(const char *state)
{
    if (!state || strlen(state) != 5)
        return false;
    static const char *const classes[] = {"08", "40", "53", "57", "58"};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (strncmp(state, classes[i], 2) == 0)
            return true;
    return strcmp(state, "55P03") == 0 || strcmp(state, "25006") == 0 ||
           strcmp(state, "3D000") == 0;
}

/* Fill *e for a failed statement (res may be NULL) and return -1:
 * unavailable when the connection is gone or the SQLSTATE says the server
 * failed, else internal with the server's message and SQLSTATE. */
static int pg_fail(PGconn *db, const PGresult *res, const char *what, gj_error *e)
{
    char text[300];
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    const char *primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    pg_flatten(primary ? primary : PQerrorMessage(db), text, sizeof text);
    if (!text[0])
        pg_flatten(res ? PQresStatus(PQresultStatus(res)) : "no result", text, sizeof text);
    if (PQstatus(db) != CONNECTION_OK)
        return gj_fail(e, GJ_UNAVAILABLE, "the PostgreSQL store cannot be reached: %s", text);
    if (!res && !state)
        return gj_fail_nomem(e);
    if (pg_state_unavailable(state))
        return gj_fail(e, GJ_UNAVAILABLE, "the PostgreSQL store cannot %s now: %s (SQLSTATE %s)",
                       what, text, state);
    return gj_fail(e, GJ_INTERNAL, "the PostgreSQL store refused a statement: %s (SQLSTATE %s)",
                   text, state ? state : "none");
}

/* Replace each occurrence of the len bytes at secret in the message *msg
 * (malloc'd; replaced by a new one) with "***".  0, or -1 when memory ran
 * out (*msg then freed and NULL: nothing that might show it is left). */
static int pg_hide(char **msg, const char *secret, size_t len)
{
    if (len == 0 || !*msg)
        return 0;
    size_t n = strlen(*msg), o = 0;
    char *out = malloc(n + 3 * (n / len + 1) + 1);
    if (!out) {
        free(*msg);
        *msg = NULL;
        return -1;
    }
    for (size_t i = 0; i < n;) {
        if (n - i >= len && memcmp(*msg + i, secret, len) == 0) {
            memcpy(out + o, "***", 3);
            o += 3;
            i += len;
        } else {
            out[o++] = (*msg)[i++];
        }
    }
    out[o] = '\0';
    free(*msg);
    *msg = out;
    return 0;
}

/* Hide in *msg every form of a password the URL carries: as written in
 * its user information and in password= parameters (libpq quotes a token
 * it cannot decode as it was written), and as decoded (opts: the URL's
 * parsed options, NULL when it did not parse).  0, or -1 as pg_hide. */
static int pg_hide_password(const char *url, const PQconninfoOption *opts, char **msg)
{
    const char *auth = strstr(url, "://");
    auth = auth ? auth + 3 : url;
    size_t end = strcspn(auth, "/?#");
    const char *at = NULL;
    for (size_t i = 0; i < end; i++)
        if (auth[i] == '@')
            at = auth + i;
    const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    if (colon && pg_hide(msg, colon + 1, (size_t)(at - colon - 1)) < 0)
        return -1;
    const char *query = strchr(auth + end, '?');
    for (const char *p = query ? query + 1 : ""; *p;) {
        if (strncmp(p, "password=", 9) == 0 && pg_hide(msg, p + 9, strcspn(p + 9, "&#")) < 0)
            return -1;
        p += strcspn(p, "&#");
        if (*p != '&')
            break;
        p++;
    }
    for (const PQconninfoOption *o = opts; o && o->keyword; o++)
        if (strcmp(o->keyword, "password") == 0 && o->val &&
            pg_hide(msg, o->val, strlen(o->val)) < 0)
            return -1;
    return 0;
}

/* Fill *e with kind and `lead: ` libpq's message on one line, any password
 * of the URL hidden in it; return -1. */
static int pg_fail_connect(const char *url, const PQconninfoOption *opts, gj_error_kind kind,
                           const char *lead, const char *message, gj_error *e)
{
    char *msg = strdup(message ? message : "");
    if (!msg || pg_hide_password(url, opts, &msg) < 0)
        return gj_fail_nomem(e);
    char text[300];
    pg_flatten(msg, text, sizeof text);
    free(msg);
    return gj_fail(e, kind, "%s: %s", lead, text);
}

/* Connect to the URL target, the settings above as defaults it may
 * override: 0 with *db, or -1 with *e: unavailable, or bad_input for a
 * URL libpq cannot read (a port that is no number, a parameter it does
 * not know, a bad %-escape). */
static int pg_connect(const char *target, void **db, gj_error *e)
{
    char *why = NULL;
    PQconninfoOption *opts = PQconninfoParse(target, &why);
    if (!opts) {
        if (!why)
            return gj_fail_nomem(e);
        pg_fail_connect(target, NULL, GJ_BAD_INPUT, "the PostgreSQL URL cannot be read", why, e);
        PQfreemem(why);
        return -1;
    }
    /* The URL comes last so what it says wins over the defaults before it
     * (expand_dbname turns it into its parts). */
    const char *const keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *const values[] = {PG_CONNECT_TIMEOUT, PG_APPLICATION, target, NULL};
    PGconn *c = PQconnectdbParams(keys, values, 1);
    int rc = 0;
    if (!c)
        rc = gj_fail_nomem(e);
    else if (PQstatus(c) != CONNECTION_OK)
        rc = pg_fail_connect(target, opts, GJ_UNAVAILABLE, "the PostgreSQL store cannot be reached",
                             PQerrorMessage(c), e);
    PQconninfoFree(opts);
    if (rc < 0) {
        PQfinish(c);
        return -1;
    }
    PQsetNoticeProcessor(c, pg_quiet, NULL);
    *db = c;
    return 0;
}

/* Close the connection (NULL is fine). */
static void pg_disconnect(void *db)
{
    if (db)
        PQfinish(db);
}

/* Whether the connection is up and outside any transaction.  Reading what
 * arrived while it was idle, without waiting, is how a connection the
 * server has closed since its last use shows itself: its last words (an
 * error saying why) come first and the end of the stream after them, so
 * the socket is read for as long as it has something. */
static bool pg_healthy(void *db)
{
    PGconn *c = db;
    if (!c || PQstatus(c) != CONNECTION_OK || PQtransactionStatus(c) != PQTRANS_IDLE)
        return false;
    for (int reads = 0; reads < 16; reads++) {
        struct pollfd p = {.fd = PQsocket(c), .events = POLLIN};
        int ready = poll(&p, 1, 0);
        if (ready == 0)
            return true;
        if (ready < 0 && errno != EINTR)
            return false;
        if (ready > 0 && (PQconsumeInput(c) != 1 || PQstatus(c) != CONNECTION_OK))
            return false;
    }
    /* Still talking after all that: whatever it is, not an idle server. */
    return false;
}

/* Copy res's rows into *out as text cells: 0, or -1 with *e (memory). */
static int pg_copy_rows(const PGresult *res, store_rows *out, gj_error *e)
{
    size_t nrows = (size_t)PQntuples(res), ncols = (size_t)PQnfields(res);
    memset(out, 0, sizeof *out);
    if (nrows == 0 || ncols == 0) {
        out->ncols = ncols;
        return 0;
    }
    char **cells = calloc(nrows * ncols, sizeof *cells);
    if (!cells)
        return gj_fail_nomem(e);
    out->nrows = nrows;
    out->ncols = ncols;
    out->cells = cells;
    for (size_t r = 0; r < nrows; r++)
        for (size_t c = 0; c < ncols; c++) {
            if (PQgetisnull(res, (int)r, (int)c))
                continue;
            size_t len = (size_t)PQgetlength(res, (int)r, (int)c);
            char *cell = malloc(len + 1);
            if (!cell) {
                store_rows_free(out);
                return gj_fail_nomem(e);
            }
            memcpy(cell, PQgetvalue(res, (int)r, (int)c), len);
            cell[len] = '\0';
            cells[r * ncols + c] = cell;
        }
    return 0;
}

/* Run sql with params as $1..$n (text, the server infers their types),
 * its rows into *out when out is given: 0, or -1 with *e.  A statement
 * without parameters or rows goes as a simple query, so a migration may be
 * several statements in one text. */
static int pg_query(void *db, const char *sql, const char *const *params, int n, store_rows *out,
                    gj_error *e)
{
    PGconn *c = db;
    PGresult *res =
        n == 0 && !out ? PQexec(c, sql) : PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
    ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        int rc = pg_fail(c, res, "run a statement", e);
        PQclear(res);
        return rc;
    }
    int rc = out ? pg_copy_rows(res, out, e) : 0;
    PQclear(res);
    return rc;
}

/* Run one of the transaction commands; 0, or -1 with *e.  *tag gets the
 * command's tag when tag is not NULL (COMMIT answers ROLLBACK when the
 * transaction had failed). */
static int pg_command(PGconn *c, const char *sql, const char *what, char *tag, size_t cap,
                      gj_error *e)
{
    PGresult *res = PQexec(c, sql);
    if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
        int rc = pg_fail(c, res, what, e);
        PQclear(res);
        return rc;
    }
    if (tag)
        pg_flatten(PQcmdStatus(res), tag, cap);
    PQclear(res);
    return 0;
}

/* Begin a transaction.  READ COMMITTED (the server's default) is enough:
 * store.c locks the rows it updates, and a write waits for the lock
 * rather than failing on it. */
static int pg_begin(void *db, bool write, gj_error *e)
{
    (void)write;
    return pg_command(db, "BEGIN", "begin a transaction", NULL, 0, e);
}

/* Commit: 0 once the server has flushed it (synchronous_commit, the
 * default), or -1 with *e and nothing left open.  A connection lost during
 * COMMIT leaves the outcome unknown: the caller retries with the same
 * Idempotency-Key or attempt, which store.c counts once either way. */
static int pg_commit(void *db, gj_error *e)
{
    PGconn *c = db;
    char tag[32] = "";
    if (pg_command(c, "COMMIT", "commit", tag, sizeof tag, e) < 0) {
        if (PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
            PQclear(PQexec(c, "ROLLBACK"));
        return -1;
    }
    if (strcmp(tag, "COMMIT") != 0)
        return gj_fail(e, GJ_INTERNAL,
                       "the PostgreSQL store rolled back a transaction in which a statement "
                       "had failed");
    return 0;
}

/* Roll back whatever is open; a connection that is gone has nothing open. */
static void pg_rollback(void *db)
{
    PGconn *c = db;
    if (c && PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
        PQclear(PQexec(c, "ROLLBACK"));
}

const store_engine store_pg_engine = {
    .name = "postgresql",
    .row_locks = true,
    .migration_lock = PG_MIGRATION_LOCK,
    .player_lock = "SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))",
    .quick_commit = "SET LOCAL synchronous_commit TO off",
    .byte_order = " COLLATE \"C\"",
    .connect = pg_connect,
    .disconnect = pg_disconnect,
    .healthy = pg_healthy,
    .query = pg_query,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
};

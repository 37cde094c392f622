/* store.c - the puzzle store's logic over an engine (store_engine.h):
 * the URL's dispatch, a small pool of connections, the migrations, every
 * statement, and the counters the metrics read.
 *
 * Every public call takes a connection from the pool, does its work in at
 * most one transaction and gives the connection back.  A connection the
 * engine finds unhealthy (a PostgreSQL server that restarted) is dropped
 * and a new one opened on the next call; a call that failed on a
 * connection already open, found dead afterwards, is tried once more on a
 * fresh one, so the first call after an outage does not fail for the
 * outage's sake.  Such a retry is safe because each write is idempotent
 * by its keys: a play already recorded is answered as a repeat, a puzzle
 * already stored is left alone.
 *
 * Writes on an engine without row locks (SQLite: one writer per file) go
 * through one in-process mutex, so writers queue here, promptly, rather
 * than in SQLite's busy handler, which sleeps in steps of milliseconds;
 * the busy timeout is left for writers of other processes.  With row locks
 * (PostgreSQL) the puzzle's row, then the player's, is read FOR UPDATE, in
 * that order everywhere, so two plays never wait on each other in a
 * circle. */
#include "store.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "buf.h"
#include "store_engine.h"
#include "store_schema.h"

#define STORE_POOL_MAX   8   /* connections per store */
#define STORE_PAGE       256 /* rows fetched at a time by the walks (each, activity) */
#define STORE_TRIES      3   /* transactions a race may make store_record redo */
#define STORE_NEXT_TRIES 64  /* puzzles store_next may find taken by a concurrent call */
#define STORE_PARAMS_MAX 24

/* The columns a store_puzzle is read from, in puzzle_from_row's order. */
#define PUZZLE_COLUMNS                                                                             \
    "game, id, position, solution, themes, band, depth, difficulty, rating, rd, vol, plays, wins"

struct gj_store {
    const store_engine *eng;
    char *target; /* what the engine connects to: a file's path or the whole URL */
    pthread_mutex_t lock;
    pthread_cond_t freed;
    void *idle[STORE_POOL_MAX];
    int nidle;
    int open;                /* connections in existence: idle and in use */
    pthread_mutex_t writer;  /* one writer at a time, for engines without row locks */
    store_counters counters; /* under lock */
};

const char *store_cell(const store_rows *r, size_t row, size_t col)
{
    if (!r || row >= r->nrows || col >= r->ncols || !r->cells)
        return NULL;
    return r->cells[row * r->ncols + col];
}

void store_rows_free(store_rows *r)
{
    if (!r)
        return;
    if (r->cells)
        for (size_t i = 0; i < r->nrows * r->ncols; i++)
            free(r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof *r);
}

/* ---- parameters and cells ---------------------------------------------- */

/* A statement's parameters as texts; numbers are written into num. */
typedef struct params {
    const char *v[STORE_PARAMS_MAX];
    char num[STORE_PARAMS_MAX][32];
    int n;
} params;

/* Append a text parameter (NULL: SQL NULL). */
static void p_text(params *p, const char *t)
{
    p->v[p->n++] = t;
}

/* Append an integer parameter. */
static void p_long(params *p, long long x)
{
    snprintf(p->num[p->n], sizeof p->num[p->n], "%lld", x);
    p_text(p, p->num[p->n]);
}

/* Append a double parameter, written so that it reads back exactly. */
static void p_double(params *p, double x)
{
    snprintf(p->num[p->n], sizeof p->num[p->n], "%.17g", x);
    p_text(p, p->num[p->n]);
}

/* Append a rating's three values. */
static void p_glicko(params *p, glicko g)
{
    p_double(p, g.rating);
    p_double(p, g.rd);
    p_double(p, g.vol);
}

/* The cell as a double (0 when NULL). */
static double cell_double(const store_rows *r, size_t row, size_t col)
{
    const char *c = store_cell(r, row, col);
    return c ? strtod(c, NULL) : 0.0;
}

/* The cell as an integer (0 when NULL). */
static long long cell_long(const store_rows *r, size_t row, size_t col)
{
    const char *c = store_cell(r, row, col);
    return c ? strtoll(c, NULL, 10) : 0;
}

/* The three cells from col on as a rating. */
static glicko cell_glicko(const store_rows *r, size_t row, size_t col)
{
    glicko g = {cell_double(r, row, col), cell_double(r, row, col + 1),
                cell_double(r, row, col + 2)};
    return g;
}

/* Copy the cell into out (cap bytes), cut to fit; "" when NULL. */
static void cell_copy(const store_rows *r, size_t row, size_t col, char *out, size_t cap)
{
    const char *c = store_cell(r, row, col);
    snprintf(out, cap, "%s", c ? c : "");
}

/* Run sql on db with p's parameters (p NULL: none), rows into *out when out is given. */
static int run(gj_store *s, void *db, const char *sql, const params *p, store_rows *out,
               gj_error *e)
{
    return s->eng->query(db, sql, p ? p->v : NULL, p ? p->n : 0, out, e);
}

/* A row of PUZZLE_COLUMNS into *out (texts owned by it): 0, or -1 with *e. */
static int puzzle_from_row(const store_rows *r, size_t row, store_puzzle *out, gj_error *e)
{
    memset(out, 0, sizeof *out);
    cell_copy(r, row, 0, out->game, sizeof out->game);
    cell_copy(r, row, 1, out->id, sizeof out->id);
    const char *position = store_cell(r, row, 2), *solution = store_cell(r, row, 3);
    out->position = strdup(position ? position : "");
    out->solution = strdup(solution ? solution : "");
    if (!out->position || !out->solution) {
        store_puzzle_free(out);
        return gj_fail_nomem(e);
    }
    cell_copy(r, row, 4, out->themes, sizeof out->themes);
    out->band = (int)cell_long(r, row, 5);
    out->depth = (int)cell_long(r, row, 6);
    out->difficulty = cell_double(r, row, 7);
    out->rating = cell_glicko(r, row, 8);
    out->plays = (long)cell_long(r, row, 11);
    out->wins = (long)cell_long(r, row, 12);
    return 0;
}

void store_puzzle_free(store_puzzle *p)
{
    if (!p)
        return;
    free(p->position);
    free(p->solution);
    p->position = p->solution = NULL;
}

/* ---- the pool and the counters ----------------------------------------- */

/* Seconds on the monotonic clock. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A connection for one call: an idle one the engine still finds healthy,
 * else a new one while fewer than STORE_POOL_MAX are open, else the first
 * given back.  *fresh says whether it was opened now.  0, or -1 with *e. */
static int conn_take(gj_store *s, void **db, bool *fresh, gj_error *e)
{
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->nidle == 0 && s->open >= STORE_POOL_MAX)
            pthread_cond_wait(&s->freed, &s->lock);
        if (s->nidle == 0)
            break;
        void *c = s->idle[--s->nidle];
        if (s->eng->healthy(c)) {
            pthread_mutex_unlock(&s->lock);
            *db = c;
            *fresh = false;
            return 0;
        }
        s->open--;
        s->eng->disconnect(c);
    }
    s->open++;
    pthread_mutex_unlock(&s->lock);
    if (s->eng->connect(s->target, db, e) == 0) {
        *fresh = true;
        return 0;
    }
    pthread_mutex_lock(&s->lock);
    s->open--;
    pthread_cond_signal(&s->freed);
    pthread_mutex_unlock(&s->lock);
    return -1;
}

/* Give a connection back, or close it when `drop`. */
static void conn_give(gj_store *s, void *db, bool drop)
{
    pthread_mutex_lock(&s->lock);
    if (drop)
        s->open--;
    else
        s->idle[s->nidle++] = db;
    pthread_cond_signal(&s->freed);
    pthread_mutex_unlock(&s->lock);
    if (drop)
        s->eng->disconnect(db);
}

/* Count one call that took `seconds` and ended in rc (and *e when -1). */
static void count_call(gj_store *s, double seconds, int rc, const gj_error *e)
{
    static const double bounds_ms[] = {0.5, 1, 2, 5, 10, 50, 250};
    double ms = seconds * 1000.0;
    pthread_mutex_lock(&s->lock);
    s->counters.calls++;
    s->counters.seconds += seconds;
    if (rc < 0 && e->kind == GJ_UNAVAILABLE)
        s->counters.errors++;
    /* Cumulative, as a histogram's "le" buckets are: the last is every call. */
    for (size_t i = 0; i < 8; i++)
        if (i == 7 || ms <= bounds_ms[i])
            s->counters.latency_le[i] += 1;
    pthread_mutex_unlock(&s->lock);
}

/* Add to one of the play counters. */
static void count_add(gj_store *s, unsigned long *counter)
{
    pthread_mutex_lock(&s->lock);
    (*counter)++;
    pthread_mutex_unlock(&s->lock);
}

typedef int (*store_op)(gj_store *s, void *db, void *arg, gj_error *e);

/* Run op on a pooled connection and count the call.  A connection that
 * failed and is found dead afterwards is dropped; when it had been opened
 * before this call (it died while idle, or the server went away), op runs
 * once more on a fresh one.  op's result, with *e when -1. */
static int store_run(gj_store *s, store_op op, void *arg, gj_error *e)
{
    double start = now_s();
    int rc = -1;
    for (int attempt = 0; attempt < 2; attempt++) {
        void *db;
        bool fresh;
        if (conn_take(s, &db, &fresh, e) < 0)
            break;
        rc = op(s, db, arg, e);
        bool dead = rc < 0 && e->kind == GJ_UNAVAILABLE && !s->eng->healthy(db);
        conn_give(s, db, dead);
        if (!dead || fresh)
            break;
    }
    count_call(s, now_s() - start, rc, e);
    return rc;
}

/* body(s, db, arg, e) inside one write transaction on db: committed when
 * it returns 0, rolled back when -1 or when it returns 1 (nothing to keep,
 * a success).  0 or 1 for success, -1 with *e. */
static int in_write(gj_store *s, void *db, store_op body, void *arg, gj_error *e)
{
    bool serial = !s->eng->row_locks;
    if (serial)
        pthread_mutex_lock(&s->writer);
    int rc = s->eng->begin(db, true, e);
    if (rc == 0) {
        rc = body(s, db, arg, e);
        if (rc == 0 && s->eng->commit(db, e) < 0)
            rc = -1;
        else if (rc != 0)
            s->eng->rollback(db);
    }
    if (serial)
        pthread_mutex_unlock(&s->writer);
    return rc;
}

/* ---- open, close, migrations ------------------------------------------- */

/* Run one statement of a migration, each KEYTEXT in it written as TEXT
 * and the engine's byte_order (store_schema.c).  0, or -1 with *e. */
static int run_ddl(gj_store *s, void *db, const char *ddl, gj_error *e)
{
    gj_buf sql;
    buf_init(&sql);
    for (const char *at = ddl, *k; *at; at = k + strlen("KEYTEXT")) {
        k = strstr(at, "KEYTEXT");
        if (k == NULL) {
            buf_puts(&sql, at);
            break;
        }
        buf_append(&sql, at, (size_t)(k - at));
        buf_puts(&sql, "TEXT");
        buf_puts(&sql, s->eng->byte_order);
    }
    buf_putc(&sql, '\0'); /* a buffer is bytes, not a string */
    int rc = sql.failed ? gj_fail_nomem(e) : run(s, db, sql.data, NULL, NULL, e);
    buf_free(&sql);
    return rc;
}

/* Apply the migrations the store lacks (inside in_write). */
static int migrate_body(gj_store *s, void *db, void *arg, gj_error *e)
{
    (void)arg;
    if (s->eng->migration_lock && run(s, db, s->eng->migration_lock, NULL, NULL, e) < 0)
        return -1;
    if (run(s, db, "CREATE TABLE IF NOT EXISTS gj_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            NULL, NULL, e) < 0)
        return -1;
    store_rows r;
    if (run(s, db, "SELECT value FROM gj_meta WHERE key = 'schema'", NULL, &r, e) < 0)
        return -1;
    long long have = r.nrows ? cell_long(&r, 0, 0) : 0;
    store_rows_free(&r);
    if (have > STORE_SCHEMA_VERSION)
        return gj_fail(e, GJ_BAD_INPUT,
                       "the store's schema is version %lld, newer than version %d, the newest "
                       "this gamejudge knows: run a gamejudge as new as the store",
                       have, STORE_SCHEMA_VERSION);
    if (have == STORE_SCHEMA_VERSION)
        return 1;
    for (long long v = have < 0 ? 0 : have; v < STORE_SCHEMA_VERSION; v++) {
        if (!store_migrations[v])
            return gj_fail(e, GJ_INTERNAL, "the store has no migration to schema %lld", v + 1);
        for (const char *const *sql = store_migrations[v]; *sql; sql++)
            if (run_ddl(s, db, *sql, e) < 0)
                return -1;
    }
    params p = {0};
    p_long(&p, STORE_SCHEMA_VERSION);
    return run(s, db,
               "INSERT INTO gj_meta (key, value) VALUES ('schema', $1)"
               " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
               &p, NULL, e);
}

/* Bring the schema to STORE_SCHEMA_VERSION in one transaction. */
static int migrate_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    return in_write(s, db, migrate_body, arg, e) < 0 ? -1 : 0;
}

/* Make the folder holding the file at path when it is missing (one level
 * only: a deeper missing path is more likely a mistake than a wish).
 * 0, or -1 with *e unavailable. */
static int make_parent(const char *path, gj_error *e)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    size_t len = (size_t)(slash - path);
    char *dir = malloc(len + 1);
    if (!dir)
        return gj_fail_nomem(e);
    memcpy(dir, path, len);
    dir[len] = '\0';
    int rc = 0;
    if (mkdir(dir, 0755) < 0 && errno != EEXIST)
        rc = gj_fail(e, GJ_UNAVAILABLE, "the SQLite store's folder %s cannot be made: %s", dir,
                     strerror(errno));
    free(dir);
    return rc;
}

void store_redact(const char *url, char *out, size_t cap)
{
    if (cap == 0)
        return;
    out[0] = '\0';
    if (!url)
        return;
    size_t o = 0, n = strlen(url);
    const char *scheme = strstr(url, "://");
    /* The authority runs from after "://" to the first '/', '?' or '#';
     * its user information, before its last '@', may hold ":password". */
    size_t auth = scheme ? (size_t)(scheme - url) + 3 : n, auth_end = auth;
    while (auth_end < n && !strchr("/?#", url[auth_end]))
        auth_end++;
    size_t at = auth_end;
    for (size_t i = auth; i < auth_end; i++)
        if (url[i] == '@')
            at = i;
    size_t colon = at;
    for (size_t i = auth; i < at; i++)
        if (url[i] == ':') {
            colon = i;
            break;
        }
    for (size_t i = 0; i < n && o + 1 < cap;) {
        if (i == colon + 1 && colon < at) {
            /* ":password@" keeps its colon and at-sign. */
            for (const char *m = "***"; *m && o + 1 < cap; m++)
                out[o++] = *m;
            i = at;
            continue;
        }
        /* A password=... among the query's parameters. */
        if (i > auth_end && (url[i - 1] == '?' || url[i - 1] == '&') &&
            strncmp(url + i, "password=", 9) == 0) {
            for (const char *m = "password=***"; *m && o + 1 < cap; m++)
                out[o++] = *m;
            i += 9;
            while (i < n && url[i] != '&' && url[i] != '#')
                i++;
            continue;
        }
        out[o++] = url[i++];
    }
    out[o] = '\0';
}

int store_open(const char *url, gj_store **out, gj_error *e)
{
    const store_engine *eng;
    const char *target;
    *out = NULL;
    if (!url || strcmp(url, "none") == 0)
        return 0;
    if (strncmp(url, "sqlite:", 7) == 0) {
        eng = &store_sqlite_engine;
        target = url + 7;
        if (!*target)
            return gj_fail(e, GJ_BAD_INPUT, "--store: sqlite: needs a file's path, as sqlite:PATH");
        if (make_parent(target, e) < 0)
            return -1;
    } else if (strncmp(url, "postgresql://", 13) == 0 || strncmp(url, "postgres://", 11) == 0) {
        eng = &store_pg_engine;
        target = url;
    } else {
        char shown[256];
        store_redact(url, shown, sizeof shown);
        return gj_fail(e, GJ_BAD_INPUT,
                       "--store: \"%s\" names no kind of store: give none, sqlite:PATH or "
                       "postgresql://...",
                       shown);
    }
    gj_store *s = calloc(1, sizeof *s);
    if (!s || !(s->target = strdup(target))) {
        free(s);
        return gj_fail_nomem(e);
    }
    s->eng = eng;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->freed, NULL);
    pthread_mutex_init(&s->writer, NULL);
    if (store_run(s, migrate_op, NULL, e) < 0) {
        store_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

void store_close(gj_store *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nidle; i++)
        s->eng->disconnect(s->idle[i]);
    pthread_mutex_destroy(&s->writer);
    pthread_cond_destroy(&s->freed);
    pthread_mutex_destroy(&s->lock);
    free(s->target);
    free(s);
}

const char *store_kind(const gj_store *s)
{
    return s ? s->eng->name : "none";
}

void store_counters_read(gj_store *s, store_counters *out)
{
    pthread_mutex_lock(&s->lock);
    *out = s->counters;
    pthread_mutex_unlock(&s->lock);
}

/* ---- ping, put, get, count, each --------------------------------------- */

/* A write transaction that reads the schema's row and keeps nothing: it
 * fails when the store cannot be reached or cannot take a writer. */
static int ping_body(gj_store *s, void *db, void *arg, gj_error *e)
{
    (void)arg;
    store_rows r;
    if (run(s, db, "SELECT value FROM gj_meta WHERE key = 'schema'", NULL, &r, e) < 0)
        return -1;
    store_rows_free(&r);
    return 1;
}

/* ping_body in its transaction. */
static int ping_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    return in_write(s, db, ping_body, arg, e) < 0 ? -1 : 0;
}

int store_ping(gj_store *s, gj_error *e)
{
    return store_run(s, ping_op, NULL, e);
}

/* The insert of a puzzle with its given starting stats, nothing when its
 * (game, id) is stored; it answers the id when it inserted. */
#define PUZZLE_INSERT                                                                              \
    "INSERT INTO puzzles (" PUZZLE_COLUMNS ")"                                                     \
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"                             \
    " ON CONFLICT (game, id) DO NOTHING RETURNING id"

/* p's values as PUZZLE_INSERT's parameters, plays and wins as given. */
static void puzzle_params(params *q, const store_puzzle *p, long plays, long wins)
{
    p_text(q, p->game);
    p_text(q, p->id);
    p_text(q, p->position ? p->position : "");
    p_text(q, p->solution ? p->solution : "");
    p_text(q, p->themes);
    p_long(q, p->band);
    p_long(q, p->depth);
    p_double(q, p->difficulty);
    p_glicko(q, glicko_clamp(p->rating));
    p_long(q, plays);
    p_long(q, wins);
}

typedef struct put_arg {
    const store_puzzle *p;
    bool added;
} put_arg;

/* Insert the puzzle unless stored (inside in_write). */
static int put_body(gj_store *s, void *db, void *arg, gj_error *e)
{
    put_arg *a = arg;
    params q = {0};
    store_rows r;
    puzzle_params(&q, a->p, a->p->plays, a->p->wins);
    if (run(s, db, PUZZLE_INSERT, &q, &r, e) < 0)
        return -1;
    a->added = r.nrows > 0;
    store_rows_free(&r);
    return a->added ? 0 : 1;
}

/* put_body in its transaction. */
static int put_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    return in_write(s, db, put_body, arg, e) < 0 ? -1 : 0;
}

int store_put(gj_store *s, const store_puzzle *p, bool *added, gj_error *e)
{
    put_arg a = {p, false};
    int rc = store_run(s, put_op, &a, e);
    if (added)
        *added = rc == 0 && a.added;
    return rc;
}

typedef struct get_arg {
    const char *game, *id;
    store_puzzle *out;
} get_arg;

/* Read one puzzle. */
static int get_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    get_arg *a = arg;
    params q = {0};
    store_rows r;
    p_text(&q, a->game);
    p_text(&q, a->id);
    if (run(s, db, "SELECT " PUZZLE_COLUMNS " FROM puzzles WHERE game = $1 AND id = $2", &q, &r,
            e) < 0)
        return -1;
    int rc = r.nrows ? puzzle_from_row(&r, 0, a->out, e)
                     : gj_fail(e, GJ_NOT_FOUND, "no puzzle %s of %s is stored", a->id, a->game);
    store_rows_free(&r);
    return rc;
}

int store_get(gj_store *s, const char *game, const char *id, store_puzzle *out, gj_error *e)
{
    memset(out, 0, sizeof *out);
    get_arg a = {game, id, out};
    return store_run(s, get_op, &a, e);
}

typedef struct count_arg {
    const char *game;
    long n;
} count_arg;

/* Count the puzzles of a game, or of all. */
static int count_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    count_arg *a = arg;
    params q = {0};
    store_rows r;
    if (a->game)
        p_text(&q, a->game);
    if (run(s, db,
            a->game ? "SELECT COUNT(*) FROM puzzles WHERE game = $1"
                    : "SELECT COUNT(*) FROM puzzles",
            &q, &r, e) < 0)
        return -1;
    a->n = (long)cell_long(&r, 0, 0);
    store_rows_free(&r);
    return 0;
}

int store_count(gj_store *s, const char *game, long *out, gj_error *e)
{
    count_arg a = {game, 0};
    int rc = store_run(s, count_op, &a, e);
    *out = rc == 0 ? a.n : 0;
    return rc;
}

typedef struct page_arg {
    const char *game;
    const char *after_game, *after_id; /* the last row of the page before */
    store_rows rows;
} page_arg;

/* One page of puzzles after (after_game, after_id) in (game, id) byte
 * order: the keyset's comparison and the ORDER BY use the same collation,
 * so pages neither skip nor repeat, and an export reads alike from every
 * engine. */
static int each_page_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    page_arg *a = arg;
    params q = {0};
    p_long(&q, STORE_PAGE);
    if (a->game) {
        p_text(&q, a->game);
        p_text(&q, a->after_id);
        return run(s, db,
                   "SELECT " PUZZLE_COLUMNS " FROM puzzles WHERE game = $2 AND id > $3"
                   " ORDER BY id LIMIT $1",
                   &q, &a->rows, e);
    }
    p_text(&q, a->after_game);
    p_text(&q, a->after_id);
    return run(s, db,
               "SELECT " PUZZLE_COLUMNS " FROM puzzles WHERE (game, id) > ($2, $3)"
               " ORDER BY game, id LIMIT $1",
               &q, &a->rows, e);
}

int store_each(gj_store *s, const char *game, int (*each)(void *ctx, const store_puzzle *p),
               void *ctx, gj_error *e)
{
    /* Page by page, the connection given back between pages, so each may
     * call the store itself and a long walk holds no transaction open. */
    char last_game[STORE_GAME_MAX] = "", last_id[STORE_ID_MAX] = "";
    for (;;) {
        page_arg a = {game, last_game, last_id, {0}};
        if (store_run(s, each_page_op, &a, e) < 0)
            return -1;
        size_t n = a.rows.nrows;
        int rc = 0;
        for (size_t i = 0; i < n && rc == 0; i++) {
            store_puzzle p;
            if (puzzle_from_row(&a.rows, i, &p, e) < 0) {
                rc = -1;
                break;
            }
            rc = each(ctx, &p);
            store_puzzle_free(&p);
        }
        if (n > 0) {
            cell_copy(&a.rows, n - 1, 0, last_game, sizeof last_game);
            cell_copy(&a.rows, n - 1, 1, last_id, sizeof last_id);
        }
        store_rows_free(&a.rows);
        if (rc != 0)
            return rc;
        if (n < STORE_PAGE)
            return 0;
    }
}

/* ---- players and plays ------------------------------------------------- */

typedef struct player_arg {
    const char *game, *player;
    glicko g;
    bool known;
} player_arg;

/* The stored rating of (game, player) into a->g, or the start. */
static int player_read(gj_store *s, void *db, player_arg *a, bool lock, gj_error *e)
{
    params q = {0};
    store_rows r;
    p_text(&q, a->game);
    p_text(&q, a->player);
    const char *sql = lock && s->eng->row_locks
                          ? "SELECT rating, rd, vol FROM players WHERE game = $1 AND player = $2"
                            " FOR UPDATE"
                          : "SELECT rating, rd, vol FROM players WHERE game = $1 AND player = $2";
    if (run(s, db, sql, &q, &r, e) < 0)
        return -1;
    a->known = r.nrows > 0;
    if (a->known)
        a->g = cell_glicko(&r, 0, 0);
    else
        a->g = (glicko){GLICKO_START_RATING, GLICKO_START_RD, GLICKO_START_VOL};
    store_rows_free(&r);
    return 0;
}

/* player_read outside any transaction. */
static int player_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    return player_read(s, db, arg, false, e);
}

int store_player(gj_store *s, const char *game, const char *player, glicko *out, bool *known,
                 gj_error *e)
{
    player_arg a = {game, player, {0, 0, 0}, false};
    int rc = store_run(s, player_op, &a, e);
    if (rc == 0) {
        *out = a.g;
        if (known)
            *known = a.known;
    }
    return rc;
}

typedef struct record_arg {
    const store_play *in;
    store_play_result *out;
    bool raced; /* the play's insert found its row taken: redo the transaction */
} record_arg;

/* The columns of a recorded play that make its answer, in play_answer's order. */
#define PLAY_ANSWER_COLUMNS                                                                        \
    "idem_key, attempt, player_rating, player_rd, player_vol, player_rating_after,"                \
    " player_rd_after, player_vol_after, puzzle_rating, puzzle_rd, puzzle_vol,"                    \
    " puzzle_rating_after, puzzle_rd_after, puzzle_vol_after, puzzle_plays, puzzle_wins"

/* A recorded play's row of PLAY_ANSWER_COLUMNS as the answer it gave. */
static void play_answer(const store_rows *r, store_play_result *out)
{
    out->rated = true;
    out->repeated = true;
    out->player_before = cell_glicko(r, 0, 2);
    out->player_after = cell_glicko(r, 0, 5);
    out->puzzle_before = cell_glicko(r, 0, 8);
    out->puzzle_after = cell_glicko(r, 0, 11);
    out->puzzle_plays = (long)cell_long(r, 0, 14);
    out->puzzle_wins = (long)cell_long(r, 0, 15);
}

/* Whether the idempotency key `key` names a play other than (game, id,
 * player): 1 (with *e conflict), 0, or -1 with *e. */
static int key_taken(gj_store *s, void *db, const store_play *in, gj_error *e)
{
    params q = {0};
    store_rows r;
    p_text(&q, in->key);
    if (run(s, db, "SELECT game, id, player FROM plays WHERE idem_key = $1", &q, &r, e) < 0)
        return -1;
    bool other = r.nrows > 0 && (strcmp(store_cell(&r, 0, 0), in->puzzle->game) != 0 ||
                                 strcmp(store_cell(&r, 0, 1), in->puzzle->id) != 0 ||
                                 strcmp(store_cell(&r, 0, 2), in->player) != 0);
    store_rows_free(&r);
    if (!other)
        return 0;
    gj_fail(e, GJ_CONFLICT,
            "Idempotency-Key: the key was already used for another play; send a new key for "
            "a new request");
    snprintf(e->field, sizeof e->field, "Idempotency-Key");
    return 1;
}

/* The puzzle's row, stored first when absent, read (locked for the update
 * where the engine locks rows) into *g, *plays, *wins. */
static int puzzle_locked(gj_store *s, void *db, const store_puzzle *p, glicko *g, long *plays,
                         long *wins, gj_error *e)
{
    params q = {0};
    store_rows r;
    puzzle_params(&q, p, 0, 0);
    if (run(s, db, PUZZLE_INSERT, &q, &r, e) < 0)
        return -1;
    store_rows_free(&r);
    params k = {0};
    p_text(&k, p->game);
    p_text(&k, p->id);
    const char *sql = s->eng->row_locks ? "SELECT rating, rd, vol, plays, wins FROM puzzles"
                                          " WHERE game = $1 AND id = $2 FOR UPDATE"
                                        : "SELECT rating, rd, vol, plays, wins FROM puzzles"
                                          " WHERE game = $1 AND id = $2";
    if (run(s, db, sql, &k, &r, e) < 0)
        return -1;
    if (r.nrows == 0) {
        store_rows_free(&r);
        return gj_fail(e, GJ_INTERNAL, "the puzzle %s of %s vanished while it was played", p->id,
                       p->game);
    }
    *g = cell_glicko(&r, 0, 0);
    *plays = (long)cell_long(&r, 0, 3);
    *wins = (long)cell_long(&r, 0, 4);
    store_rows_free(&r);
    return 0;
}

/* The player's row made when absent (the start), then read locked into *a. */
static int player_locked(gj_store *s, void *db, player_arg *a, gj_error *e)
{
    params q = {0};
    p_text(&q, a->game);
    p_text(&q, a->player);
    p_glicko(&q, (glicko){GLICKO_START_RATING, GLICKO_START_RD, GLICKO_START_VOL});
    if (run(s, db,
            "INSERT INTO players (game, player, rating, rd, vol, plays, wins)"
            " VALUES ($1, $2, $3, $4, $5, 0, 0) ON CONFLICT (game, player) DO NOTHING",
            &q, NULL, e) < 0)
        return -1;
    return player_read(s, db, a, true, e);
}

/* The play's transaction (inside in_write): 0 when it wrote, 1 when it had
 * only to answer (a repeat or a later attempt), -1 with *e. */
static int record_body(gj_store *s, void *db, void *arg, gj_error *e)
{
    record_arg *a = arg;
    const store_play *in = a->in;
    const store_puzzle *pz = in->puzzle;
    store_play_result *out = a->out;
    glicko puzzle;
    long plays = 0, wins = 0;
    if (puzzle_locked(s, db, pz, &puzzle, &plays, &wins, e) < 0)
        return -1;
    if (in->key) {
        int taken = key_taken(s, db, in, e);
        if (taken != 0)
            return -1;
    }
    params q = {0};
    store_rows r;
    p_text(&q, pz->game);
    p_text(&q, pz->id);
    p_text(&q, in->player);
    if (run(s, db,
            "SELECT " PLAY_ANSWER_COLUMNS " FROM plays WHERE game = $1 AND id = $2 AND player = $3",
            &q, &r, e) < 0)
        return -1;
    player_arg pl = {pz->game, in->player, {0, 0, 0}, false};
    if (r.nrows > 0) {
        const char *key = store_cell(&r, 0, 0), *attempt = store_cell(&r, 0, 1);
        bool repeat = in->key ? key && strcmp(key, in->key) == 0
                              : attempt && in->attempt && strcmp(attempt, in->attempt) == 0;
        if (repeat)
            play_answer(&r, out);
        store_rows_free(&r);
        if (repeat)
            return 1;
        /* A later attempt: answered with the values as they stand. */
        if (player_read(s, db, &pl, false, e) < 0)
            return -1;
        *out = (store_play_result){false, false, pl.g, pl.g, puzzle, puzzle, plays, wins};
        return 1;
    }
    store_rows_free(&r);
    if (player_locked(s, db, &pl, e) < 0)
        return -1;
    glicko player = in->has_player ? glicko_clamp(in->player_rating) : pl.g;
    double won = in->solved ? 1.0 : 0.0, lost = 1.0 - won;
    /* Both sides from the values before the play: one game each way. */
    glicko player_after = glicko_clamp(glicko_update(player, &puzzle, &won, 1, GLICKO_TAU));
    glicko puzzle_after = glicko_clamp(glicko_update(puzzle, &player, &lost, 1, GLICKO_TAU));
    long plays_after = plays + 1, wins_after = wins + (in->solved ? 1 : 0);
    params w = {0};
    p_text(&w, pz->game);
    p_text(&w, pz->id);
    p_text(&w, in->player);
    p_long(&w, in->at_ms);
    p_long(&w, in->solved ? 1 : 0);
    p_text(&w, in->attempt ? in->attempt : "");
    p_text(&w, in->key);
    p_glicko(&w, player);
    p_glicko(&w, player_after);
    p_glicko(&w, puzzle);
    p_glicko(&w, puzzle_after);
    p_long(&w, plays_after);
    p_long(&w, wins_after);
    /* A concurrent transaction may have taken the play's row or its key
     * since the reads above (PostgreSQL reads committed rows afresh): then
     * nothing is inserted and the whole transaction is redone. */
    if (run(s, db,
            "INSERT INTO plays (game, id, player, at_ms, solved, attempt, idem_key,"
            " player_rating, player_rd, player_vol, player_rating_after, player_rd_after,"
            " player_vol_after, puzzle_rating, puzzle_rd, puzzle_vol, puzzle_rating_after,"
            " puzzle_rd_after, puzzle_vol_after, puzzle_plays, puzzle_wins)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,"
            " $18, $19, $20, $21) ON CONFLICT DO NOTHING RETURNING id",
            &w, &r, e) < 0)
        return -1;
    a->raced = r.nrows == 0;
    store_rows_free(&r);
    if (a->raced)
        return 1;
    params u = {0};
    p_glicko(&u, player_after);
    p_long(&u, in->solved ? 1 : 0);
    p_text(&u, pz->game);
    p_text(&u, in->player);
    if (run(s, db,
            "UPDATE players SET rating = $1, rd = $2, vol = $3, plays = plays + 1,"
            " wins = wins + $4 WHERE game = $5 AND player = $6",
            &u, NULL, e) < 0)
        return -1;
    params v = {0};
    p_glicko(&v, puzzle_after);
    p_long(&v, plays_after);
    p_long(&v, wins_after);
    p_text(&v, pz->game);
    p_text(&v, pz->id);
    if (run(s, db,
            "UPDATE puzzles SET rating = $1, rd = $2, vol = $3, plays = $4, wins = $5"
            " WHERE game = $6 AND id = $7",
            &v, NULL, e) < 0)
        return -1;
    *out = (store_play_result){true,   false,        player,      player_after,
                               puzzle, puzzle_after, plays_after, wins_after};
    return 0;
}

/* record_body in its transaction, redone while a race took its row. */
static int record_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    record_arg *a = arg;
    for (int i = 0; i < STORE_TRIES; i++) {
        a->raced = false;
        if (in_write(s, db, record_body, a, e) < 0)
            return -1;
        if (!a->raced)
            return 0;
    }
    return gj_fail(e, GJ_UNAVAILABLE, "the store is too busy with this play's retries: try again");
}

int store_record(gj_store *s, const store_play *in, store_play_result *out, gj_error *e)
{
    memset(out, 0, sizeof *out);
    record_arg a = {in, out, false};
    int rc = store_run(s, record_op, &a, e);
    if (rc == 0)
        count_add(s, out->repeated ? &s->counters.plays_repeated
                     : out->rated  ? &s->counters.plays_recorded
                                   : &s->counters.plays_unrated);
    return rc;
}

/* ---- next -------------------------------------------------------------- */

typedef struct next_arg {
    const store_next_ask *ask;
    store_puzzle *out;
} next_arg;

/* The LIKE pattern matching theme as a whole word of " themes ": '%', '_'
 * and '\' in the name stand for themselves. */
static void theme_pattern(const char *theme, char *out, size_t cap)
{
    size_t o = 0;
    out[o++] = '%';
    out[o++] = ' ';
    for (const char *t = theme; *t && o + 4 < cap; t++) {
        if (*t == '%' || *t == '_' || *t == '\\')
            out[o++] = '\\';
        out[o++] = *t;
    }
    out[o++] = ' ';
    out[o++] = '%';
    out[o] = '\0';
}

/* The puzzle nearest `rating` on one side (up: rating >= r, lowest
 * first; else rating < r, highest first) matching the ask's filters that
 * the player was neither served nor has played (a puzzle met by its id,
 * the daily one, is as seen as a served one), into *r (no row: none). */
static int next_side(gj_store *s, void *db, const store_next_ask *ask, double rating, bool up,
                     store_rows *r, gj_error *e)
{
    char sql[1024], pattern[2 * STORE_THEMES_MAX + 8];
    params q = {0};
    p_text(&q, ask->game);
    p_double(&q, rating);
    p_text(&q, ask->player);
    int n = snprintf(sql, sizeof sql,
                     "SELECT " PUZZLE_COLUMNS " FROM puzzles p WHERE p.game = $1 AND p.rating %s $2"
                     " AND NOT EXISTS (SELECT 1 FROM served s WHERE s.game = p.game"
                     " AND s.player = $3 AND s.id = p.id)"
                     " AND NOT EXISTS (SELECT 1 FROM plays y WHERE y.game = p.game"
                     " AND y.id = p.id AND y.player = $3)",
                     up ? ">=" : "<");
    if (ask->band >= 0) {
        p_long(&q, ask->band);
        n += snprintf(sql + n, sizeof sql - (size_t)n, " AND p.band = $%d", q.n);
    }
    if (ask->depth > 0) {
        p_long(&q, ask->depth);
        n += snprintf(sql + n, sizeof sql - (size_t)n, " AND p.depth = $%d", q.n);
    }
    if (ask->theme) {
        theme_pattern(ask->theme, pattern, sizeof pattern);
        p_text(&q, pattern);
        n += snprintf(sql + n, sizeof sql - (size_t)n,
                      " AND (' ' || p.themes || ' ') LIKE $%d ESCAPE '\\'", q.n);
    }
    snprintf(sql + n, sizeof sql - (size_t)n, "%s",
             up ? " ORDER BY p.rating, p.id LIMIT 1"
                : " ORDER BY p.rating DESC, p.id DESC LIMIT 1");
    return run(s, db, sql, &q, r, e);
}

/* The transaction of store_next (inside in_write). */
static int next_body(gj_store *s, void *db, void *arg, gj_error *e)
{
    next_arg *a = arg;
    const store_next_ask *ask = a->ask;
    double rating = ask->rating;
    /* A served mark lost with the database server (never with the daemon)
     * would at worst serve that player the puzzle once more; a play is never
     * recorded here, so this transaction need not wait for the disk. */
    if (s->eng->quick_commit && run(s, db, s->eng->quick_commit, NULL, NULL, e) < 0)
        return -1;
    if (s->eng->player_lock) {
        params lock = {0};
        p_text(&lock, ask->game);
        p_text(&lock, ask->player);
        if (run(s, db, s->eng->player_lock, &lock, NULL, e) < 0)
            return -1;
    }
    if (!ask->has_rating) {
        player_arg pl = {ask->game, ask->player, {0, 0, 0}, false};
        if (player_read(s, db, &pl, false, e) < 0)
            return -1;
        rating = pl.g.rating;
    }
    for (int i = 0; i < STORE_NEXT_TRIES; i++) {
        store_rows up, down;
        if (next_side(s, db, ask, rating, true, &up, e) < 0)
            return -1;
        if (next_side(s, db, ask, rating, false, &down, e) < 0) {
            store_rows_free(&up);
            return -1;
        }
        /* The nearer of the two; a tie goes up, to the harder puzzle. */
        store_rows *pick = NULL;
        if (up.nrows && down.nrows)
            pick =
                cell_double(&up, 0, 8) - rating <= rating - cell_double(&down, 0, 8) ? &up : &down;
        else if (up.nrows)
            pick = &up;
        else if (down.nrows)
            pick = &down;
        if (!pick) {
            store_rows_free(&up);
            store_rows_free(&down);
            return gj_fail(e, GJ_NOT_FOUND,
                           "player %s has been served every stored puzzle of %s%s: the pool is "
                           "exhausted for this player",
                           ask->player, ask->game,
                           ask->band >= 0 || ask->depth > 0 || ask->theme ? " that matches" : "");
        }
        params q = {0};
        store_rows r;
        p_text(&q, ask->game);
        p_text(&q, ask->player);
        p_text(&q, store_cell(pick, 0, 1));
        p_long(&q, ask->at_ms);
        int rc = run(s, db,
                     "INSERT INTO served (game, player, id, at_ms) VALUES ($1, $2, $3, $4)"
                     " ON CONFLICT (game, player, id) DO NOTHING RETURNING id",
                     &q, &r, e);
        bool taken = rc == 0 && r.nrows == 0;
        if (rc == 0)
            store_rows_free(&r);
        /* Found taken: a concurrent call served it to the same player since
         * the walk read; walk again, now past it. */
        if (rc == 0 && !taken)
            rc = puzzle_from_row(pick, 0, a->out, e);
        store_rows_free(&up);
        store_rows_free(&down);
        if (rc < 0)
            return -1;
        if (!taken)
            return 0;
    }
    return gj_fail(e, GJ_UNAVAILABLE,
                   "the store is too busy serving player %s concurrently: try again", ask->player);
}

/* next_body in its transaction. */
static int next_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    next_arg *a = arg;
    int rc = in_write(s, db, next_body, arg, e);
    if (rc < 0)
        store_puzzle_free(a->out);
    return rc < 0 ? -1 : 0;
}

int store_next(gj_store *s, const store_next_ask *a, store_puzzle *out, gj_error *e)
{
    memset(out, 0, sizeof *out);
    next_arg arg = {a, out};
    int rc = store_run(s, next_op, &arg, e);
    if (rc == 0)
        count_add(s, &s->counters.served);
    return rc;
}

/* ---- activity ---------------------------------------------------------- */

typedef struct activity_arg {
    const char *player;
    long long before_ms, since_ms;
    const char *before_game, *before_id; /* the last row of the page before */
    long limit;
    store_rows rows;
} activity_arg;

/* One page of the player's plays before (before_ms, before_game,
 * before_id), newest first (plays of one millisecond in byte order of
 * (game, id), as each_page_op), with the themes of each puzzle. */
static int activity_page_op(gj_store *s, void *db, void *arg, gj_error *e)
{
    activity_arg *a = arg;
    params q = {0};
    p_text(&q, a->player);
    p_long(&q, a->before_ms);
    p_text(&q, a->before_game);
    p_text(&q, a->before_id);
    p_long(&q, a->since_ms);
    p_long(&q, a->limit);
    return run(s, db,
               "SELECT p.at_ms, p.game, p.id, p.solved, p.player_rating, p.player_rd,"
               " p.player_vol, p.player_rating_after, p.player_rd_after, p.player_vol_after,"
               " p.puzzle_rating, z.themes FROM plays p"
               " LEFT JOIN puzzles z ON z.game = p.game AND z.id = p.id"
               " WHERE p.player = $1 AND (p.at_ms, p.game, p.id) < ($2, $3, $4)"
               " AND p.at_ms >= $5 ORDER BY p.at_ms DESC, p.game DESC, p.id DESC LIMIT $6",
               &q, &a->rows, e);
}

int store_activity(gj_store *s, const char *player, long long before_ms, long long since_ms,
                   long max, int (*each)(void *ctx, const store_activity_row *row), void *ctx,
                   gj_error *e)
{
    /* Keyset pages: (at_ms, game, id) of the last row given is where the
     * next page starts, so plays of one millisecond are neither lost nor
     * given twice.  The first page starts before (before_ms, "", ""): every
     * play before before_ms. */
    char last_game[STORE_GAME_MAX] = "", last_id[STORE_ID_MAX] = "";
    long long last_ms = before_ms > 0 ? before_ms : LLONG_MAX;
    long left = max;
    store_activity_row *row = malloc(sizeof *row);
    if (!row)
        return gj_fail_nomem(e);
    while (left > 0) {
        activity_arg a = {player,    last_ms, since_ms,
                          last_game, last_id, left < STORE_PAGE ? left : STORE_PAGE,
                          {0}};
        if (store_run(s, activity_page_op, &a, e) < 0) {
            free(row);
            return -1;
        }
        size_t n = a.rows.nrows;
        int rc = 0;
        for (size_t i = 0; i < n && rc == 0; i++) {
            memset(row, 0, sizeof *row);
            row->at_ms = cell_long(&a.rows, i, 0);
            cell_copy(&a.rows, i, 1, row->game, sizeof row->game);
            cell_copy(&a.rows, i, 2, row->id, sizeof row->id);
            row->solved = cell_long(&a.rows, i, 3) != 0;
            row->player_before = cell_glicko(&a.rows, i, 4);
            row->player_after = cell_glicko(&a.rows, i, 7);
            row->puzzle_rating = cell_double(&a.rows, i, 10);
            cell_copy(&a.rows, i, 11, row->themes, sizeof row->themes);
            rc = each(ctx, row);
        }
        if (n > 0) {
            last_ms = cell_long(&a.rows, n - 1, 0);
            cell_copy(&a.rows, n - 1, 1, last_game, sizeof last_game);
            cell_copy(&a.rows, n - 1, 2, last_id, sizeof last_id);
        }
        store_rows_free(&a.rows);
        if (rc != 0) {
            free(row);
            return rc;
        }
        if ((long)n < a.limit)
            break;
        left -= (long)n;
    }
    free(row);
    return 0;
}

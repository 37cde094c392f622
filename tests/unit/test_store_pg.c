/* test_store_pg.c - the store on PostgreSQL: the engine (store_pg.c) on
 * its own, then the store as several replicas share it.
 *
 * Runs only where GJ_TEST_STORE_URL names a PostgreSQL database
 * (tests/integration/store_pg.sh starts a throwaway cluster and sets it);
 * elsewhere it says so and passes.  Each test works in a database of its
 * own, made anew on that server, so none sees another's rows.  The outage
 * test also needs GJ_TEST_PG_DIR, the cluster's directory, to stop and
 * start the server with tests/integration/pg_cluster.sh.
 *
 *   engine: values round-trip as text (random doubles exactly, NULL,
 *           quotes, UTF-8); statement errors are internal, the server's
 *           failures (a read-only transaction, a killed connection, a
 *           closed port) unavailable and never show the password; a failed
 *           transaction is unhealthy until rolled back and its COMMIT fails;
 *           the migration lock makes a second start wait for the first.
 *   store:  two handles on one database (two replicas) record 2 x 1,000
 *           plays of one puzzle from 2,000 players on 8 threads: 2,000
 *           counted, and the plays form one chain, each starting from the
 *           rating the one before left and moving it as glicko_update says
 *           (none lost, none applied on a stale read); retries through the
 *           other replica count once; store_next from both for one player
 *           never serves a puzzle twice and serves every one (a "too busy"
 *           503 retried, as a client would), a new player's first being
 *           the nearest by a scan; six replicas starting at once on a new
 *           database migrate it once; a schema newer than the build is
 *           refused naming both versions; the server crashed mid-storm
 *           answers unavailable (never another kind), and started again
 *           the same handle goes on with every acknowledged play kept. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "store.h"
#include "store_engine.h"

#define REPLICA_PLAYS 1000  /* rated plays each replica records */
#define THREADS       4     /* threads per replica */
#define NEXT_POOL     300   /* puzzles store_next hands out until exhausted */
#define STORM_MAX     20000 /* plays the outage's write storm may try */
/* The schema's version as store.c keeps it. */
#define SCHEMA_SET "UPDATE gj_meta SET value = $1 WHERE key = 'schema'"
#define SCHEMA_GET "SELECT value FROM gj_meta WHERE key = 'schema'"

static const char *base_url;

/* The URL of base_url's server with database db (a name of [a-z0-9_]). */
static void url_for(const char *db, char *out, size_t cap)
{
    const char *host = strstr(base_url, "://");
    host = host ? host + 3 : base_url;
    const char *path = strchr(host, '/');
    const char *query = strchr(host, '?');
    if (path && query && path > query)
        path = NULL;
    size_t head = (size_t)((path ? path : query ? query : host + strlen(host)) - base_url);
    snprintf(out, cap, "%.*s/%s%s", (int)head, base_url, db, query ? query : "");
}

/* A fresh, empty database db on the test server; its URL into out. */
static void fresh_db(const char *db, char *out, size_t cap)
{
    void *c = NULL;
    gj_error e;
    ck_assert_msg(store_pg_engine.connect(base_url, &c, &e) == 0, "connect: %s", e.message);
    char sql[160];
    snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", db);
    ck_assert_msg(store_pg_engine.query(c, sql, NULL, 0, NULL, &e) == 0, "%s", e.message);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", db);
    ck_assert_msg(store_pg_engine.query(c, sql, NULL, 0, NULL, &e) == 0, "%s", e.message);
    store_pg_engine.disconnect(c);
    url_for(db, out, cap);
}

/* A connection of the engine to url (the test fails without one). */
static void *engine_open(const char *url)
{
    void *c = NULL;
    gj_error e;
    ck_assert_msg(store_pg_engine.connect(url, &c, &e) == 0, "connect: %s", e.message);
    ck_assert(store_pg_engine.healthy(c));
    return c;
}

/* Run sql with params, which must succeed; its rows into *out if given. */
static void must(void *c, const char *sql, const char *const *params, int n, store_rows *out)
{
    gj_error e;
    int rc = store_pg_engine.query(c, sql, params, n, out, &e);
    ck_assert_msg(rc == 0, "%s: %s", sql, e.message);
}

/* Run sql, which must fail with kind; the error into *e. */
static void must_fail(void *c, const char *sql, gj_error_kind kind, gj_error *e)
{
    int rc = store_pg_engine.query(c, sql, NULL, 0, NULL, e);
    ck_assert_msg(rc == -1, "%s succeeded", sql);
    ck_assert_msg(e->kind == kind, "%s: kind %d, wanted %d: %s", sql, (int)e->kind, (int)kind,
                  e->message);
    ck_assert(e->message[0] != '\0');
}

/* One long long cell of a one-row answer. */
static long long cell_ll(const store_rows *r, size_t row, size_t col)
{
    const char *v = store_cell(r, row, col);
    ck_assert_ptr_nonnull(v);
    return strtoll(v, NULL, 10);
}

START_TEST(test_engine_round_trip)
{
    char url[512];
    fresh_db("gj_t_round_trip", url, sizeof url);
    void *c = engine_open(url);
    must(c, "CREATE TABLE t (k BIGINT PRIMARY KEY, d DOUBLE PRECISION, s TEXT)", NULL, 0, NULL);
    /* Doubles of every magnitude, written as store.c writes them (%.17g),
     * must come back as the same bits. */
    uint64_t rng = 32;
    enum { N = 500 };
    double want[N];
    const char *texts[] = {"", "it's \"quoted\"", "h\xc3\xa9 \xe2\x99\x9f", "$1 ; DROP TABLE t",
                           NULL};
    for (int i = 0; i < N; i++) {
        uint64_t bits = rng_next(&rng);
        double d;
        memcpy(&d, &bits, sizeof d);
        if (!isfinite(d))
            d = (double)(int64_t)bits / 3.0;
        want[i] = i < 3 ? (double[]){0.0, -0.5, 1500.0}[i] : d;
        char k[24], v[32];
        snprintf(k, sizeof k, "%d", i);
        snprintf(v, sizeof v, "%.17g", want[i]);
        const char *p[] = {k, v, texts[i % 5]};
        must(c, "INSERT INTO t (k, d, s) VALUES ($1, $2, $3)", p, 3, NULL);
    }
    store_rows r = {0};
    must(c, "SELECT k, d, s FROM t ORDER BY k", NULL, 0, &r);
    ck_assert_uint_eq(r.nrows, N);
    ck_assert_uint_eq(r.ncols, 3);
    for (size_t i = 0; i < N; i++) {
        ck_assert_int_eq(cell_ll(&r, i, 0), (long long)i);
        double got = strtod(store_cell(&r, i, 1), NULL);
        ck_assert_msg(memcmp(&got, &want[i], sizeof got) == 0, "row %zu: %.17g came back %.17g", i,
                      want[i], got);
        const char *s = store_cell(&r, i, 2);
        if (texts[i % 5])
            ck_assert_str_eq(s, texts[i % 5]);
        else
            ck_assert_ptr_null(s);
    }
    ck_assert_ptr_null(store_cell(&r, N, 0));
    ck_assert_ptr_null(store_cell(&r, 0, 3));
    store_rows_free(&r);
    /* No rows is zero rows with the columns named. */
    must(c, "SELECT k, d FROM t WHERE k < 0", NULL, 0, &r);
    ck_assert_uint_eq(r.nrows, 0);
    ck_assert_ptr_null(store_cell(&r, 0, 0));
    store_rows_free(&r);
    /* A parameter is a value, never SQL. */
    const char *evil[] = {"0 OR 1=1"};
    must(c, "SELECT count(*) FROM t WHERE s = $1", evil, 1, &r);
    ck_assert_int_eq(cell_ll(&r, 0, 0), 0);
    store_rows_free(&r);
    /* A text without parameters may hold several statements (migrations). */
    must(c, "CREATE TABLE u (x BIGINT); INSERT INTO u VALUES (7); INSERT INTO u VALUES (8)", NULL,
         0, NULL);
    must(c, "SELECT sum(x) FROM u", NULL, 0, &r);
    ck_assert_int_eq(cell_ll(&r, 0, 0), 15);
    store_rows_free(&r);
    /* The engine's defaults, and the URL's word over them. */
    must(c, "SELECT current_setting('application_name')", NULL, 0, &r);
    ck_assert_str_eq(store_cell(&r, 0, 0), "gamejudge");
    store_rows_free(&r);
    store_pg_engine.disconnect(c);
    char named[600];
    snprintf(named, sizeof named, "%s%sapplication_name=replica-2&connect_timeout=7", url,
             strchr(url, '?') ? "&" : "?");
    c = engine_open(named);
    must(c, "SELECT current_setting('application_name')", NULL, 0, &r);
    ck_assert_str_eq(store_cell(&r, 0, 0), "replica-2");
    store_rows_free(&r);
    store_pg_engine.disconnect(c);
}
END_TEST

START_TEST(test_engine_errors)
{
    char url[512];
    fresh_db("gj_t_errors", url, sizeof url);
    void *c = engine_open(url);
    gj_error e;
    must(c, "CREATE TABLE t (k BIGINT PRIMARY KEY)", NULL, 0, NULL);
    must(c, "INSERT INTO t VALUES (1)", NULL, 0, NULL);
    /* The statement's own faults: internal, with the server's words. */
    must_fail(c, "INSERT INTO t VALUES (1)", GJ_INTERNAL, &e);
    ck_assert_msg(strstr(e.message, "23505") && strstr(e.message, "duplicate"), "%s", e.message);
    must_fail(c, "SELEC 1", GJ_INTERNAL, &e);
    ck_assert_msg(strstr(e.message, "42601"), "%s", e.message);
    ck_assert(store_pg_engine.healthy(c));
    /* A failed statement spoils its transaction: unhealthy until rolled
     * back, and its COMMIT fails (PostgreSQL answers it with ROLLBACK). */
    ck_assert_int_eq(store_pg_engine.begin(c, true, &e), 0);
    must(c, "INSERT INTO t VALUES (2)", NULL, 0, NULL);
    must_fail(c, "INSERT INTO t VALUES (1)", GJ_INTERNAL, &e);
    ck_assert(!store_pg_engine.healthy(c));
    ck_assert_int_eq(store_pg_engine.commit(c, &e), -1);
    ck_assert(store_pg_engine.healthy(c));
    store_rows r = {0};
    must(c, "SELECT count(*) FROM t", NULL, 0, &r);
    ck_assert_int_eq(cell_ll(&r, 0, 0), 1);
    store_rows_free(&r);
    /* Rolled back on request; a transaction left open is unhealthy. */
    ck_assert_int_eq(store_pg_engine.begin(c, true, &e), 0);
    must(c, "INSERT INTO t VALUES (3)", NULL, 0, NULL);
    ck_assert(!store_pg_engine.healthy(c));
    store_pg_engine.rollback(c);
    ck_assert(store_pg_engine.healthy(c));
    store_pg_engine.rollback(c); /* nothing open: nothing done */
    must(c, "SELECT count(*) FROM t", NULL, 0, &r);
    ck_assert_int_eq(cell_ll(&r, 0, 0), 1);
    store_rows_free(&r);
    /* A committed write is there for another connection. */
    ck_assert_int_eq(store_pg_engine.begin(c, true, &e), 0);
    must(c, "INSERT INTO t VALUES (4)", NULL, 0, NULL);
    ck_assert_int_eq(store_pg_engine.commit(c, &e), 0);
    void *other = engine_open(url);
    must(other, "SELECT count(*) FROM t WHERE k = 4", NULL, 0, &r);
    ck_assert_int_eq(cell_ll(&r, 0, 0), 1);
    store_rows_free(&r);
    /* A read-only transaction (what a standby gives) is the server's
     * failure, not the statement's. */
    must(c, "SET default_transaction_read_only = on", NULL, 0, NULL);
    must_fail(c, "INSERT INTO t VALUES (5)", GJ_UNAVAILABLE, &e);
    ck_assert_msg(strstr(e.message, "25006"), "%s", e.message);
    must(c, "SET default_transaction_read_only = off", NULL, 0, NULL);
    /* A connection the server ends (as at its shutdown) is unhealthy once
     * the end arrives, and its next statement unavailable. */
    must(c, "SELECT pg_backend_pid()", NULL, 0, &r);
    const char *pid[] = {store_cell(&r, 0, 0)};
    store_rows killed = {0};
    must(other, "SELECT pg_terminate_backend($1::int, 10000)", pid, 1, &killed);
    ck_assert_str_eq(store_cell(&killed, 0, 0), "t");
    store_rows_free(&killed);
    store_rows_free(&r);
    ck_assert(!store_pg_engine.healthy(c));
    must_fail(c, "SELECT 1", GJ_UNAVAILABLE, &e);
    ck_assert_int_eq(store_pg_engine.begin(c, true, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    store_pg_engine.rollback(c); /* never fails, even so */
    store_pg_engine.disconnect(c);
    store_pg_engine.disconnect(other);
    store_pg_engine.disconnect(NULL);
}
END_TEST

START_TEST(test_engine_unreachable)
{
    /* A port nobody listens on (the server's own, plus one, is free in a
     * throwaway cluster on a random port; a listener there would answer
     * with a failed password, unavailable all the same). */
    char url[512];
    const char *at = strrchr(base_url, ':');
    long port = at ? strtol(at + 1, NULL, 10) : 0;
    ck_assert_msg(port > 0, "no port in %s", base_url);
    snprintf(url, sizeof url,
             "postgresql://gamejudge:s3cr%%21t-pw@127.0.0.1:%ld/gamejudge?connect_timeout=3",
             port + 1);
    void *c = NULL;
    gj_error e;
    ck_assert_int_eq(store_pg_engine.connect(url, &c, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    ck_assert_msg(!strstr(e.message, "s3cr"), "the password shows: %s", e.message);
    ck_assert_msg(strstr(e.message, "127.0.0.1"), "%s", e.message);
    ck_assert_msg(!strchr(e.message, '\n') && !strchr(e.message, '\t'), "%s", e.message);
    ck_assert_ptr_null(c);
    /* A URL libpq cannot read is the caller's fault; libpq quotes the
     * token it could not decode, which here is the password. */
    snprintf(url, sizeof url, "postgresql://gamejudge:pw%%zz-s3cr@127.0.0.1:%ld/gamejudge", port);
    ck_assert_int_eq(store_pg_engine.connect(url, &c, &e), -1);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(!strstr(e.message, "s3cr") && strstr(e.message, "***"), "%s", e.message);
    snprintf(url, sizeof url, "postgresql://127.0.0.1:%ld/gamejudge?password=pw%%zz-s3cr", port);
    ck_assert_int_eq(store_pg_engine.connect(url, &c, &e), -1);
    ck_assert_msg(!strstr(e.message, "s3cr"), "%s", e.message);
    snprintf(url, sizeof url, "postgresql://127.0.0.1:%ld/gamejudge?no_such_thing=1", port);
    ck_assert_int_eq(store_pg_engine.connect(url, &c, &e), -1);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strstr(e.message, "no_such_thing"), "%s", e.message);
    /* The server's refusal of a password it does not know (trust takes
     * any here, so ask for a user that does not exist): unavailable, the
     * password written %-escaped and decoded hidden alike. */
    snprintf(url, sizeof url, "postgresql://nobody:s3cr%%21t@127.0.0.1:%ld/gamejudge", port);
    ck_assert_int_eq(store_pg_engine.connect(url, &c, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    ck_assert_msg(!strstr(e.message, "s3cr") && strstr(e.message, "nobody"), "%s", e.message);
    /* A database that is not there: unavailable too (nothing to use). */
    url_for("gj_t_never_made", url, sizeof url);
    ck_assert_int_eq(store_pg_engine.connect(url, &c, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    ck_assert_msg(strstr(e.message, "gj_t_never_made"), "%s", e.message);
}
END_TEST

/* The second of two concurrent migrations: it takes the lock, and says
 * what it found the first had written by then. */
typedef struct lock_taker {
    const char *url;
    long long seen;
} lock_taker;

/* Take the migration lock in a transaction, read the mark, commit. */
static void *take_lock(void *arg)
{
    lock_taker *t = arg;
    void *c = engine_open(t->url);
    gj_error e;
    store_rows r = {0};
    ck_assert_int_eq(store_pg_engine.begin(c, true, &e), 0);
    must(c, store_pg_engine.migration_lock, NULL, 0, NULL);
    must(c, "SELECT count(*) FROM mark", NULL, 0, &r);
    t->seen = cell_ll(&r, 0, 0);
    store_rows_free(&r);
    ck_assert_int_eq(store_pg_engine.commit(c, &e), 0);
    store_pg_engine.disconnect(c);
    return NULL;
}

START_TEST(test_engine_migration_lock)
{
    ck_assert(store_pg_engine.row_locks);
    ck_assert_str_eq(store_pg_engine.name, "postgresql");
    char url[512];
    fresh_db("gj_t_migration_lock", url, sizeof url);
    void *first = engine_open(url), *watch = engine_open(url);
    gj_error e;
    must(first, "CREATE TABLE mark (x BIGINT)", NULL, 0, NULL);
    ck_assert_int_eq(store_pg_engine.begin(first, true, &e), 0);
    must(first, store_pg_engine.migration_lock, NULL, 0, NULL);
    lock_taker t = {url, -1};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, take_lock, &t), 0);
    /* Until the second is seen waiting for the lock, the first holds on. */
    store_rows r = {0};
    for (;;) {
        must(watch, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
             NULL, 0, &r);
        long long waiting = cell_ll(&r, 0, 0);
        store_rows_free(&r);
        if (waiting == 1)
            break;
        must(watch, "SELECT pg_sleep(0.01)", NULL, 0, NULL);
    }
    must(first, "INSERT INTO mark VALUES (1)", NULL, 0, NULL);
    ck_assert_int_eq(store_pg_engine.commit(first, &e), 0);
    pthread_join(th, NULL);
    ck_assert_int_eq(t.seen, 1); /* it went on only once the first was done */
    store_pg_engine.disconnect(first);
    store_pg_engine.disconnect(watch);
}
END_TEST

/* A puzzle of game with id, at rating, no plays. */
static store_puzzle test_puzzle(const char *game, const char *id, double rating)
{
    store_puzzle p;
    memset(&p, 0, sizeof p);
    snprintf(p.game, sizeof p.game, "%s", game);
    snprintf(p.id, sizeof p.id, "%s", id);
    p.position = "{\"test\": true}";
    p.solution = "[]";
    snprintf(p.themes, sizeof p.themes, "%s", "mate");
    p.band = 1;
    p.depth = 2;
    p.difficulty = 0.5;
    p.rating = (glicko){rating, GLICKO_PUZZLE_RD, GLICKO_START_VOL};
    return p;
}

/* Open the store at url (the test fails if it cannot). */
static gj_store *open_store(const char *url)
{
    gj_store *s = NULL;
    gj_error e;
    ck_assert_msg(store_open(url, &s, &e) == 0, "store_open: %s", e.message);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(store_kind(s), "postgresql");
    return s;
}

/* Seconds on the monotonic clock, for the figures the tests print. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether player number i solves the puzzle: a fixed coin per player. */
static bool solves(int i)
{
    uint64_t st = 0x5eed0000u + (uint64_t)i;
    return rng_next(&st) % 3 != 0;
}

/* One thread's share of a replica's rated plays. */
typedef struct player_run {
    gj_store *s;
    const store_puzzle *puzzle;
    char replica;               /* 'a' or 'b': the players' prefix */
    int from, to;               /* player numbers [from, to) */
    store_play_result *results; /* indexed by player number, of this replica */
    int failed;
    char why[512];
} player_run;

/* Record the plays of players [from, to) of the run's replica. */
static void *play_all(void *arg)
{
    player_run *r = arg;
    for (int i = r->from; i < r->to; i++) {
        char player[32];
        snprintf(player, sizeof player, "%c-%d", r->replica, i);
        store_play in = {.puzzle = r->puzzle,
                         .player = player,
                         .attempt = "[\"m\"]",
                         .solved = solves(i + (r->replica == 'b' ? REPLICA_PLAYS : 0)),
                         .at_ms = 1700000000000LL + i};
        gj_error e;
        if (store_record(r->s, &in, &r->results[i], &e) != 0) {
            if (r->failed++ == 0)
                snprintf(r->why, sizeof r->why, "%s: %s", player, e.message);
        }
    }
    return NULL;
}

/* Count an activity row into *(long *)ctx. */
static int count_row(void *ctx, const store_activity_row *row)
{
    (void)row;
    ++*(long *)ctx;
    return 0;
}

/* Whether two ratings are the same to well within what text keeps. */
static bool same_glicko(glicko a, glicko b)
{
    return fabs(a.rating - b.rating) < 1e-9 && fabs(a.rd - b.rd) < 1e-9 &&
           fabs(a.vol - b.vol) < 1e-12;
}

START_TEST(test_two_replicas_count_every_play_once)
{
    char url[512];
    fresh_db("gj_t_replicas", url, sizeof url);
    gj_store *a = open_store(url), *b = open_store(url);
    store_puzzle p = test_puzzle("grid_walk", "pg-race", 1600.0);
    bool added;
    gj_error e;
    ck_assert_int_eq(store_put(a, &p, &added, &e), 0);
    ck_assert(added);
    ck_assert_int_eq(store_put(b, &p, &added, &e), 0);
    ck_assert(!added);

    static store_play_result res[2][REPLICA_PLAYS];
    player_run runs[2 * THREADS];
    pthread_t th[2 * THREADS];
    double start = now_s();
    for (int k = 0; k < 2 * THREADS; k++) {
        int rep = k / THREADS, part = k % THREADS;
        runs[k] = (player_run){.s = rep ? b : a,
                               .puzzle = &p,
                               .replica = rep ? 'b' : 'a',
                               .from = part * REPLICA_PLAYS / THREADS,
                               .to = (part + 1) * REPLICA_PLAYS / THREADS,
                               .results = res[rep]};
        ck_assert_int_eq(pthread_create(&th[k], NULL, play_all, &runs[k]), 0);
    }
    for (int k = 0; k < 2 * THREADS; k++)
        pthread_join(th[k], NULL);
    double took = now_s() - start;
    fprintf(stderr,
            "test_two_replicas_count_every_play_once: %d plays of one puzzle in %.2f s, "
            "%.0f a second\n",
            2 * REPLICA_PLAYS, took, 2 * REPLICA_PLAYS / took);
    for (int k = 0; k < 2 * THREADS; k++)
        ck_assert_msg(runs[k].failed == 0, "%d plays failed, the first %s", runs[k].failed,
                      runs[k].why);

    /* Every play rated once, and the 2,000 form one chain: ordered by the
     * count each left, each began from the puzzle's rating the one before
     * it left, and moved it as Glicko-2 says for its result. */
    enum { TOTAL = 2 * REPLICA_PLAYS };
    static const store_play_result *order[TOTAL + 1];
    static bool solved_of[TOTAL + 1];
    long wins = 0;
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < REPLICA_PLAYS; i++) {
            const store_play_result *r = &res[rep][i];
            ck_assert_msg(r->rated && !r->repeated, "%c-%d not rated once", "ab"[rep], i);
            ck_assert_msg(r->puzzle_plays >= 1 && r->puzzle_plays <= TOTAL, "plays %ld",
                          r->puzzle_plays);
            ck_assert_msg(order[r->puzzle_plays] == NULL, "two plays left the count at %ld",
                          r->puzzle_plays);
            order[r->puzzle_plays] = r;
            solved_of[r->puzzle_plays] = solves(i + rep * REPLICA_PLAYS);
            wins += solved_of[r->puzzle_plays];
        }
    glicko at = p.rating;
    long won = 0;
    for (int k = 1; k <= TOTAL; k++) {
        const store_play_result *r = order[k];
        ck_assert_msg(same_glicko(r->puzzle_before, at), "play %d began at %.17g, not %.17g", k,
                      r->puzzle_before.rating, at.rating);
        double score = solved_of[k] ? 0.0 : 1.0;
        glicko want = glicko_clamp(glicko_update(at, &r->player_before, &score, 1, GLICKO_TAU));
        ck_assert_msg(same_glicko(r->puzzle_after, want), "play %d: %.17g, Glicko-2 says %.17g", k,
                      r->puzzle_after.rating, want.rating);
        double pscore = solved_of[k] ? 1.0 : 0.0;
        glicko pwant = glicko_clamp(glicko_update(r->player_before, &at, &pscore, 1, GLICKO_TAU));
        ck_assert(same_glicko(r->player_after, pwant));
        won += solved_of[k];
        ck_assert_int_eq(r->puzzle_wins, won);
        at = r->puzzle_after;
    }
    /* The stored row says the same, from either replica. */
    store_puzzle got;
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(store_get(b, p.game, p.id, &got, &e), 0);
    ck_assert_int_eq(got.plays, TOTAL);
    ck_assert_int_eq(got.wins, wins);
    ck_assert(same_glicko(got.rating, at));
    store_puzzle_free(&got);

    /* Retries through the other replica, concurrently: counted once. */
    static store_play_result again[2][REPLICA_PLAYS];
    for (int k = 0; k < 2 * THREADS; k++) {
        runs[k].s = runs[k].s == a ? b : a;
        runs[k].to = runs[k].from + 25;
        runs[k].results = again[k / THREADS];
        ck_assert_int_eq(pthread_create(&th[k], NULL, play_all, &runs[k]), 0);
    }
    for (int k = 0; k < 2 * THREADS; k++) {
        pthread_join(th[k], NULL);
        ck_assert_msg(runs[k].failed == 0, "%s", runs[k].why);
        for (int i = runs[k].from; i < runs[k].to; i++)
            ck_assert_msg(runs[k].results[i].repeated, "the retry of %c-%d counted again",
                          runs[k].replica, i);
    }
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(store_get(a, p.game, p.id, &got, &e), 0);
    ck_assert_int_eq(got.plays, TOTAL);
    store_puzzle_free(&got);
    /* Each player has the one play in their activity. */
    for (int i = 0; i < REPLICA_PLAYS; i += 37) {
        char player[32];
        snprintf(player, sizeof player, "b-%d", i);
        long n = 0;
        ck_assert_int_eq(store_activity(a, player, 0, 0, 10, count_row, &n, &e), 0);
        ck_assert_int_eq(n, 1);
    }
    store_close(a);
    store_close(b);
}
END_TEST

/* One thread asking store_next for one player until the pool is out. */
typedef struct next_run {
    gj_store *s;
    const char *player;
    char (*ids)[32]; /* what it was served, in order */
    int n, cap;
    int busy;      /* "too busy" answers retried */
    gj_error last; /* why it stopped */
} next_run;

/* Ask for puzzles until one is refused, keeping the ids served.  "Too
 * busy" (a call that lost the race for the nearest puzzle too many times)
 * is a 503 a client would retry: so does this, counting them. */
static void *next_all(void *arg)
{
    next_run *r = arg;
    for (;;) {
        store_next_ask ask = {.game = "nim_shortcuts",
                              .player = r->player,
                              .has_rating = true,
                              .rating = 1500.0,
                              .band = -1,
                              .at_ms = 1700000000000LL};
        store_puzzle got;
        memset(&got, 0, sizeof got);
        if (store_next(r->s, &ask, &got, &r->last) != 0) {
            if (r->last.kind == GJ_UNAVAILABLE && ++r->busy < 1000)
                continue;
            return NULL;
        }
        if (r->n < r->cap)
            snprintf(r->ids[r->n], sizeof r->ids[0], "%.31s", got.id);
        r->n++;
        store_puzzle_free(&got);
    }
}

/* Order ids for qsort. */
static int by_id(const void *a, const void *b)
{
    return strcmp(a, b);
}

START_TEST(test_next_never_twice_across_replicas)
{
    char url[512];
    fresh_db("gj_t_next", url, sizeof url);
    gj_store *a = open_store(url), *b = open_store(url);
    gj_error e;
    uint64_t rng = 2024;
    static double rating[NEXT_POOL];
    for (int i = 0; i < NEXT_POOL; i++) {
        char id[32];
        snprintf(id, sizeof id, "pg-next-%03d", i);
        /* Distinct ratings, a quarter apart at least, so "nearest" is one. */
        rating[i] = 800.0 + 8.0 * i + (double)rng_below(&rng, 24) / 4.0;
        store_puzzle p = test_puzzle("nim_shortcuts", id, rating[i]);
        bool added;
        ck_assert_int_eq(store_put(i % 2 ? a : b, &p, &added, &e), 0);
        ck_assert(added);
    }
    long count = 0;
    ck_assert_int_eq(store_count(a, "nim_shortcuts", &count, &e), 0);
    ck_assert_int_eq(count, NEXT_POOL);

    /* A new player's first puzzle is the one nearest the rating asked,
     * against a scan of every rating. */
    for (int k = 0; k < 40; k++) {
        double want = 700.0 + (double)rng_below(&rng, 2600);
        char player[32];
        snprintf(player, sizeof player, "near-%d", k);
        store_next_ask ask = {.game = "nim_shortcuts",
                              .player = player,
                              .has_rating = true,
                              .rating = want,
                              .band = -1,
                              .at_ms = 1700000000000LL};
        store_puzzle got;
        memset(&got, 0, sizeof got);
        ck_assert_msg(store_next(k % 2 ? a : b, &ask, &got, &e) == 0, "%s", e.message);
        double best = INFINITY;
        for (int i = 0; i < NEXT_POOL; i++)
            best = fmin(best, fabs(rating[i] - want));
        ck_assert_msg(fabs(fabs(got.rating.rating - want) - best) < 1e-9,
                      "asked %.2f, got %s at %.2f, nearest is %.2f away", want, got.id,
                      got.rating.rating, best);
        store_puzzle_free(&got);
    }

    /* One player, six threads on two replicas: every puzzle served once. */
    enum { PER = 3 };
    static char ids[2 * PER][NEXT_POOL + 1][32];
    next_run runs[2 * PER];
    pthread_t th[2 * PER];
    for (int k = 0; k < 2 * PER; k++) {
        runs[k] = (next_run){
            .s = k < PER ? a : b, .player = "greedy", .ids = ids[k], .cap = NEXT_POOL + 1};
        ck_assert_int_eq(pthread_create(&th[k], NULL, next_all, &runs[k]), 0);
    }
    static char all[2 * PER * (NEXT_POOL + 1)][32];
    int total = 0;
    for (int k = 0; k < 2 * PER; k++) {
        pthread_join(th[k], NULL);
        ck_assert_msg(runs[k].last.kind == GJ_NOT_FOUND, "thread %d stopped on %d: %s", k,
                      (int)runs[k].last.kind, runs[k].last.message);
        ck_assert_int_le(runs[k].n, NEXT_POOL);
        for (int i = 0; i < runs[k].n; i++)
            memcpy(all[total++], ids[k][i], sizeof all[0]);
    }
    ck_assert_int_eq(total, NEXT_POOL);
    int busy = 0;
    for (int k = 0; k < 2 * PER; k++)
        busy += runs[k].busy;
    fprintf(stderr,
            "test_next_never_twice_across_replicas: %d served on %d threads, %d calls "
            "answered too busy and retried\n",
            total, 2 * PER, busy);
    qsort(all, (size_t)total, sizeof all[0], by_id);
    for (int i = 1; i < total; i++)
        ck_assert_msg(strcmp(all[i - 1], all[i]) != 0, "%s served twice", all[i]);
    /* Exhausted for that player only. */
    store_next_ask ask = {.game = "nim_shortcuts", .player = "greedy", .band = -1};
    store_puzzle got;
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(store_next(a, &ask, &got, &e), -1);
    ck_assert_int_eq(e.kind, GJ_NOT_FOUND);
    ask.player = "fresh";
    ck_assert_int_eq(store_next(b, &ask, &got, &e), 0);
    store_puzzle_free(&got);
    store_close(a);
    store_close(b);
}
END_TEST

/* One store_open of a replica starting. */
typedef struct opener {
    const char *url;
    gj_store *s;
    int rc;
    gj_error e;
} opener;

/* Open the store at o->url, keeping what came of it. */
static void *open_one(void *arg)
{
    opener *o = arg;
    o->rc = store_open(o->url, &o->s, &o->e);
    return NULL;
}

START_TEST(test_schema_newer_refused)
{
    char url[512];
    fresh_db("gj_t_schema", url, sizeof url);
    /* Replicas starting at once on a new database: one migrates, the
     * others wait for it (the advisory lock) and find the schema there. */
    enum { STARTS = 6 };
    opener starts[STARTS];
    pthread_t th[STARTS];
    for (int i = 0; i < STARTS; i++) {
        starts[i] = (opener){.url = url};
        ck_assert_int_eq(pthread_create(&th[i], NULL, open_one, &starts[i]), 0);
    }
    for (int i = 0; i < STARTS; i++) {
        pthread_join(th[i], NULL);
        ck_assert_msg(starts[i].rc == 0, "start %d: %s", i, starts[i].e.message);
        store_close(starts[i].s);
    }
    void *c = engine_open(url);
    store_rows r = {0};
    must(c, SCHEMA_GET, NULL, 0, &r);
    ck_assert_uint_eq(r.nrows, 1);
    ck_assert_int_eq(cell_ll(&r, 0, 0), STORE_SCHEMA_VERSION);
    store_rows_free(&r);
    gj_store *s;
    char newer[16], ours[16], says_newer[32], says_ours[32];
    snprintf(newer, sizeof newer, "%d", STORE_SCHEMA_VERSION + 1);
    snprintf(ours, sizeof ours, "%d", STORE_SCHEMA_VERSION);
    snprintf(says_newer, sizeof says_newer, "version %s,", newer);
    snprintf(says_ours, sizeof says_ours, "version %s,", ours);
    const char *v[] = {newer};
    must(c, SCHEMA_SET, v, 1, NULL);
    gj_error e;
    s = NULL;
    ck_assert_int_eq(store_open(url, &s, &e), -1);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strstr(e.message, says_newer) && strstr(e.message, says_ours), "%s", e.message);
    /* Nothing was changed by the refusal: it stays newer. */
    must(c, SCHEMA_GET, NULL, 0, &r);
    ck_assert_str_eq(store_cell(&r, 0, 0), newer);
    store_rows_free(&r);
    v[0] = ours;
    must(c, SCHEMA_SET, v, 1, NULL);
    s = open_store(url);
    store_close(s);
    store_pg_engine.disconnect(c);
}
END_TEST

/* Run `pg_cluster.sh ACTION DIR` on the test's cluster: 0 when it did. */
static int cluster(const char *action)
{
    const char *dir = getenv("GJ_TEST_PG_DIR");
    const char *script = getenv("GJ_TEST_PG_CLUSTER");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s '%s' >/dev/null",
             script ? script : "tests/integration/pg_cluster.sh", action, dir);
    return system(cmd);
}

/* The write storm of the outage test: plays by new players, one after
 * another, until told to stop, each outcome kept. */
typedef struct storm {
    gj_store *s;
    const store_puzzle *puzzle;
    pthread_mutex_t lock;
    bool stop;
    int n; /* plays tried */
    bool acked[STORM_MAX];
    int acks, fails; /* of them, acknowledged and failed */
    int wrong;       /* failures of a kind other than unavailable */
    char why[512];
} storm;

/* Record plays by storm-0, storm-1, ... until the test says stop (or
 * STORM_MAX were tried); a failed one waits a moment before the next, so
 * an outage is not a busy loop. */
static void *storm_run(void *arg)
{
    storm *st = arg;
    for (int i = 0; i < STORM_MAX; i++) {
        pthread_mutex_lock(&st->lock);
        bool stop = st->stop;
        pthread_mutex_unlock(&st->lock);
        if (stop)
            break;
        char player[32];
        snprintf(player, sizeof player, "storm-%d", i);
        store_play in = {.puzzle = st->puzzle,
                         .player = player,
                         .attempt = "[]",
                         .solved = solves(i),
                         .at_ms = 1700000000000LL + i};
        store_play_result res;
        gj_error e;
        int rc = store_record(st->s, &in, &res, &e);
        pthread_mutex_lock(&st->lock);
        st->n = i + 1;
        st->acked[i] = rc == 0;
        if (rc == 0) {
            st->acks++;
        } else {
            st->fails++;
            if (e.kind != GJ_UNAVAILABLE && st->wrong++ == 0)
                snprintf(st->why, sizeof st->why, "%s: kind %d: %s", player, (int)e.kind,
                         e.message);
        }
        pthread_mutex_unlock(&st->lock);
        if (rc != 0)
            nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    return NULL;
}

/* Wait until the storm has acks at least `acks` and fails at least
 * `fails`; false when it ended before. */
static bool storm_wait(storm *st, int acks, int fails)
{
    for (;;) {
        pthread_mutex_lock(&st->lock);
        bool there = st->acks >= acks && st->fails >= fails;
        bool full = st->n >= STORM_MAX;
        pthread_mutex_unlock(&st->lock);
        if (there)
            return true;
        if (full)
            return false;
        nanosleep(&(struct timespec){0, 2000000}, NULL);
    }
}

START_TEST(test_outage_and_back)
{
    if (!getenv("GJ_TEST_PG_DIR")) {
        fprintf(stderr, "test_outage_and_back: skipped: GJ_TEST_PG_DIR names no cluster\n");
        return;
    }
    char url[512];
    fresh_db("gj_t_outage", url, sizeof url);
    gj_store *s = open_store(url);
    store_puzzle p = test_puzzle("matrix_game", "pg-outage", 1500.0);
    bool added;
    gj_error e;
    ck_assert_int_eq(store_put(s, &p, &added, &e), 0);

    static storm st;
    memset(&st, 0, sizeof st);
    st.s = s;
    st.puzzle = &p;
    pthread_mutex_init(&st.lock, NULL);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, storm_run, &st), 0);
    ck_assert_msg(storm_wait(&st, 100, 0), "the storm ended before 100 plays");
    /* The server dies mid-storm (immediate: no checkpoint, as a crash). */
    ck_assert_int_eq(cluster("crash"), 0);
    ck_assert_msg(storm_wait(&st, 0, 10), "no play failed with the server gone");
    ck_assert_int_eq(store_ping(s, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    ck_assert_msg(strstr(e.message, "PostgreSQL"), "%s", e.message);
    store_puzzle got;
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(store_get(s, p.game, p.id, &got, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    store_next_ask ask = {.game = p.game, .player = "late", .band = -1};
    ck_assert_int_eq(store_next(s, &ask, &got, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);

    /* Back: the same handle, not reopened, goes on. */
    ck_assert_int_eq(cluster("start"), 0);
    ck_assert_msg(store_ping(s, &e) == 0, "the first call after the restart: %s", e.message);
    pthread_mutex_lock(&st.lock);
    int acks_then = st.acks;
    pthread_mutex_unlock(&st.lock);
    ck_assert_msg(storm_wait(&st, acks_then + 100, 0), "the storm did not go on");
    pthread_mutex_lock(&st.lock);
    st.stop = true;
    pthread_mutex_unlock(&st.lock);
    pthread_join(th, NULL);
    ck_assert_msg(st.wrong == 0, "%d failures not unavailable, the first %s", st.wrong, st.why);

    /* Every acknowledged play is there; a failed one may be too (its
     * COMMIT may have reached the server before the answer was lost). */
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(store_get(s, p.game, p.id, &got, &e), 0);
    ck_assert_int_ge(got.plays, st.acks);
    ck_assert_int_le(got.plays, st.n);
    store_puzzle_free(&got);
    long missing = 0;
    for (int i = 0; i < st.n; i++) {
        if (!st.acked[i])
            continue;
        char player[32];
        snprintf(player, sizeof player, "storm-%d", i);
        long n = 0;
        ck_assert_int_eq(store_activity(s, player, 0, 0, 10, count_row, &n, &e), 0);
        missing += n != 1;
    }
    ck_assert_msg(missing == 0, "%ld acknowledged plays lost of %d", missing, st.acks);
    store_counters c;
    store_counters_read(s, &c);
    ck_assert_uint_ge(c.errors, 10);
    fprintf(stderr, "test_outage_and_back: %d plays tried, %d acknowledged, %d failed\n", st.n,
            st.acks, st.fails);
    pthread_mutex_destroy(&st.lock);
    store_close(s);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test;
 * the outage last, as it stops the server the others use. */
static Suite *store_pg_suite(void)
{
    const harness_case cases[] = {
        {"engine", test_engine_round_trip},
        {"engine", test_engine_errors},
        {"engine", test_engine_unreachable},
        {"engine", test_engine_migration_lock},
        {"replicas", test_two_replicas_count_every_play_once},
        {"replicas", test_next_never_twice_across_replicas},
        {"schema", test_schema_newer_refused},
        {"outage", test_outage_and_back},
    };
    return harness_suite("store_pg", cases, sizeof cases / sizeof cases[0], 300);
}

int main(void)
{
    base_url = getenv("GJ_TEST_STORE_URL");
    if (!base_url || strncmp(base_url, "postgres", 8) != 0) {
        printf("test_store_pg: skipped: GJ_TEST_STORE_URL names no PostgreSQL database "
               "(tests/integration/store_pg.sh starts one)\n");
        return 0;
    }
    return harness_main(store_pg_suite());
}

/* test_store.c - the puzzle store (store.h) through its interface, against
 * a fresh SQLite file per test, or, when GJ_TEST_STORE_URL is set, against
 * that store instead (its tables dropped before each test, so give it a
 * database of its own): migrations, puzzles kept and walked, plays rated
 * as glicko_update rates them and counted once however they are retried,
 * the next puzzle nearest the player's rating and never twice to one
 * player under concurrent calls, the activity's order and cursor, a store
 * that cannot be used and comes back, and the counters.  The last test
 * plays thousands of seeded random operations against a model kept in
 * memory and compares every answer. */
#include <check.h>
#include <errno.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "store.h"
#include "store_engine.h"

/* ---- a fresh store per test -------------------------------------------- */

static char parent_dir[64]; /* made by main, removed with all in it at the end */
static char test_dir[128];  /* this test's, in parent_dir (each test is a process) */

/* The URL of this test's store: GJ_TEST_STORE_URL, or a new SQLite file
 * in a folder of its own (test_dir). */
static const char *test_url(void)
{
    static char url[320];
    const char *env = getenv("GJ_TEST_STORE_URL");
    if (env && *env)
        return env;
    if (!test_dir[0]) {
        snprintf(test_dir, sizeof test_dir, "%s/XXXXXX", parent_dir);
        ck_assert_ptr_nonnull(mkdtemp(test_dir));
    }
    snprintf(url, sizeof url, "sqlite:%s/store.db", test_dir);
    return url;
}

/* Whether the tests run on SQLite files of their own. */
static bool on_sqlite(void)
{
    return strncmp(test_url(), "sqlite:", 7) == 0;
}

/* Run sql on the store at url directly through its engine (for what the
 * interface does not do: the schema's row, dropping tables). */
static int raw_sql(const char *url, const char *sql, store_rows *out)
{
    bool lite = strncmp(url, "sqlite:", 7) == 0;
    const store_engine *eng = lite ? &store_sqlite_engine : &store_pg_engine;
    void *db;
    gj_error e;
    ck_assert_msg(eng->connect(lite ? url + 7 : url, &db, &e) == 0, "%s", e.message);
    int rc = eng->query(db, sql, NULL, 0, out, &e);
    eng->disconnect(db);
    return rc;
}

/* A store with nothing in it. */
static gj_store *fresh(void)
{
    const char *url = test_url();
    if (!on_sqlite()) {
        static const char *const drops[] = {
            "DROP TABLE IF EXISTS gj_meta", "DROP TABLE IF EXISTS puzzles",
            "DROP TABLE IF EXISTS players", "DROP TABLE IF EXISTS plays",
            "DROP TABLE IF EXISTS served",
        };
        for (size_t i = 0; i < sizeof drops / sizeof drops[0]; i++)
            ck_assert_int_eq(raw_sql(url, drops[i], NULL), 0);
    }
    gj_store *s;
    gj_error e;
    ck_assert_msg(store_open(url, &s, &e) == 0, "%s", e.message);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* A puzzle of game with the given id, starting rating and filters. */
static store_puzzle make_puzzle(const char *game, const char *id, double rating, int band,
                                int depth, const char *themes)
{
    store_puzzle p;
    memset(&p, 0, sizeof p);
    snprintf(p.game, sizeof p.game, "%s", game);
    snprintf(p.id, sizeof p.id, "%s", id);
    p.position = (char *)"{\"board\":[1,2,3]}";
    p.solution = (char *)"[\"a1\",\"b2\"]";
    snprintf(p.themes, sizeof p.themes, "%s", themes);
    p.band = band;
    p.depth = depth;
    p.difficulty = 0.1234;
    p.rating = (glicko){rating, GLICKO_PUZZLE_RD, GLICKO_START_VOL};
    return p;
}

/* store_put that must succeed; whether it added. */
static bool put(gj_store *s, const store_puzzle *p)
{
    bool added;
    gj_error e;
    ck_assert_msg(store_put(s, p, &added, &e) == 0, "%s", e.message);
    return added;
}

/* A play of p by player with the attempt text and key (NULL: none). */
static store_play make_play(const store_puzzle *p, const char *player, const char *attempt,
                            const char *key, bool solved, long long at_ms)
{
    store_play in;
    memset(&in, 0, sizeof in);
    in.puzzle = p;
    in.player = player;
    in.attempt = attempt;
    in.key = key;
    in.solved = solved;
    in.at_ms = at_ms;
    return in;
}

/* store_record that must succeed. */
static store_play_result record(gj_store *s, const store_play *in)
{
    store_play_result r;
    gj_error e;
    ck_assert_msg(store_record(s, in, &r, &e) == 0, "%s", e.message);
    return r;
}

/* src into dst (cap bytes), cut to fit. */
static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Whether two ratings are the same doubles. */
static bool same(glicko a, glicko b)
{
    return a.rating == b.rating && a.rd == b.rd && a.vol == b.vol;
}

/* ---- migrations and opening -------------------------------------------- */

START_TEST(test_migrations)
{
    gj_store *s = fresh();
    store_puzzle p = make_puzzle("ga", "p1", 1500, 1, 2, "fork");
    ck_assert(put(s, &p));
    store_close(s);
    /* Opening again finds the schema current and keeps what was stored. */
    gj_error e;
    ck_assert_msg(store_open(test_url(), &s, &e) == 0, "%s", e.message);
    long n;
    ck_assert_int_eq(store_count(s, "ga", &n, &e), 0);
    ck_assert_int_eq(n, 1);
    store_close(s);
    store_rows r;
    ck_assert_int_eq(raw_sql(test_url(), "SELECT value FROM gj_meta WHERE key = 'schema'", &r), 0);
    ck_assert_uint_eq(r.nrows, 1);
    ck_assert_int_eq(atoi(store_cell(&r, 0, 0)), STORE_SCHEMA_VERSION);
    store_rows_free(&r);
    /* A store from a newer gamejudge is refused, both versions named. */
    char sql[128], newer[32], ours[32];
    snprintf(sql, sizeof sql, "UPDATE gj_meta SET value = '%d' WHERE key = 'schema'",
             STORE_SCHEMA_VERSION + 1);
    ck_assert_int_eq(raw_sql(test_url(), sql, NULL), 0);
    ck_assert_int_eq(store_open(test_url(), &s, &e), -1);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    snprintf(newer, sizeof newer, "version %d", STORE_SCHEMA_VERSION + 1);
    snprintf(ours, sizeof ours, "version %d", STORE_SCHEMA_VERSION);
    ck_assert_msg(strstr(e.message, newer) && strstr(e.message, ours), "%s", e.message);
    /* Nothing was changed by the refusal. */
    ck_assert_int_eq(raw_sql(test_url(), "SELECT value FROM gj_meta WHERE key = 'schema'", &r), 0);
    ck_assert_int_eq(atoi(store_cell(&r, 0, 0)), STORE_SCHEMA_VERSION + 1);
    store_rows_free(&r);
}
END_TEST

START_TEST(test_open_urls)
{
    gj_store *s = (gj_store *)1;
    gj_error e;
    ck_assert_int_eq(store_open("none", &s, &e), 0);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(store_kind(NULL), "none");
    static const char *const bad[] = {
        "", "mysql://x", "sqlite:", "sqlite", "file:/tmp/x.db", "postgresql:/x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(store_open(bad[i], &s, &e) == -1, "%s", bad[i]);
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_msg(strstr(e.message, "--store"), "%s", e.message);
    }
    /* A password never shows in the refusal. */
    ck_assert_int_eq(store_open("pg://u:hunter2@h/db", &s, &e), -1);
    ck_assert_msg(!strstr(e.message, "hunter2"), "%s", e.message);
    if (!on_sqlite())
        return;
    /* One missing folder is made; two are not, and that is unavailable. */
    char url[400];
    test_url();
    snprintf(url, sizeof url, "sqlite:%s/data/gj.db", test_dir);
    ck_assert_msg(store_open(url, &s, &e) == 0, "%s", e.message);
    ck_assert_str_eq(store_kind(s), "sqlite");
    ck_assert_int_eq(store_ping(s, &e), 0);
    store_close(s);
    snprintf(url, sizeof url, "sqlite:%s/a/b/gj.db", test_dir);
    ck_assert_int_eq(store_open(url, &s, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    /* A folder where the file should be, and a file that is no database. */
    snprintf(url, sizeof url, "sqlite:%s/data", test_dir);
    ck_assert_int_eq(store_open(url, &s, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    char path[200];
    snprintf(path, sizeof path, "%s/junk.db", test_dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 200; i++)
        fputs("this is not a database file at all. ", f);
    fclose(f);
    snprintf(url, sizeof url, "sqlite:%s", path);
    ck_assert_int_eq(store_open(url, &s, &e), -1);
    ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
    /* A read-only file (not for root, whom permissions do not stop). */
    if (geteuid() != 0) {
        snprintf(url, sizeof url, "sqlite:%s/data/gj.db", test_dir);
        snprintf(path, sizeof path, "%s/data/gj.db", test_dir);
        ck_assert_int_eq(chmod(path, 0444), 0);
        ck_assert_int_eq(store_open(url, &s, &e), -1);
        ck_assert_int_eq(e.kind, GJ_UNAVAILABLE);
        ck_assert_msg(strstr(e.message, "read-only"), "%s", e.message);
    }
}
END_TEST

START_TEST(test_redact)
{
    static const char *const cases[][2] = {
        {"postgresql://u:secret@db.example:5432/gj", "postgresql://u:***@db.example:5432/gj"},
        {"postgres://u:p@ss@h/gj", "postgres://u:***@h/gj"},
        {"postgresql://u@h/gj", "postgresql://u@h/gj"},
        {"postgresql://h/gj?sslmode=require&password=x&user=u",
         "postgresql://h/gj?sslmode=require&password=***&user=u"},
        {"postgresql://h/gj?password=x", "postgresql://h/gj?password=***"},
        {"postgresql://u:pw@h", "postgresql://u:***@h"},
        {"sqlite:data/gamejudge.db", "sqlite:data/gamejudge.db"},
        {"none", "none"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[128];
        store_redact(cases[i][0], out, sizeof out);
        ck_assert_str_eq(out, cases[i][1]);
    }
    char tiny[8];
    store_redact("postgresql://u:secret@h/gj", tiny, sizeof tiny);
    ck_assert_str_eq(tiny, "postgre");
}
END_TEST

/* ---- puzzles ------------------------------------------------------------ */

/* store_each's callback: append "game/id " to the buffer ctx, stop at 40. */
static int list_ids(void *ctx, const store_puzzle *p)
{
    char *out = ctx;
    size_t len = strlen(out);
    snprintf(out + len, 4096 - len, "%s/%s ", p->game, p->id);
    return strlen(out) > 150 ? 7 : 0;
}

typedef struct walk {
    long n;
    char last[64];
    bool ordered;
} walk;

/* store_each's callback: count, and check the (game, id) order. */
static int walk_ids(void *ctx, const store_puzzle *p)
{
    walk *w = ctx;
    char key[64];
    copy_str(key, sizeof key, p->game);
    strcat(key, "/");
    copy_str(key + strlen(key), sizeof key - strlen(key), p->id);
    if (w->n > 0 && strcmp(w->last, key) >= 0)
        w->ordered = false;
    snprintf(w->last, sizeof w->last, "%s", key);
    w->n++;
    return 0;
}

START_TEST(test_put_get)
{
    gj_store *s = fresh();
    gj_error e;
    store_puzzle p = make_puzzle("ga", "p1", 1234.5678901234567, 2, 3, "fork pin");
    p.difficulty = 0.7071;
    ck_assert(put(s, &p));
    store_puzzle got;
    ck_assert_msg(store_get(s, "ga", "p1", &got, &e) == 0, "%s", e.message);
    ck_assert_str_eq(got.game, "ga");
    ck_assert_str_eq(got.id, "p1");
    ck_assert_str_eq(got.position, p.position);
    ck_assert_str_eq(got.solution, p.solution);
    ck_assert_str_eq(got.themes, "fork pin");
    ck_assert_int_eq(got.band, 2);
    ck_assert_int_eq(got.depth, 3);
    ck_assert(got.difficulty == 0.7071);
    ck_assert(same(got.rating, p.rating));
    ck_assert_int_eq(got.plays, 0);
    ck_assert_int_eq(got.wins, 0);
    store_puzzle_free(&got);
    /* Stored once: a second put changes nothing. */
    store_puzzle q = make_puzzle("ga", "p1", 2000, 0, 1, "");
    ck_assert(!put(s, &q));
    ck_assert_int_eq(store_get(s, "ga", "p1", &got, &e), 0);
    ck_assert(got.rating.rating == p.rating.rating && got.band == 2);
    store_puzzle_free(&got);
    /* The same id in another game is another puzzle. */
    q = make_puzzle("gb", "p1", 2000, 0, 1, "");
    ck_assert(put(s, &q));
    ck_assert_int_eq(store_get(s, "ga", "nope", &got, &e), -1);
    ck_assert_int_eq(e.kind, GJ_NOT_FOUND);
    /* A long id and quotes travel as they are (bound, never spliced). */
    char id[STORE_ID_MAX];
    memset(id, 'x', sizeof id - 1);
    id[sizeof id - 1] = '\0';
    id[0] = '\'';
    id[1] = '"';
    q = make_puzzle("ga", id, 1000, 0, 1, "it's");
    ck_assert(put(s, &q));
    ck_assert_int_eq(store_get(s, "ga", id, &got, &e), 0);
    ck_assert_str_eq(got.id, id);
    ck_assert_str_eq(got.themes, "it's");
    store_puzzle_free(&got);
    long n;
    ck_assert_int_eq(store_count(s, "ga", &n, &e), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(store_count(s, NULL, &n, &e), 0);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(store_count(s, "gz", &n, &e), 0);
    ck_assert_int_eq(n, 0);
    store_close(s);
}
END_TEST

START_TEST(test_each)
{
    gj_store *s = fresh();
    gj_error e;
    /* More than a page of each game, put in no particular order. */
    for (int i = 0; i < 700; i++) {
        char id[16];
        int k = (i * 379) % 700;
        snprintf(id, sizeof id, "p%04d", k);
        store_puzzle p = make_puzzle(k % 2 ? "gb" : "ga", id, 1000 + k, 0, 1, "");
        ck_assert(put(s, &p));
    }
    walk w = {0, "", true};
    ck_assert_int_eq(store_each(s, NULL, walk_ids, &w, &e), 0);
    ck_assert_int_eq(w.n, 700);
    ck_assert(w.ordered);
    w = (walk){0, "", true};
    ck_assert_int_eq(store_each(s, "gb", walk_ids, &w, &e), 0);
    ck_assert_int_eq(w.n, 350);
    ck_assert(w.ordered);
    ck_assert_str_eq(w.last, "gb/p0699");
    /* A callback stops the walk with its own value. */
    char *ids = calloc(1, 4096);
    ck_assert_int_eq(store_each(s, "ga", list_ids, ids, &e), 7);
    ck_assert(strncmp(ids, "ga/p0000 ga/p0002 ", 18) == 0);
    free(ids);
    store_close(s);
}
END_TEST

/* ---- plays -------------------------------------------------------------- */

START_TEST(test_record)
{
    gj_store *s = fresh();
    gj_error e;
    store_puzzle p = make_puzzle("ga", "p1", 1700, 1, 2, "fork");
    /* The first complete attempt is rated: both sides as glicko_update has them. */
    store_play in = make_play(&p, "alice", "[\"a1\",\"b2\"]", NULL, true, 1000);
    store_play_result r = record(s, &in);
    glicko start = {GLICKO_START_RATING, GLICKO_START_RD, GLICKO_START_VOL};
    double one = 1, zero = 0;
    glicko want_player = glicko_clamp(glicko_update(start, &p.rating, &one, 1, GLICKO_TAU));
    glicko want_puzzle = glicko_clamp(glicko_update(p.rating, &start, &zero, 1, GLICKO_TAU));
    ck_assert(r.rated && !r.repeated);
    ck_assert(same(r.player_before, start) && same(r.player_after, want_player));
    ck_assert(same(r.puzzle_before, p.rating) && same(r.puzzle_after, want_puzzle));
    ck_assert(r.player_after.rating > start.rating && r.puzzle_after.rating < p.rating.rating);
    ck_assert_int_eq(r.puzzle_plays, 1);
    ck_assert_int_eq(r.puzzle_wins, 1);
    /* The puzzle was stored by its first play, its stats moved. */
    store_puzzle got;
    ck_assert_int_eq(store_get(s, "ga", "p1", &got, &e), 0);
    ck_assert(same(got.rating, want_puzzle) && got.plays == 1 && got.wins == 1);
    store_puzzle_free(&got);
    glicko g;
    bool known;
    ck_assert_int_eq(store_player(s, "ga", "alice", &g, &known, &e), 0);
    ck_assert(known && same(g, want_player));
    ck_assert_int_eq(store_player(s, "gb", "alice", &g, &known, &e), 0);
    ck_assert(!known && same(g, start));
    /* A retry of the same attempt answers the same, and changes nothing. */
    store_play_result again = record(s, &in);
    ck_assert(again.rated && again.repeated);
    ck_assert(
        same(again.player_before, r.player_before) && same(again.player_after, r.player_after) &&
        same(again.puzzle_before, r.puzzle_before) && same(again.puzzle_after, r.puzzle_after));
    ck_assert(again.puzzle_plays == 1 && again.puzzle_wins == 1);
    /* Another attempt later is answered, unrated, with the values now. */
    store_play later = make_play(&p, "alice", "[\"a2\"]", NULL, false, 2000);
    store_play_result un = record(s, &later);
    ck_assert(!un.rated && !un.repeated);
    ck_assert(same(un.player_before, want_player) && same(un.player_after, want_player));
    ck_assert(same(un.puzzle_before, want_puzzle) && same(un.puzzle_after, want_puzzle));
    ck_assert(un.puzzle_plays == 1 && un.puzzle_wins == 1);
    /* Bob, a loss, with the rating the site gave: his stands for the stored. */
    store_play bob = make_play(&p, "bob", "[\"a2\"]", "key-1", false, 3000);
    bob.has_player = true;
    bob.player_rating = (glicko){2100, 80, 0.05};
    r = record(s, &bob);
    want_player =
        glicko_clamp(glicko_update(bob.player_rating, &want_puzzle, &zero, 1, GLICKO_TAU));
    glicko puzzle_before = want_puzzle;
    want_puzzle = glicko_clamp(glicko_update(want_puzzle, &bob.player_rating, &one, 1, GLICKO_TAU));
    ck_assert(r.rated && !r.repeated);
    ck_assert(same(r.player_before, bob.player_rating) && same(r.player_after, want_player));
    ck_assert(same(r.puzzle_before, puzzle_before) && same(r.puzzle_after, want_puzzle));
    ck_assert(r.puzzle_plays == 2 && r.puzzle_wins == 1);
    /* The same key is the same play, whatever the attempt says. */
    store_play bob2 = make_play(&p, "bob", "[\"zz\"]", "key-1", true, 4000);
    again = record(s, &bob2);
    ck_assert(again.rated && again.repeated && same(again.player_after, want_player));
    /* A new key on the same puzzle is a later attempt. */
    bob2.key = "key-2";
    un = record(s, &bob2);
    ck_assert(!un.rated && !un.repeated);
    /* The key of one play named for another puzzle or player: a conflict. */
    store_puzzle p2 = make_puzzle("ga", "p2", 1500, 1, 2, "");
    store_play clash = make_play(&p2, "bob", "[\"a2\"]", "key-1", true, 5000);
    ck_assert_int_eq(store_record(s, &clash, &r, &e), -1);
    ck_assert_int_eq(e.kind, GJ_CONFLICT);
    ck_assert_str_eq(e.field, "Idempotency-Key");
    clash = make_play(&p, "carol", "[\"a2\"]", "key-1", true, 5000);
    ck_assert_int_eq(store_record(s, &clash, &r, &e), -1);
    ck_assert_int_eq(e.kind, GJ_CONFLICT);
    /* The conflict recorded nothing: carol's first play is still to come. */
    clash.key = "key-3";
    r = record(s, &clash);
    ck_assert(r.rated && !r.repeated && r.puzzle_plays == 3);
    store_close(s);
}
END_TEST

typedef struct race {
    gj_store *s;
    const store_puzzle *p;
    int thread;
    int per_thread;
    atomic_int rated, repeated, failed;
} race;

/* A thread of test_record_race: each play twice, the second a retry. */
static void *race_plays(void *arg)
{
    race *rc = arg;
    int me = rc->thread;
    for (int i = 0; i < rc->per_thread; i++) {
        char player[32], key[32];
        snprintf(player, sizeof player, "t%d-p%d", me, i);
        snprintf(key, sizeof key, "k-%d-%d", me, i);
        store_play in = make_play(rc->p, player, "[1]", i % 2 ? key : NULL, i % 3 == 0, i);
        for (int k = 0; k < 2; k++) {
            store_play_result r;
            gj_error e;
            if (store_record(rc->s, &in, &r, &e) < 0)
                atomic_fetch_add(&rc->failed, 1);
            else if (r.repeated)
                atomic_fetch_add(&rc->repeated, 1);
            else if (r.rated)
                atomic_fetch_add(&rc->rated, 1);
        }
    }
    return NULL;
}

START_TEST(test_record_race)
{
    gj_store *s = fresh();
    gj_error e;
    store_puzzle p = make_puzzle("ga", "hot", 1500, 1, 2, "");
    enum { THREADS = 8, EACH = 60 };
    race rcs[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        rcs[i] = (race){s, &p, i, EACH, 0, 0, 0};
        ck_assert_int_eq(pthread_create(&t[i], NULL, race_plays, &rcs[i]), 0);
    }
    int rated = 0, repeated = 0, failed = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        rated += rcs[i].rated;
        repeated += rcs[i].repeated;
        failed += rcs[i].failed;
    }
    ck_assert_int_eq(failed, 0);
    ck_assert_int_eq(rated, THREADS * EACH);
    ck_assert_int_eq(repeated, THREADS * EACH);
    store_puzzle got;
    ck_assert_int_eq(store_get(s, "ga", "hot", &got, &e), 0);
    ck_assert_int_eq(got.plays, THREADS * EACH);
    ck_assert_int_eq(got.wins, THREADS * ((EACH + 2) / 3));
    store_puzzle_free(&got);
    store_counters c;
    store_counters_read(s, &c);
    ck_assert_uint_eq(c.plays_recorded, THREADS * EACH);
    ck_assert_uint_eq(c.plays_repeated, THREADS * EACH);
    store_close(s);
}
END_TEST

/* ---- next --------------------------------------------------------------- */

/* store_next for player in game with the rating (NAN: the player's own)
 * and filters; the id served into id (cap bytes), or -1 with *e. */
static int next_id(gj_store *s, const char *game, const char *player, double rating, int band,
                   int depth, const char *theme, char *id, size_t cap, gj_error *e)
{
    store_next_ask a = {game, player, rating == rating, rating, band, depth, theme, 42};
    store_puzzle p;
    if (store_next(s, &a, &p, e) < 0)
        return -1;
    copy_str(id, cap, p.id);
    ck_assert_str_eq(p.game, game);
    ck_assert_ptr_nonnull(p.position);
    store_puzzle_free(&p);
    return 0;
}

START_TEST(test_next)
{
    gj_store *s = fresh();
    gj_error e;
    char id[64];
    /* Ratings 1000, 1100, ... 1900; themes and filters on some. */
    for (int i = 0; i < 10; i++) {
        char pid[16];
        snprintf(pid, sizeof pid, "n%d", i);
        const char *themes = i == 3 ? "fork only_move" : i == 6 ? "forked" : i == 8 ? "fork" : "";
        store_puzzle p = make_puzzle("ga", pid, 1000 + 100 * i, i % 3, 1 + i % 2, themes);
        put(s, &p);
    }
    store_puzzle other = make_puzzle("gb", "far", 1500, 0, 1, "");
    put(s, &other);
    /* Nearest first, widening outward (a tie goes to the higher: u7 below). */
    static const char *const order[] = {"n5", "n4", "n6", "n3", "n7", "n2", "n8", "n1", "n9", "n0"};
    for (int i = 0; i < 10; i++) {
        ck_assert_msg(next_id(s, "ga", "u1", 1460, -1, 0, NULL, id, sizeof id, &e) == 0, "%s",
                      e.message);
        ck_assert_str_eq(id, order[i]);
    }
    ck_assert_int_eq(next_id(s, "ga", "u1", 1460, -1, 0, NULL, id, sizeof id, &e), -1);
    ck_assert_int_eq(e.kind, GJ_NOT_FOUND);
    ck_assert_msg(strstr(e.message, "exhausted") && strstr(e.message, "u1"), "%s", e.message);
    /* Another game's pool is its own. */
    ck_assert_int_eq(next_id(s, "gb", "u1", 1460, -1, 0, NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "far");
    /* Another player starts afresh; without a rating, the start (1500). */
    ck_assert_int_eq(next_id(s, "ga", "u2", NAN, -1, 0, NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n5");
    ck_assert_int_eq(next_id(s, "ga", "u7", 1450, -1, 0, NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n5");
    ck_assert_int_eq(next_id(s, "ga", "u2", 1549, -1, 0, NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n6");
    /* Filters: band, depth, a theme as a whole word ("fork" is not "forked",
     * '_' is itself). */
    ck_assert_int_eq(next_id(s, "ga", "u3", 1000, 2, 0, NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n2");
    ck_assert_int_eq(next_id(s, "ga", "u3", 1000, -1, 2, NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n1");
    ck_assert_int_eq(next_id(s, "ga", "u3", 1900, -1, 0, "fork", id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n8");
    ck_assert_int_eq(next_id(s, "ga", "u3", 1900, -1, 0, "fork", id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n3");
    ck_assert_int_eq(next_id(s, "ga", "u3", 1900, -1, 0, "fork", id, sizeof id, &e), -1);
    ck_assert_int_eq(e.kind, GJ_NOT_FOUND);
    ck_assert_int_eq(next_id(s, "ga", "u4", 1900, -1, 0, "only_move", id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n3");
    ck_assert_int_eq(next_id(s, "ga", "u4", 1900, -1, 0, "only%move", id, sizeof id, &e), -1);
    ck_assert_int_eq(next_id(s, "ga", "u4", 1900, -1, 0, "onlyxmove", id, sizeof id, &e), -1);
    ck_assert_int_eq(next_id(s, "ga", "u4", 1900, -1, 0, "Fork", id, sizeof id, &e), -1);
    ck_assert_int_eq(next_id(s, "ga", "u4", 1900, -1, 0, "forked", id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n6");
    /* A puzzle the player has played is not served to them either, and
     * their stored rating steers the walk once they have played: u5 beats
     * n9 (1900), which falls to about 1775, and rises to about 1889. */
    store_puzzle strong = make_puzzle("ga", "n9", 1900, 0, 2, "");
    store_play win = make_play(&strong, "u5", "[1]", NULL, true, 1);
    win.has_player = true;
    win.player_rating = (glicko){1880, 60, 0.06};
    store_play_result r = record(s, &win);
    ck_assert(r.player_after.rating > 1885 && r.player_after.rating < 1890);
    ck_assert(r.puzzle_after.rating > 1770 && r.puzzle_after.rating < 1780);
    ck_assert_int_eq(next_id(s, "ga", "u5", r.puzzle_after.rating, -1, 0, NULL, id, sizeof id, &e),
                     0);
    ck_assert_str_eq(id, "n8");
    ck_assert_int_eq(next_id(s, "ga", "u5", NAN, -1, 0, NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n7");
    ck_assert_int_eq(next_id(s, "ga", "u6", 1890, -1, 0, NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "n8");
    store_close(s);
}
END_TEST

typedef struct next_race {
    gj_store *s;
    char (*ids)[16];
    atomic_int *n;
    atomic_int failed;
} next_race;

/* A thread of test_next_race: serve one player until the pool is dry. */
static void *race_next(void *arg)
{
    next_race *nr = arg;
    for (;;) {
        store_next_ask a = {"ga", "same-player", true, 1500, -1, 0, NULL, 1};
        store_puzzle p;
        gj_error e;
        if (store_next(nr->s, &a, &p, &e) < 0) {
            if (e.kind != GJ_NOT_FOUND)
                atomic_fetch_add(&nr->failed, 1);
            return NULL;
        }
        int at = atomic_fetch_add(nr->n, 1);
        if (at < 1000)
            copy_str(nr->ids[at], sizeof nr->ids[at], p.id);
        store_puzzle_free(&p);
    }
}

/* qsort's comparison of two ids. */
static int cmp_ids(const void *a, const void *b)
{
    return strcmp(a, b);
}

START_TEST(test_next_race)
{
    gj_store *s = fresh();
    enum { THREADS = 8, POOL = 400 };
    uint64_t rng = 99;
    for (int i = 0; i < POOL; i++) {
        char pid[16];
        snprintf(pid, sizeof pid, "r%04d", i);
        store_puzzle p = make_puzzle("ga", pid, 1000 + (double)rng_below(&rng, 1000), 0, 1, "");
        put(s, &p);
    }
    static char ids[1000][16];
    atomic_int n = 0;
    next_race nr[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        nr[i] = (next_race){s, ids, &n, 0};
        ck_assert_int_eq(pthread_create(&t[i], NULL, race_next, &nr[i]), 0);
    }
    int failed = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        failed += nr[i].failed;
    }
    ck_assert_int_eq(failed, 0);
    /* Every puzzle served once: as many as the pool, none twice. */
    ck_assert_int_eq(n, POOL);
    qsort(ids, POOL, sizeof ids[0], cmp_ids);
    for (int i = 1; i < POOL; i++)
        ck_assert_msg(strcmp(ids[i - 1], ids[i]) != 0, "%s served twice", ids[i]);
    store_close(s);
}
END_TEST

/* ---- activity ----------------------------------------------------------- */

typedef struct seen {
    int n;
    long long at[1000];
    char id[1000][16];
    bool solved[1000];
} seen;

/* store_activity's callback: keep the rows. */
static int keep_rows(void *ctx, const store_activity_row *row)
{
    seen *sn = ctx;
    ck_assert_int_lt(sn->n, 1000);
    sn->at[sn->n] = row->at_ms;
    copy_str(sn->id[sn->n], sizeof sn->id[sn->n], row->id);
    sn->solved[sn->n] = row->solved;
    sn->n++;
    return 0;
}

START_TEST(test_activity)
{
    gj_store *s = fresh();
    gj_error e;
    /* 300 plays by ana (more than a page), three per millisecond, in two
     * games, interleaved with bo's. */
    static store_puzzle ps[300];
    for (int i = 0; i < 300; i++) {
        char pid[16];
        snprintf(pid, sizeof pid, "a%03d", i);
        ps[i] = make_puzzle(i % 2 ? "gb" : "ga", pid, 1500, 0, 1, i % 5 ? "pin" : "fork pin");
        store_play in = make_play(&ps[i], "ana", "[1]", NULL, i % 4 == 0, 1000 + i / 3);
        record(s, &in);
        in.player = "bo";
        record(s, &in);
    }
    /* A later attempt is not activity. */
    store_play later = make_play(&ps[0], "ana", "[2]", NULL, true, 5000);
    ck_assert(!record(s, &later).rated);
    seen *sn = calloc(1, sizeof *sn);
    ck_assert_int_eq(store_activity(s, "ana", 0, 0, 1000, keep_rows, sn, &e), 0);
    ck_assert_int_eq(sn->n, 300);
    for (int i = 1; i < sn->n; i++) {
        ck_assert(sn->at[i - 1] >= sn->at[i]);
        ck_assert(strcmp(sn->id[i - 1], sn->id[i]) != 0);
    }
    ck_assert_int_eq(sn->at[0], 1099);
    ck_assert_int_eq(sn->at[299], 1000);
    /* max, before and since. */
    memset(sn, 0, sizeof *sn);
    ck_assert_int_eq(store_activity(s, "ana", 0, 0, 5, keep_rows, sn, &e), 0);
    ck_assert_int_eq(sn->n, 5);
    memset(sn, 0, sizeof *sn);
    ck_assert_int_eq(store_activity(s, "ana", 1050, 0, 1000, keep_rows, sn, &e), 0);
    ck_assert_int_eq(sn->n, 150);
    ck_assert_int_eq(sn->at[0], 1049);
    memset(sn, 0, sizeof *sn);
    ck_assert_int_eq(store_activity(s, "ana", 1050, 1040, 1000, keep_rows, sn, &e), 0);
    ck_assert_int_eq(sn->n, 30);
    ck_assert_int_eq(sn->at[29], 1040);
    memset(sn, 0, sizeof *sn);
    ck_assert_int_eq(store_activity(s, "nobody", 0, 0, 10, keep_rows, sn, &e), 0);
    ck_assert_int_eq(sn->n, 0);
    /* The row carries the play's values and the puzzle's themes. */
    free(sn);
    store_close(s);
}
END_TEST

typedef struct first_row {
    store_activity_row row;
    int n;
} first_row;

/* store_activity's callback: keep the first row, stop at the second. */
static int keep_first(void *ctx, const store_activity_row *row)
{
    first_row *f = ctx;
    if (f->n++ == 0)
        f->row = *row;
    return f->n == 2 ? 5 : 0;
}

START_TEST(test_activity_row)
{
    gj_store *s = fresh();
    gj_error e;
    store_puzzle p = make_puzzle("ga", "x1", 1600, 0, 1, "fork pin");
    store_play in = make_play(&p, "ana", "[1]", NULL, false, 77);
    store_play_result r = record(s, &in);
    store_puzzle q = make_puzzle("ga", "x2", 1600, 0, 1, "skewer");
    in = make_play(&q, "ana", "[1]", NULL, true, 78);
    store_play_result r2 = record(s, &in);
    first_row f = {0};
    ck_assert_int_eq(store_activity(s, "ana", 0, 0, 10, keep_first, &f, &e), 5);
    ck_assert_int_eq(f.n, 2);
    ck_assert_int_eq(f.row.at_ms, 78);
    ck_assert_str_eq(f.row.game, "ga");
    ck_assert_str_eq(f.row.id, "x2");
    ck_assert(f.row.solved);
    ck_assert_str_eq(f.row.themes, "skewer");
    ck_assert(same(f.row.player_before, r2.player_before));
    ck_assert(same(f.row.player_after, r2.player_after));
    ck_assert(same(f.row.player_before, r.player_after));
    ck_assert(f.row.puzzle_rating == r2.puzzle_before.rating);
    store_close(s);
}
END_TEST

/* ---- byte order ---------------------------------------------------------- */

#define BO_GAMES 4
#define BO_IDS   700 /* puzzles put, more than two pages */

/* Games and the letters of ids whose byte order differs from a locale's
 * (case first there, punctuation ignored or weighed apart): the walks must
 * follow strcmp whatever the database's collation. */
static const char *const bo_games[BO_GAMES] = {"g-a", "gB", "g_a", "ga"};
static const char bo_alphabet[] = "aAbBzZ-_.:@09";

typedef struct bo_key {
    char game[STORE_GAME_MAX];
    char id[16];
    long long at; /* the play's time, in the activity's part */
} bo_key;

/* (game, id) in strcmp order, for qsort. */
static int bo_cmp(const void *a, const void *b)
{
    const bo_key *x = a, *y = b;
    int c = strcmp(x->game, y->game);
    return c != 0 ? c : strcmp(x->id, y->id);
}

/* Newest first, then (game, id) descending in strcmp order, for qsort. */
static int bo_cmp_newest(const void *a, const void *b)
{
    const bo_key *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? 1 : -1;
    return bo_cmp(b, a);
}

typedef struct bo_walk {
    bo_key *keys;
    int n, cap;
} bo_walk;

/* store_each's callback: keep (game, id). */
static int bo_keep(void *ctx, const store_puzzle *p)
{
    bo_walk *w = ctx;
    ck_assert_int_lt(w->n, w->cap);
    copy_str(w->keys[w->n].game, sizeof w->keys[w->n].game, p->game);
    copy_str(w->keys[w->n].id, sizeof w->keys[w->n].id, p->id);
    w->n++;
    return 0;
}

/* store_activity's callback: keep (at_ms, game, id). */
static int bo_keep_play(void *ctx, const store_activity_row *row)
{
    bo_walk *w = ctx;
    ck_assert_int_lt(w->n, w->cap);
    copy_str(w->keys[w->n].game, sizeof w->keys[w->n].game, row->game);
    copy_str(w->keys[w->n].id, sizeof w->keys[w->n].id, row->id);
    w->keys[w->n].at = row->at_ms;
    w->n++;
    return 0;
}

/* A seeded id of 1..6 letters of bo_alphabet into out (16 bytes). */
static void bo_id(uint64_t *seed, char *out)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int len = 1 + (int)((*seed >> 33) % 6);
    for (int i = 0; i < len; i++) {
        *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
        out[i] = bo_alphabet[(*seed >> 33) % (sizeof bo_alphabet - 1)];
    }
    out[len] = '\0';
}

/* Seeded ids of mixed case and punctuation in games that differ alike:
 * store_each (all games and one) and store_activity (plays of one
 * millisecond, ordered by game and id) come back in strcmp order, a page
 * boundary never losing or repeating a row. */
START_TEST(test_byte_order)
{
    gj_store *s = fresh();
    gj_error e;
    static bo_key want[BO_IDS], got[BO_IDS];
    uint64_t seed = 20240611;
    int n = 0;
    while (n < BO_IDS) {
        bo_key k;
        memset(&k, 0, sizeof k);
        snprintf(k.game, sizeof k.game, "%s", bo_games[n % BO_GAMES]);
        bo_id(&seed, k.id);
        store_puzzle p = make_puzzle(k.game, k.id, 1500, 0, 1, "");
        if (put(s, &p))
            want[n++] = k; /* a repeated id is put once */
    }
    qsort(want, BO_IDS, sizeof want[0], bo_cmp);
    bo_walk w = {got, 0, BO_IDS};
    ck_assert_int_eq(store_each(s, NULL, bo_keep, &w, &e), 0);
    ck_assert_int_eq(w.n, BO_IDS);
    for (int i = 0; i < BO_IDS; i++)
        ck_assert_msg(strcmp(got[i].game, want[i].game) == 0 && strcmp(got[i].id, want[i].id) == 0,
                      "row %d: %s/%s, not %s/%s", i, got[i].game, got[i].id, want[i].game,
                      want[i].id);
    /* One game: the rows of want that are of it, in the same order. */
    const char *game = bo_games[1];
    w = (bo_walk){got, 0, BO_IDS};
    ck_assert_int_eq(store_each(s, game, bo_keep, &w, &e), 0);
    int k = 0;
    for (int i = 0; i < BO_IDS; i++) {
        if (strcmp(want[i].game, game) != 0)
            continue;
        ck_assert_int_lt(k, w.n);
        ck_assert_msg(strcmp(got[k].id, want[i].id) == 0, "%s row %d: %s, not %s", game, k,
                      got[k].id, want[i].id);
        k++;
    }
    ck_assert_int_eq(k, w.n);

    /* Activity: every puzzle played by one player, 100 to a millisecond
     * (so ties cross the pages), newest first, then game and id descending
     * in strcmp order. */
    static bo_key when[BO_IDS];
    for (int i = 0; i < BO_IDS; i++) {
        store_puzzle p = make_puzzle(want[i].game, want[i].id, 1500, 0, 1, "");
        long long at = 2000 + i % 7;
        store_play in = make_play(&p, "bo", "[1]", NULL, i % 3 == 0, at);
        ck_assert(record(s, &in).rated);
        when[i] = want[i];
        when[i].at = at;
    }
    qsort(when, BO_IDS, sizeof when[0], bo_cmp_newest);
    w = (bo_walk){got, 0, BO_IDS};
    ck_assert_int_eq(store_activity(s, "bo", 0, 0, 1000, bo_keep_play, &w, &e), 0);
    ck_assert_int_eq(w.n, BO_IDS);
    for (int i = 0; i < BO_IDS; i++)
        ck_assert_msg(got[i].at == when[i].at && strcmp(got[i].game, when[i].game) == 0 &&
                          strcmp(got[i].id, when[i].id) == 0,
                      "play %d: %lld %s/%s, not %lld %s/%s", i, got[i].at, got[i].game, got[i].id,
                      when[i].at, when[i].game, when[i].id);
    store_close(s);
}
END_TEST

/* ---- the model ---------------------------------------------------------- */

enum { M_GAMES = 2, M_PUZZLES = 40, M_PLAYERS = 6, M_KEYS = 24 };

/* What the model holds of one puzzle. */
typedef struct m_puzzle {
    store_puzzle def; /* what put and the first play store */
    bool stored;
    glicko g;
    long plays, wins;
} m_puzzle;

/* A recorded play: its key and attempt, and what it answered. */
typedef struct m_play {
    bool exists;
    int key; /* -1: none */
    int attempt;
    store_play_result answer;
} m_play;

typedef struct model {
    m_puzzle pz[M_GAMES][M_PUZZLES];
    bool known[M_GAMES][M_PLAYERS];
    glicko player[M_GAMES][M_PLAYERS];
    m_play play[M_GAMES][M_PUZZLES][M_PLAYERS];
    int key_owner[M_KEYS][3]; /* game, puzzle, player; game -1 when unused */
    bool served[M_GAMES][M_PUZZLES][M_PLAYERS];
} model;

static const char *const m_games[M_GAMES] = {"ga", "gb"};
static const char *const m_themes[] = {"", "fork", "pin", "fork pin", "only_move", "pin only_move"};

/* Whether the space-separated list holds name as a whole word. */
static bool has_theme(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ' ');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

/* The model's answer to a play; -1 for a key conflict. */
static int m_record(model *m, int g, int i, int u, int key, int attempt, bool solved,
                    const glicko *given, store_play_result *out)
{
    m_puzzle *pz = &m->pz[g][i];
    m_play *pl = &m->play[g][i][u];
    if (key >= 0 && m->key_owner[key][0] >= 0 &&
        (m->key_owner[key][0] != g || m->key_owner[key][1] != i || m->key_owner[key][2] != u))
        return -1;
    glicko start = {GLICKO_START_RATING, GLICKO_START_RD, GLICKO_START_VOL};
    glicko now = m->known[g][u] ? m->player[g][u] : start;
    if (!pz->stored) {
        pz->stored = true;
        pz->g = glicko_clamp(pz->def.rating);
        pz->plays = pz->wins = 0;
    }
    if (pl->exists) {
        bool repeat = key >= 0 ? pl->key == key : pl->attempt == attempt;
        if (repeat) {
            *out = pl->answer;
            out->repeated = true;
            return 0;
        }
        *out = (store_play_result){false, false, now, now, pz->g, pz->g, pz->plays, pz->wins};
        return 0;
    }
    glicko before = given ? glicko_clamp(*given) : now;
    double won = solved ? 1 : 0, lost = 1 - won;
    glicko after = glicko_clamp(glicko_update(before, &pz->g, &won, 1, GLICKO_TAU));
    glicko pz_after = glicko_clamp(glicko_update(pz->g, &before, &lost, 1, GLICKO_TAU));
    *out = (store_play_result){true,  false,    before,        after,
                               pz->g, pz_after, pz->plays + 1, pz->wins + (solved ? 1 : 0)};
    pz->g = pz_after;
    pz->plays++;
    pz->wins += solved ? 1 : 0;
    m->known[g][u] = true;
    m->player[g][u] = after;
    *pl = (m_play){true, key, attempt, *out};
    if (key >= 0) {
        m->key_owner[key][0] = g;
        m->key_owner[key][1] = i;
        m->key_owner[key][2] = u;
    }
    return 0;
}

/* The model's next puzzle (its index, -1 when none), marked served. */
static int m_next(model *m, int g, int u, const double *rating, int band, int depth,
                  const char *theme)
{
    double r = rating ? *rating : m->known[g][u] ? m->player[g][u].rating : GLICKO_START_RATING;
    int up = -1, down = -1;
    for (int i = 0; i < M_PUZZLES; i++) {
        m_puzzle *pz = &m->pz[g][i];
        if (!pz->stored || m->served[g][i][u] || m->play[g][i][u].exists)
            continue;
        if ((band >= 0 && pz->def.band != band) || (depth > 0 && pz->def.depth != depth) ||
            (theme && !has_theme(pz->def.themes, theme)))
            continue;
        /* Ids sort as their indexes (m00, m01, ...). */
        if (pz->g.rating >= r) {
            if (up < 0 || pz->g.rating < m->pz[g][up].g.rating ||
                (pz->g.rating == m->pz[g][up].g.rating && i < up))
                up = i;
        } else if (down < 0 || pz->g.rating > m->pz[g][down].g.rating ||
                   (pz->g.rating == m->pz[g][down].g.rating && i > down)) {
            down = i;
        }
    }
    int pick = up;
    if (up < 0 || (down >= 0 && m->pz[g][up].g.rating - r > r - m->pz[g][down].g.rating))
        pick = down;
    if (pick >= 0)
        m->served[g][pick][u] = true;
    return pick;
}

/* Whether two play answers are the same, field by field. */
static bool same_answer(const store_play_result *a, const store_play_result *b)
{
    return a->rated == b->rated && a->repeated == b->repeated &&
           same(a->player_before, b->player_before) && same(a->player_after, b->player_after) &&
           same(a->puzzle_before, b->puzzle_before) && same(a->puzzle_after, b->puzzle_after) &&
           a->puzzle_plays == b->puzzle_plays && a->puzzle_wins == b->puzzle_wins;
}

START_TEST(test_model)
{
    gj_store *s = fresh();
    model *m = calloc(1, sizeof *m);
    uint64_t rng = 0x73746f7265ULL;
    for (int k = 0; k < M_KEYS; k++)
        m->key_owner[k][0] = -1;
    static char ids[M_GAMES][M_PUZZLES][16];
    for (int g = 0; g < M_GAMES; g++)
        for (int i = 0; i < M_PUZZLES; i++) {
            snprintf(ids[g][i], sizeof ids[g][i], "m%02d", i);
            double rating = 1200 + (double)rng_below(&rng, 600000) / 1000.0;
            m->pz[g][i].def =
                make_puzzle(m_games[g], ids[g][i], rating, (int)rng_below(&rng, 3),
                            1 + (int)rng_below(&rng, 2), m_themes[rng_below(&rng, 6)]);
        }
    int counts[5] = {0}, rated = 0, nexts = 0, conflicts = 0, exhausted = 0;
    for (int step = 0; step < 4000; step++) {
        int g = (int)rng_below(&rng, M_GAMES), i = (int)rng_below(&rng, M_PUZZLES);
        int u = (int)rng_below(&rng, M_PLAYERS), op = (int)rng_below(&rng, 10);
        char player[8];
        snprintf(player, sizeof player, "u%d", u);
        gj_error e;
        if (op == 0) {
            /* put */
            bool added;
            ck_assert_int_eq(store_put(s, &m->pz[g][i].def, &added, &e), 0);
            ck_assert_msg(added == !m->pz[g][i].stored, "step %d", step);
            if (added) {
                m->pz[g][i].stored = true;
                m->pz[g][i].g = m->pz[g][i].def.rating;
            }
        } else if (op <= 5) {
            /* a play: few attempts and keys, so retries and clashes are common */
            int key = rng_below(&rng, 2) ? (int)rng_below(&rng, M_KEYS) : -1;
            int attempt = (int)rng_below(&rng, 3);
            bool solved = rng_below(&rng, 2);
            char key_text[8], attempt_text[8];
            snprintf(key_text, sizeof key_text, "k%d", key);
            snprintf(attempt_text, sizeof attempt_text, "[%d]", attempt);
            store_play in = make_play(&m->pz[g][i].def, player, attempt_text,
                                      key >= 0 ? key_text : NULL, solved, step);
            glicko given = {1200 + (double)rng_below(&rng, 600), 30 + (double)rng_below(&rng, 300),
                            0.03 + (double)rng_below(&rng, 100) / 1000.0};
            in.has_player = rng_below(&rng, 4) == 0;
            in.player_rating = given;
            store_play_result want = {0}, got;
            int mrc =
                m_record(m, g, i, u, key, attempt, solved, in.has_player ? &given : NULL, &want);
            int rc = store_record(s, &in, &got, &e);
            ck_assert_msg(rc == mrc, "step %d: %d, model %d: %s", step, rc, mrc, e.message);
            if (rc < 0) {
                ck_assert_int_eq(e.kind, GJ_CONFLICT);
                conflicts++;
            } else {
                ck_assert_msg(same_answer(&got, &want), "step %d: play differs", step);
                rated += got.rated && !got.repeated;
            }
        } else if (op <= 8) {
            /* next, with a rating given or not and some filters */
            double rating = 1200 + (double)rng_below(&rng, 600000) / 1000.0;
            bool has = rng_below(&rng, 2);
            int band = rng_below(&rng, 3) ? -1 : (int)rng_below(&rng, 3);
            int depth = rng_below(&rng, 3) ? 0 : 1 + (int)rng_below(&rng, 2);
            static const char *const filters[] = {NULL, NULL, NULL, "fork", "pin", "only_move"};
            const char *theme = filters[rng_below(&rng, 6)];
            int want = m_next(m, g, u, has ? &rating : NULL, band, depth, theme);
            store_next_ask a = {m_games[g], player, has, rating, band, depth, theme, step};
            store_puzzle p;
            int rc = store_next(s, &a, &p, &e);
            if (want < 0) {
                ck_assert_msg(rc == -1 && e.kind == GJ_NOT_FOUND, "step %d: served %s", step,
                              rc == 0 ? p.id : e.message);
                exhausted++;
            } else {
                ck_assert_msg(rc == 0, "step %d: %s", step, e.message);
                ck_assert_msg(strcmp(p.id, ids[g][want]) == 0, "step %d: %s, model %s", step, p.id,
                              ids[g][want]);
                ck_assert(same(p.rating, m->pz[g][want].g));
                ck_assert_int_eq(p.plays, m->pz[g][want].plays);
                store_puzzle_free(&p);
                nexts++;
            }
        } else {
            /* the player's rating and the puzzle's stats */
            glicko pg;
            bool known;
            ck_assert_int_eq(store_player(s, m_games[g], player, &pg, &known, &e), 0);
            ck_assert(known == m->known[g][u]);
            if (known)
                ck_assert_msg(same(pg, m->player[g][u]), "step %d", step);
            store_puzzle p;
            int rc = store_get(s, m_games[g], ids[g][i], &p, &e);
            ck_assert_int_eq(rc, m->pz[g][i].stored ? 0 : -1);
            if (rc == 0) {
                ck_assert(same(p.rating, m->pz[g][i].g));
                ck_assert(p.plays == m->pz[g][i].plays && p.wins == m->pz[g][i].wins);
                store_puzzle_free(&p);
            }
        }
        counts[op < 1 ? 0 : op <= 5 ? 1 : op <= 8 ? 2 : 3]++;
    }
    /* The walk met every case often enough to mean something. */
    ck_assert_msg(rated > 300 && conflicts > 20 && nexts > 300 && exhausted > 20,
                  "rated %d, conflicts %d, served %d, exhausted %d", rated, conflicts, nexts,
                  exhausted);
    free(m);
    store_close(s);
}
END_TEST

/* ---- an unusable store, and the counters ------------------------------- */

START_TEST(test_unavailable_comes_back)
{
    if (!on_sqlite())
        return;
    gj_store *s = fresh();
    gj_error e;
    /* A disk that is full: no file may grow past its size now. */
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, full;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    full = old;
    full.rlim_cur = 4096;
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &full), 0);
    int failed = 0;
    char big[3000];
    memset(big, 't', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    for (int i = 0; i < 50 && !failed; i++) {
        char pid[16];
        snprintf(pid, sizeof pid, "f%d", i);
        store_puzzle p = make_puzzle("ga", pid, 1500, 0, 1, "");
        p.position = big;
        bool added;
        if (store_put(s, &p, &added, &e) < 0) {
            ck_assert_msg(e.kind == GJ_UNAVAILABLE, "%d %s", e.kind, e.message);
            failed = i + 1;
        }
    }
    ck_assert_msg(failed, "no write failed on a full disk");
    store_counters c;
    store_counters_read(s, &c);
    ck_assert_uint_ge(c.errors, 1);
    /* The disk has room again: the same store takes writes, no reopening. */
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    store_puzzle p = make_puzzle("ga", "after", 1500, 0, 1, "");
    ck_assert_msg(store_put(s, &p, NULL, &e) == 0, "%s", e.message);
    ck_assert_msg(store_ping(s, &e) == 0, "%s", e.message);
    store_puzzle got;
    ck_assert_int_eq(store_get(s, "ga", "after", &got, &e), 0);
    store_puzzle_free(&got);
    store_close(s);
}
END_TEST

/* The child of test_killed_writer: plays until killed, telling the parent
 * the number of each play once store_record has acknowledged it. */
static void killed_writer_child(int out)
{
    gj_store *s;
    gj_error e;
    if (store_open(test_url(), &s, &e) < 0)
        _exit(2);
    store_puzzle ps[4];
    for (int k = 0; k < 4; k++) {
        static const char *const ids[] = {"k0", "k1", "k2", "k3"};
        ps[k] = make_puzzle("ga", ids[k], 1500, 0, 1, "");
    }
    for (int i = 0; i < 1000000; i++) {
        char player[16];
        snprintf(player, sizeof player, "w%d", i);
        store_play in = make_play(&ps[i % 4], player, "[1]", NULL, i % 2, i);
        store_play_result r;
        if (store_record(s, &in, &r, &e) < 0 || !r.rated ||
            write(out, &i, sizeof i) != (ssize_t)sizeof i)
            _exit(3);
    }
    _exit(0);
}

START_TEST(test_killed_writer)
{
    store_close(fresh());
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        killed_writer_child(fds[1]);
    }
    close(fds[1]);
    /* Killed at whatever point of a write it is in once 400 plays are in. */
    int acked = -1, got;
    while (acked < 399 && read(fds[0], &got, sizeof got) == (ssize_t)sizeof got)
        acked = got;
    ck_assert_int_eq(acked, 399);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    ck_assert(WIFSIGNALED(status));
    while (read(fds[0], &got, sizeof got) == (ssize_t)sizeof got)
        acked = got;
    close(fds[0]);
    /* Every acknowledged play is there: each answered again as a repeat,
     * and the puzzles count them (one more may have been committed and
     * not yet acknowledged when the kill came). */
    gj_store *s;
    gj_error e;
    ck_assert_msg(store_open(test_url(), &s, &e) == 0, "%s", e.message);
    long plays = 0;
    for (int k = 0; k < 4; k++) {
        static const char *const ids[] = {"k0", "k1", "k2", "k3"};
        store_puzzle p;
        ck_assert_int_eq(store_get(s, "ga", ids[k], &p, &e), 0);
        plays += p.plays;
        store_puzzle_free(&p);
    }
    ck_assert_msg(plays == acked + 1 || plays == acked + 2, "%ld plays, %d acknowledged", plays,
                  acked + 1);
    for (int i = 0; i <= acked; i++) {
        char player[16];
        snprintf(player, sizeof player, "w%d", i);
        store_puzzle p =
            make_puzzle("ga", (const char *[]){"k0", "k1", "k2", "k3"}[i % 4], 1500, 0, 1, "");
        store_play in = make_play(&p, player, "[1]", NULL, i % 2, i);
        store_play_result r = record(s, &in);
        ck_assert_msg(r.repeated, "play %d of %d acknowledged is lost", i, acked + 1);
    }
    store_close(s);
}
END_TEST

START_TEST(test_counters)
{
    gj_store *s = fresh();
    gj_error e;
    store_counters c0, c;
    store_counters_read(s, &c0);
    store_puzzle p = make_puzzle("ga", "c1", 1500, 0, 1, "");
    put(s, &p);
    store_play in = make_play(&p, "ana", "[1]", NULL, true, 1);
    record(s, &in);
    record(s, &in);
    in.attempt = "[2]";
    record(s, &in);
    char id[16];
    ck_assert_int_eq(next_id(s, "ga", "bo", 1500, -1, 0, NULL, id, sizeof id, &e), 0);
    ck_assert_int_eq(next_id(s, "ga", "bo", 1500, -1, 0, NULL, id, sizeof id, &e), -1);
    ck_assert_int_eq(store_get(s, "ga", "none", &(store_puzzle){0}, &e), -1);
    store_counters_read(s, &c);
    ck_assert_uint_eq(c.plays_recorded - c0.plays_recorded, 1);
    ck_assert_uint_eq(c.plays_repeated - c0.plays_repeated, 1);
    ck_assert_uint_eq(c.plays_unrated - c0.plays_unrated, 1);
    ck_assert_uint_eq(c.served - c0.served, 1);
    ck_assert_uint_eq(c.errors, 0);
    ck_assert_uint_eq(c.calls - c0.calls, 7);
    ck_assert(c.seconds > c0.seconds);
    /* The buckets are cumulative: the last counts every call. */
    ck_assert(c.latency_le[7] == (double)c.calls);
    for (int i = 1; i < 8; i++)
        ck_assert(c.latency_le[i] >= c.latency_le[i - 1]);
    ck_assert_int_eq(store_ping(s, &e), 0);
    store_close(s);
}
END_TEST

/* Remove path and, when a folder, everything in it. */
static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                continue;
            char sub[512];
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            remove_tree(sub);
        }
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

int main(void)
{
    snprintf(parent_dir, sizeof parent_dir, "/tmp/gj-test-store-XXXXXX");
    if (!mkdtemp(parent_dir)) {
        perror("mkdtemp");
        return 1;
    }
    Suite *s = suite_create("store");
    const harness_case cases[] = {
        {"migrations", test_migrations},
        {"open urls", test_open_urls},
        {"redact", test_redact},
        {"put get", test_put_get},
        {"each", test_each},
        {"record", test_record},
        {"record race", test_record_race},
        {"next", test_next},
        {"next race", test_next_race},
        {"activity", test_activity},
        {"activity row", test_activity_row},
        {"byte order", test_byte_order},
        {"unavailable comes back", test_unavailable_comes_back},
        {"counters", test_counters},
        {"model", test_model},
        {"killed writer", test_killed_writer},
    };
    harness_add(s, cases, sizeof cases / sizeof cases[0], 120);
    int rc = harness_main(s);
    remove_tree(parent_dir);
    return rc;
}

/* test_store_http.c - the puzzle store over HTTP against the real daemon,
 * each test on a SQLite file of its own: rated checks, the next puzzle,
 * a puzzle's stats and a player's pages end to end; every bad input a 4xx
 * naming its field; a property test of thousands of generated plays and
 * retries held to a model of what the store must count; concurrent next
 * requests never handing one player a puzzle twice; kill -9 during a storm
 * of rated plays losing none that was acknowledged; and the store made
 * unusable (its write lock held by another process) answering 503 while
 * solving goes on, then used again without a restart.  The case "pg" does
 * the same for PostgreSQL when store_http_pg.sh gives it a cluster: two
 * replicas sharing one store (2 x 1,000 rated plays of one puzzle, each
 * counted once; next never twice), kill -9 of the daemon during a storm
 * (the server running on) losing no acknowledged play, and the server
 * stopped and started again under a serving daemon. */
#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "daemon.h"

#define KEY        "store-site-key-0123456789"
#define KEY_HEADER "X-Api-Key: " KEY
#define NPUZZLES   24 /* per game of `games` */
#define ID_MAX     1024

/* The games the puzzles come from: quick to search at depth 1. */
static const char *const games[] = {"grid-walk", "staircase-chess"};
#define NGAMES ((int)(sizeof games / sizeof games[0]))

/* A puzzle as the tests play it: its id, the solving move and a legal
 * move that is not it (a wrong one). */
typedef struct test_puzzle {
    const char *game;
    char id[ID_MAX];
    char *solving; /* JSON text of the move */
    char *wrong;
} test_puzzle;

static test_puzzle puzzles[NGAMES * NPUZZLES];
static int npuzzles;
static char keys_file[64];

/* ---- helpers ---------------------------------------------------------- */

/* splitmix64: the generated requests' one stream, from a fixed seed. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A number below n from the stream. */
static int below(uint64_t *s, int n)
{
    return (int)(next_random(s) % (uint64_t)n);
}

/* METHOD base+path with the body (NULL: none) and headers (NULL: none). */
static http_reply call(const test_daemon *d, const char *method, const char *path, const char *body,
                       const char *const *headers)
{
    char url[4096];
    snprintf(url, sizeof url, "%s%s", d->base, path);
    http_call c = {method, url, headers, body, body ? strlen(body) : 0, 0};
    return http_do(&c);
}

/* The JSON body of a reply, failing the test when it has none. */
static json_t *body_json(const http_reply *r, const char *what)
{
    json_t *j = json_loads(r->body, 0, NULL);
    ck_assert_msg(j != NULL, "%s: %ld, not JSON: %s", what, r->status, r->body);
    return j;
}

/* The error's field and message of a 4xx/5xx reply, checked: its status is
 * `status` and its field (NULL: none asked) and message hold the needles. */
static void expect_error(const http_reply *r, long status, const char *field, const char *needle,
                         const char *what)
{
    ck_assert_msg(r->status == status, "%s: %ld, not %ld: %s", what, r->status, status, r->body);
    json_t *j = body_json(r, what);
    const json_t *err = json_object_get(j, "error");
    const char *msg = json_string_value(json_object_get(err, "message"));
    ck_assert_msg(msg != NULL && msg[0] != '\0', "%s: no message: %s", what, r->body);
    if (field != NULL)
        ck_assert_msg(json_is_string(json_object_get(err, "field")) &&
                          strcmp(json_string_value(json_object_get(err, "field")), field) == 0,
                      "%s: not the field %s: %s", what, field, r->body);
    if (needle != NULL)
        ck_assert_msg(strstr(msg, needle) != NULL, "%s: '%s' not in: %s", what, needle, msg);
    json_decref(j);
}

/* A temporary folder for a test's store, and its URL into url. */
static void fresh_store(char *dir, size_t dcap, char *url, size_t ucap)
{
    snprintf(dir, dcap, "/tmp/gj-store-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(url, ucap, "sqlite:%s/store.db", dir);
}

/* Remove the store's folder and what SQLite left in it. */
static void remove_store(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Start d on the store `url` with the site's key file and `more` flags. */
static void start_on(test_daemon *d, const char *url, const char *const *more)
{
    const char *args[24] = {"--store", url, "--api-keys", keys_file, "--generate-budget-ms",
                            "60000"};
    int n = 6;
    for (int i = 0; more != NULL && more[i] != NULL && n < 23; i++)
        args[n++] = more[i];
    args[n] = NULL;
    daemon_start(d, args);
}

/* A check's body: the moves (JSON text each, n of them), reveal, and the
 * player (NULL: none), malloc'd. */
static char *check_body(const char *const *moves, int n, bool reveal, const char *player)
{
    json_t *o = json_object();
    json_t *m = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(m, json_loads(moves[i], JSON_DECODE_ANY, NULL));
    json_object_set_new(o, "moves", m);
    if (reveal)
        json_object_set_new(o, "reveal", json_true());
    if (player != NULL)
        json_object_set_new(o, "player", json_string(player));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    return text;
}

/* How a generated attempt plays its puzzle. */
typedef enum attempt_kind { SOLVE, FAIL, REVEAL, PARTIAL, NKINDS } attempt_kind;

/* The body of attempt `kind` at p by player (NULL: none), malloc'd. */
static char *attempt_body(const test_puzzle *p, attempt_kind kind, const char *player)
{
    const char *solve[] = {p->solving}, *fail[] = {p->wrong};
    switch (kind) {
    case SOLVE:
        return check_body(solve, 1, false, player);
    case FAIL:
        return check_body(fail, 1, false, player);
    case REVEAL:
        return check_body(NULL, 0, true, player);
    default:
        return check_body(NULL, 0, false, player);
    }
}

/* POST the attempt's body to p's check, with the key header and an
 * Idempotency-Key (NULL: none). */
static http_reply post_check(const test_daemon *d, const test_puzzle *p, const char *body,
                             const char *idem)
{
    char path[ID_MAX + 64], idem_header[200];
    snprintf(path, sizeof path, "/puzzle/%s/%s/check", p->game, p->id);
    snprintf(idem_header, sizeof idem_header, "Idempotency-Key: %s", idem ? idem : "");
    const char *headers[] = {KEY_HEADER, idem ? idem_header : NULL, NULL};
    return call(d, "POST", path, body, headers);
}

/* GET with the site's key. */
static http_reply get_keyed(const test_daemon *d, const char *path)
{
    const char *headers[] = {KEY_HEADER, NULL};
    return call(d, "GET", path, NULL, headers);
}

/* The stats of p: its JSON (NULL when the store has no such puzzle: 404). */
static json_t *stats_of(const test_daemon *d, const test_puzzle *p)
{
    char path[ID_MAX + 64];
    snprintf(path, sizeof path, "/puzzle/%s/%s/stats", p->game, p->id);
    http_reply r = call(d, "GET", path, NULL, NULL);
    json_t *j = NULL;
    if (r.status == 404)
        expect_error(&r, 404, "id", "not in the store", "stats of an unplayed puzzle");
    else {
        ck_assert_msg(r.status == 200, "stats: %ld %s", r.status, r.body);
        j = body_json(&r, "stats");
    }
    http_reply_free(&r);
    return j;
}

/* The player's activity, every line parsed, into an array (newest first). */
static json_t *activity_of(const test_daemon *d, const char *player)
{
    char path[256];
    snprintf(path, sizeof path, "/players/%s/activity?max=1000", player);
    http_reply r = get_keyed(d, path);
    ck_assert_msg(r.status == 200, "activity: %ld %s", r.status, r.body);
    char *type = http_header(&r, "Content-Type");
    ck_assert_str_eq(type, "application/x-ndjson");
    free(type);
    json_t *lines = json_array();
    for (char *line = r.body; *line != '\0';) {
        char *end = strchr(line, '\n');
        ck_assert_msg(end != NULL, "activity: a line without its newline: %s", line);
        json_t *j = json_loadb(line, (size_t)(end - line), 0, NULL);
        ck_assert_msg(j != NULL, "activity: a line is not JSON: %.*s", (int)(end - line), line);
        json_array_append_new(lines, j);
        line = end + 1;
    }
    http_reply_free(&r);
    return lines;
}

/* ---- the puzzles, found once for every test ----------------------------- */

/* A legal move of `position` (an /analyze body) that is not `solving`,
 * from the analysis' ranking (its last), malloc'd JSON text. */
static char *wrong_move(const test_daemon *d, const char *game, const json_t *position,
                        const json_t *solving)
{
    char path[64];
    snprintf(path, sizeof path, "/analyze/%s", game);
    char *body = json_dumps(position, JSON_COMPACT);
    http_reply r = call(d, "POST", path, body, NULL);
    free(body);
    json_t *a = body_json(&r, "analyze");
    ck_assert_msg(r.status == 200, "analyze: %s", r.body);
    const json_t *moves = json_object_get(a, "moves");
    char *text = NULL;
    for (size_t i = json_array_size(moves); i-- > 0 && text == NULL;) {
        const json_t *m = json_object_get(json_array_get(moves, i), "move");
        if (!json_equal(m, solving))
            text = json_dumps(m, JSON_COMPACT | JSON_ENCODE_ANY);
    }
    ck_assert_ptr_nonnull(text);
    json_decref(a);
    http_reply_free(&r);
    return text;
}

/* NPUZZLES distinct depth-1 puzzles of each game, their solving move from
 * a reveal and a wrong move from the analysis, from a stateless daemon. */
static void find_puzzles(void)
{
    test_daemon d;
    static const char *const args[] = {"--generate-budget-ms", "60000", NULL};
    daemon_start(&d, args);
    for (int g = 0; g < NGAMES; g++) {
        int found = 0;
        for (int seed = 1; found < NPUZZLES && seed < 400; seed++) {
            char path[256];
            snprintf(path, sizeof path, "/puzzle/%s?seed=%d&depth=1&tries=200&budget_ms=60000",
                     games[g], seed);
            http_reply r = call(&d, "GET", path, NULL, NULL);
            if (r.status != 200) {
                http_reply_free(&r);
                continue;
            }
            json_t *pz = body_json(&r, "puzzle");
            const char *id = json_string_value(json_object_get(pz, "id"));
            bool seen = false;
            for (int i = 0; i < npuzzles; i++)
                seen |= strcmp(puzzles[i].id, id) == 0;
            if (!seen) {
                test_puzzle *p = &puzzles[npuzzles];
                p->game = games[g];
                snprintf(p->id, sizeof p->id, "%s", id);
                char *body = check_body(NULL, 0, true, NULL);
                http_reply rv = post_check(&d, p, body, NULL);
                free(body);
                json_t *shown = body_json(&rv, "reveal");
                const json_t *move =
                    json_object_get(json_array_get(json_object_get(shown, "solution"), 0), "move");
                ck_assert_ptr_nonnull(move);
                p->solving = json_dumps(move, JSON_COMPACT | JSON_ENCODE_ANY);
                p->wrong = wrong_move(&d, games[g], json_object_get(pz, "position"), move);
                json_decref(shown);
                http_reply_free(&rv);
                npuzzles++;
                found++;
            }
            json_decref(pz);
            http_reply_free(&r);
        }
        ck_assert_int_eq(found, NPUZZLES);
    }
    ck_assert_int_eq(daemon_stop(&d), 0);
}

/* The suite's fixture: the puzzles and the site's key file. */
static void setup(void)
{
    snprintf(keys_file, sizeof keys_file, "/tmp/gj-store-keys-XXXXXX");
    int fd = mkstemp(keys_file);
    ck_assert_int_ge(fd, 0);
    const char text[] = KEY " 1000000 1000000\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    find_puzzles();
}

/* Remove the key file. */
static void teardown(void)
{
    unlink(keys_file);
}

/* ---- the flows ---------------------------------------------------------- */

/* Equal members `name` of two JSON objects. */
static bool same_member(const json_t *a, const json_t *b, const char *name)
{
    return json_equal(json_object_get(a, name), json_object_get(b, name));
}

/* A header's value, checked to be `want`. */
static void expect_header(const http_reply *r, const char *name, const char *want, const char *what)
{
    char *v = http_header(r, name);
    ck_assert_msg(v != NULL && strcmp(v, want) == 0, "%s: %s is %s, not %s", what, name,
                  v ? v : "(none)", want);
    free(v);
}

/* The flow a site runs: a rated solve (the judging as without a player,
 * plus what the play changed), its retry, a later attempt, the stats, the
 * player's pages, the next puzzle for another player, the daily puzzle's
 * stats. */
START_TEST(test_flow)
{
    char dir[64], url[96];
    fresh_store(dir, sizeof dir, url, sizeof url);
    test_daemon d;
    start_on(&d, url, NULL);
    const test_puzzle *p = &puzzles[0];

    char *solve = attempt_body(p, SOLVE, "ada");
    http_reply r = post_check(&d, p, solve, NULL);
    json_t *a = body_json(&r, "rated solve");
    ck_assert_msg(r.status == 200, "%s", r.body);
    expect_header(&r, "Cache-Control", "no-store", "rated solve");
    ck_assert(json_is_true(json_object_get(a, "solved")));
    json_t *rating = json_object_get(a, "rating");
    ck_assert(json_is_true(json_object_get(rating, "rated")));
    ck_assert(json_is_false(json_object_get(rating, "repeated")));
    const json_t *player = json_object_get(rating, "player");
    ck_assert(json_number_value(json_object_get(player, "change")) > 0);
    ck_assert(json_number_value(json_object_get(player, "rating")) > 1500);
    ck_assert(json_number_value(json_object_get(player, "rating_deviation")) < 350);
    const json_t *puzzle = json_object_get(rating, "puzzle");
    ck_assert_int_eq(json_integer_value(json_object_get(puzzle, "plays")), 1);

    /* The judging is the visitor's answer, byte for byte, before "rating". */
    char *plain = attempt_body(p, SOLVE, NULL);
    http_reply u = post_check(&d, p, plain, NULL);
    ck_assert_int_eq(u.status, 200);
    ck_assert_msg(strncmp(r.body, u.body, u.len - 1) == 0 &&
                      strncmp(r.body + u.len - 1, ",\"rating\":{", 11) == 0,
                  "rated: %s\nplain: %s", r.body, u.body);

    /* The retry is the same play. */
    http_reply again = post_check(&d, p, solve, NULL);
    json_t *b = body_json(&again, "retry");
    const json_t *brating = json_object_get(b, "rating");
    ck_assert(json_is_true(json_object_get(brating, "repeated")));
    ck_assert(same_member(brating, rating, "player"));

    /* A later attempt is answered, not rated. */
    char *fail = attempt_body(p, FAIL, "ada");
    http_reply later = post_check(&d, p, fail, NULL);
    json_t *c = body_json(&later, "later attempt");
    ck_assert(json_is_true(json_object_get(c, "failed")));
    const json_t *crating = json_object_get(c, "rating");
    ck_assert(json_is_false(json_object_get(crating, "rated")));
    ck_assert(json_is_false(json_object_get(crating, "repeated")));
    ck_assert(json_number_value(json_object_get(json_object_get(crating, "player"), "change")) ==
              0);

    /* The stats: one play, won, the puzzle's rating as the play left it,
     * kept by caches a minute and revalidated by its tag. */
    char path[ID_MAX + 64];
    snprintf(path, sizeof path, "/puzzle/%s/%s/stats", p->game, p->id);
    http_reply st = call(&d, "GET", path, NULL, NULL);
    json_t *s = body_json(&st, "stats");
    ck_assert_int_eq(st.status, 200);
    expect_header(&st, "Cache-Control", "public, max-age=60", "stats");
    ck_assert_int_eq(json_integer_value(json_object_get(s, "plays")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(s, "wins")), 1);
    ck_assert(json_number_value(json_object_get(s, "success_rate")) == 1.0);
    ck_assert(same_member(s, puzzle, "rating"));
    ck_assert_str_eq(json_string_value(json_object_get(s, "id")), p->id);
    char *tag = http_header(&st, "ETag");
    ck_assert_ptr_nonnull(tag);
    char inm[128];
    snprintf(inm, sizeof inm, "If-None-Match: %s", tag);
    const char *cond[] = {inm, NULL};
    http_reply same = call(&d, "GET", path, NULL, cond);
    ck_assert_int_eq(same.status, 304);

    /* The player's pages. */
    json_t *lines = activity_of(&d, "ada");
    ck_assert_int_eq((long)json_array_size(lines), 1);
    const json_t *line = json_array_get(lines, 0);
    ck_assert_str_eq(json_string_value(json_object_get(line, "id")), p->id);
    ck_assert(json_is_true(json_object_get(line, "solved")));
    ck_assert(same_member(json_object_get(line, "player"), player, "rating"));
    http_reply dash = get_keyed(&d, "/players/ada/dashboard?days=7");
    json_t *dj = body_json(&dash, "dashboard");
    ck_assert_int_eq(dash.status, 200);
    ck_assert_int_eq(json_integer_value(json_object_get(dj, "plays")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(dj, "wins")), 1);
    ck_assert_int_gt((long)json_array_size(json_object_get(dj, "themes")), 0);
    expect_header(&dash, "Cache-Control", "no-store", "dashboard");

    /* The next puzzle for another player: the one stored, as GET by id
     * answers it plus its stats; then the pool is exhausted for them. */
    snprintf(path, sizeof path, "/puzzle/%s/next?player=bob", p->game);
    http_reply nx = get_keyed(&d, path);
    json_t *n = body_json(&nx, "next");
    ck_assert_msg(nx.status == 200, "%s", nx.body);
    expect_header(&nx, "Cache-Control", "no-store", "next");
    ck_assert_str_eq(json_string_value(json_object_get(n, "id")), p->id);
    ck_assert_ptr_null(json_object_get(n, "solution"));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(n, "stats"), "plays")), 1);
    char byid[ID_MAX + 64];
    snprintf(byid, sizeof byid, "/puzzle/%s/%s", p->game, p->id);
    http_reply g = call(&d, "GET", byid, NULL, NULL);
    ck_assert_msg(strncmp(nx.body, g.body, g.len - 1) == 0 &&
                      strncmp(nx.body + g.len - 1, ",\"stats\":{", 10) == 0,
                  "next: %s\nby id: %s", nx.body, g.body);
    http_reply none = get_keyed(&d, path);
    expect_error(&none, 404, NULL, NULL, "next past the pool");

    /* The daily puzzle shows its stats (the starting ones before a play)
     * and may be kept a minute. */
    snprintf(path, sizeof path, "/puzzle/%s/daily", p->game);
    http_reply dl = call(&d, "GET", path, NULL, NULL);
    json_t *dly = body_json(&dl, "daily");
    ck_assert_int_eq(dl.status, 200);
    expect_header(&dl, "Cache-Control", "public, max-age=60", "daily");
    const json_t *ds = json_object_get(dly, "stats");
    ck_assert_ptr_nonnull(ds);
    ck_assert(json_number_value(json_object_get(ds, "rating")) ==
              (double)json_integer_value(json_object_get(dly, "rating")));
    ck_assert(json_number_value(json_object_get(ds, "rating_deviation")) == 250.0);
    ck_assert_int_eq(json_integer_value(json_object_get(ds, "plays")), 0);
    ck_assert(json_is_null(json_object_get(ds, "success_rate")));

    json_decref(a);
    json_decref(b);
    json_decref(c);
    json_decref(s);
    json_decref(lines);
    json_decref(dj);
    json_decref(n);
    json_decref(dly);
    free(tag);
    free(solve);
    free(plain);
    free(fail);
    http_reply *all[] = {&r, &u, &again, &later, &st, &same, &dash, &nx, &g, &none, &dl};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        http_reply_free(all[i]);
    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_store(dir);
}
END_TEST

/* Every bad input a 4xx naming what is wrong, before the store is asked. */
START_TEST(test_bad_inputs)
{
    char dir[64], url[96];
    fresh_store(dir, sizeof dir, url, sizeof url);
    test_daemon d;
    start_on(&d, url, NULL);
    const test_puzzle *p = &puzzles[1];
    char path[ID_MAX + 64];
    snprintf(path, sizeof path, "/puzzle/%s/%s/check", p->game, p->id);
    const char *keyed[] = {KEY_HEADER, NULL};
    char long_id[80];
    memset(long_id, 'a', 65);
    long_id[65] = '\0';
    char long_body[200];
    snprintf(long_body, sizeof long_body, "{\"moves\":[],\"reveal\":true,\"player\":\"%s\"}",
             long_id);
    static const struct {
        const char *body, *field, *needle;
    } bad[] = {
        {"{\"moves\":[],\"reveal\":true,\"player\":\"\"}", "player", "1 to 64"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"a\\u0001b\"}", "player", "0x01"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"caf\\u00e9\"}", "player", "0xc3"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"a b\"}", "player", "0x20"},
        {"{\"moves\":[],\"reveal\":true,\"player\":7}", "player", "string"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"ada\",\"rating\":5000}", "rating",
         "400 to 4000"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"ada\",\"rating\":\"1500\"}", "rating",
         "number"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"ada\",\"rating\":1500,\"rating_deviation\":"
         "10}",
         "rating_deviation", "30 to 500"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"ada\",\"rating\":1500,\"volatility\":0.5}",
         "volatility", "0.01 to 0.2"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"ada\",\"volatility\":0.06}", "volatility",
         "without rating"},
        {"{\"moves\":[],\"reveal\":true,\"rating\":1500}", "rating", "without player"},
        {"{\"moves\":[],\"reveal\":true,\"player\":\"ada\",\"colour\":1}", "colour", "player"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        http_reply r = call(&d, "POST", path, bad[i].body, keyed);
        expect_error(&r, 400, bad[i].field, bad[i].needle, bad[i].body);
        http_reply_free(&r);
    }
    http_reply r = call(&d, "POST", path, long_body, keyed);
    expect_error(&r, 400, "player", "1 to 64", "a 65-byte player");
    http_reply_free(&r);

    /* A player without a key: 401 naming the header. */
    char *body = attempt_body(p, REVEAL, "ada");
    r = call(&d, "POST", path, body, NULL);
    expect_error(&r, 401, NULL, "X-Api-Key", "a player without a key");
    http_reply_free(&r);

    /* A bad Idempotency-Key, then a key of one play sent with another. */
    char long_key[160];
    memset(long_key, 'k', 129);
    long_key[129] = '\0';
    r = post_check(&d, p, body, long_key);
    expect_error(&r, 400, "Idempotency-Key", "printable", "a 129-byte Idempotency-Key");
    http_reply_free(&r);
    r = post_check(&d, p, body, "play-1");
    ck_assert_msg(r.status == 200, "%s", r.body);
    http_reply_free(&r);
    char *other = attempt_body(&puzzles[2], REVEAL, "ada");
    r = post_check(&d, &puzzles[2], other, "play-1");
    expect_error(&r, 409, NULL, NULL, "an Idempotency-Key of another play");
    http_reply_free(&r);

    /* An unknown or malformed puzzle id. */
    snprintf(path, sizeof path, "/puzzle/%s/%s/stats", puzzles[3].game, puzzles[3].id);
    r = call(&d, "GET", path, NULL, NULL);
    expect_error(&r, 404, "id", "not in the store", "stats of a puzzle never played");
    http_reply_free(&r);
    r = call(&d, "GET", "/puzzle/grid-walk/2.nonsense.00000000/stats", NULL, NULL);
    expect_error(&r, 400, "id", NULL, "stats of a malformed id");
    http_reply_free(&r);
    r = call(&d, "POST", "/puzzle/grid-walk/2.nonsense.00000000/check",
             "{\"moves\":[],\"reveal\":true,\"player\":\"ada\"}", keyed);
    expect_error(&r, 400, "id", NULL, "a rated check of a malformed id");
    http_reply_free(&r);

    /* The next puzzle's and the players' parameters. */
    static const struct {
        const char *path, *field;
        long status;
        bool key;
    } gets[] = {
        {"/puzzle/grid-walk/next", "player", 400, true},
        {"/puzzle/grid-walk/next?player=a%01b", "player", 400, true},
        {"/puzzle/grid-walk/next?player=ada&rating=9000", "rating", 400, true},
        {"/puzzle/grid-walk/next?player=ada&band=impossible", "band", 400, true},
        {"/puzzle/grid-walk/next?player=ada&theme=no-such-theme", "theme", 400, true},
        {"/puzzle/grid-walk/next?player=ada&depth=0", "depth", 400, true},
        {"/puzzle/grid-walk/next?player=ada&colour=1", "colour", 400, true},
        {"/puzzle/grid-walk/next?player=ada", NULL, 401, false},
        {"/players/a%01b/activity", "player", 400, true},
        {"/players/ada/activity?max=0", "max", 400, true},
        {"/players/ada/activity?max=1001", "max", 400, true},
        {"/players/ada/activity?before=x", "before", 400, true},
        {"/players/ada/activity", NULL, 401, false},
        {"/players/ada/dashboard?days=366", "days", 400, true},
        {"/players/ada/dashboard", NULL, 401, false},
    };
    for (size_t i = 0; i < sizeof gets / sizeof gets[0]; i++) {
        r = gets[i].key ? get_keyed(&d, gets[i].path) : call(&d, "GET", gets[i].path, NULL, NULL);
        expect_error(&r, gets[i].status, gets[i].field, gets[i].status == 401 ? "X-Api-Key" : NULL,
                     gets[i].path);
        http_reply_free(&r);
    }
    /* Over-long ids in the path. */
    char long_path[160];
    snprintf(long_path, sizeof long_path, "/players/%s/activity", long_id);
    r = get_keyed(&d, long_path);
    expect_error(&r, 400, "player", "1 to 64", "a 65-byte player in the path");
    http_reply_free(&r);
    free(body);
    free(other);
    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_store(dir);
}
END_TEST

/* Without a store the service is today's: a check without a player is
 * answered, and everything that needs the store is a 404 naming --store. */
START_TEST(test_store_none)
{
    test_daemon d;
    const char *args[] = {"--api-keys", keys_file, NULL};
    daemon_start(&d, args); /* --store none, as daemon.h gives it */
    const test_puzzle *p = &puzzles[0];
    char *plain = attempt_body(p, SOLVE, NULL);
    http_reply r = post_check(&d, p, plain, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_null(strstr(r.body, "\"rating\":{"));
    ck_assert_ptr_null(http_header(&r, "Cache-Control"));
    http_reply_free(&r);
    char *rated = attempt_body(p, SOLVE, "ada");
    r = post_check(&d, p, rated, NULL);
    expect_error(&r, 404, NULL, "--store", "a rated check without a store");
    http_reply_free(&r);
    char path[ID_MAX + 64];
    snprintf(path, sizeof path, "/puzzle/%s/%s/stats", p->game, p->id);
    const char *paths[] = {path, "/puzzle/grid-walk/next?player=ada", "/players/ada/activity",
                           "/players/ada/dashboard"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        r = get_keyed(&d, paths[i]);
        expect_error(&r, 404, NULL, "--store", paths[i]);
        http_reply_free(&r);
    }
    /* The daily puzzle is as before: no stats. */
    r = call(&d, "GET", "/puzzle/grid-walk/daily", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_null(strstr(r.body, "\"stats\""));
    http_reply_free(&r);
    r = call(&d, "GET", "/readyz", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    free(plain);
    free(rated);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A store that cannot be opened, or an unknown kind of URL: the daemon
 * does not start, and says why. */
START_TEST(test_store_refused)
{
    const char *bad_url[] = {"serve", "--port", "0", "--store", "mysql://x", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_cli(bad_url, "", 0, &out, &err), 2);
    ck_assert_msg(strstr(err, "--store") != NULL, "%s", err);
    free(out);
    free(err);
    const char *unreachable[] = {
        "serve", "--port", "0", "--store", "sqlite:/nonexistent/deeper/store.db", NULL};
    ck_assert_int_eq(run_cli(unreachable, "", 0, &out, &err), 1);
    ck_assert_msg(strstr(err, "gamejudge: ") != NULL && strstr(out, "listening") == NULL, "%s",
                  err);
    free(out);
    free(err);
}
END_TEST

/* ---- the property: plays counted once, as a model counts them ----------- */

#define NPLAYERS 40
#define NSTEPS   2000

/* The model's memory of a player's first complete attempt at a puzzle. */
typedef struct first_play {
    bool done, solved;
    attempt_kind kind;
    char key[32];   /* its Idempotency-Key, "" for none */
    json_t *player; /* the "player" member its answer gave */
} first_play;

static first_play model[NPLAYERS][NGAMES * NPUZZLES];

/* Send one generated attempt (and hold its answer to the model): player
 * pl at puzzle q, kind, with Idempotency-Key idem (NULL: none). */
static void play_once(const test_daemon *d, int pl, int q, attempt_kind kind, const char *idem)
{
    char player[16];
    snprintf(player, sizeof player, "p%d", pl);
    char *body = attempt_body(&puzzles[q], kind, player);
    http_reply r = post_check(d, &puzzles[q], body, idem);
    json_t *a = body_json(&r, "a generated attempt");
    ck_assert_msg(r.status == 200, "%s -> %ld %s", body, r.status, r.body);
    const json_t *rating = json_object_get(a, "rating");
    first_play *f = &model[pl][q];
    if (kind == PARTIAL) {
        ck_assert_msg(rating == NULL, "an incomplete attempt was recorded: %s", r.body);
    } else if (!f->done) {
        ck_assert_msg(json_is_true(json_object_get(rating, "rated")) &&
                          json_is_false(json_object_get(rating, "repeated")),
                      "a first attempt not rated: %s", r.body);
        f->done = true;
        f->solved = kind == SOLVE;
        f->kind = kind;
        snprintf(f->key, sizeof f->key, "%s", idem ? idem : "");
        f->player = json_deep_copy(json_object_get(rating, "player"));
        double change = json_number_value(json_object_get(f->player, "change"));
        ck_assert_msg(f->solved ? change >= 0 : change <= 0,
                      "the rating moved against the result: %s", r.body);
        long plays = 0;
        for (int i = 0; i < NPLAYERS; i++)
            plays += model[i][q].done;
        ck_assert_msg(json_integer_value(
                          json_object_get(json_object_get(rating, "puzzle"), "plays")) == plays,
                      "the puzzle's plays are not the model's %ld: %s", plays, r.body);
    } else if ((idem != NULL && strcmp(idem, f->key) == 0) || (idem == NULL && kind == f->kind)) {
        ck_assert_msg(json_is_true(json_object_get(rating, "repeated")),
                      "a retry not seen as one: %s", r.body);
        ck_assert_msg(json_equal(json_object_get(rating, "player"), f->player),
                      "a retry answered another rating: %s", r.body);
    } else {
        ck_assert_msg(json_is_false(json_object_get(rating, "rated")) &&
                          json_is_false(json_object_get(rating, "repeated")),
                      "a later attempt rated: %s", r.body);
    }
    json_decref(a);
    http_reply_free(&r);
    free(body);
}

/* Thousands of generated attempts (random players solving, failing,
 * revealing or stopping half-way at random puzzles, half with an
 * Idempotency-Key, a third retried as sent) held to the model one by one;
 * then every puzzle's stats and every player's pages against it; then
 * bursts of one attempt sent eight times at once, rated exactly once. */
START_TEST(test_property)
{
    char dir[64], url[96];
    fresh_store(dir, sizeof dir, url, sizeof url);
    test_daemon d;
    start_on(&d, url, NULL);
    uint64_t rng = 32;
    for (int step = 0; step < NSTEPS; step++) {
        int pl = below(&rng, NPLAYERS), q = below(&rng, npuzzles);
        int roll = below(&rng, 100);
        attempt_kind kind = roll < 35 ? SOLVE : roll < 65 ? FAIL : roll < 80 ? REVEAL : PARTIAL;
        char idem[32];
        snprintf(idem, sizeof idem, "k%d", step);
        bool keyed = below(&rng, 2) == 0;
        play_once(&d, pl, q, kind, keyed ? idem : NULL);
        if (below(&rng, 3) == 0)
            play_once(&d, pl, q, kind, keyed ? idem : NULL);
    }
    /* Each puzzle's stats and each player's pages are the model's. */
    for (int q = 0; q < npuzzles; q++) {
        long plays = 0, wins = 0;
        for (int i = 0; i < NPLAYERS; i++) {
            plays += model[i][q].done;
            wins += model[i][q].done && model[i][q].solved;
        }
        json_t *s = stats_of(&d, &puzzles[q]);
        ck_assert_msg((s == NULL) == (plays == 0), "puzzle %d stored: %d, played %ld", q, s != NULL,
                      plays);
        if (s != NULL) {
            ck_assert_int_eq(json_integer_value(json_object_get(s, "plays")), plays);
            ck_assert_int_eq(json_integer_value(json_object_get(s, "wins")), wins);
        }
        json_decref(s);
    }
    for (int i = 0; i < NPLAYERS; i++) {
        char player[16];
        snprintf(player, sizeof player, "p%d", i);
        json_t *lines = activity_of(&d, player);
        long firsts = 0, wins = 0;
        for (int q = 0; q < npuzzles; q++) {
            firsts += model[i][q].done;
            wins += model[i][q].done && model[i][q].solved;
        }
        ck_assert_int_eq((long)json_array_size(lines), firsts);
        long long last = INT64_MAX;
        for (size_t k = 0; k < json_array_size(lines); k++) {
            const json_t *line = json_array_get(lines, k);
            const char *id = json_string_value(json_object_get(line, "id"));
            long long at = json_integer_value(json_object_get(line, "at_ms"));
            ck_assert_msg(at <= last, "activity is not newest first");
            last = at;
            int q = 0;
            while (q < npuzzles && strcmp(puzzles[q].id, id) != 0)
                q++;
            ck_assert_msg(q < npuzzles && model[i][q].done, "%s lists a play never made", player);
            ck_assert(json_is_true(json_object_get(line, "solved")) == model[i][q].solved);
        }
        char path[64];
        snprintf(path, sizeof path, "/players/%s/dashboard?days=1", player);
        http_reply dr = get_keyed(&d, path);
        json_t *dj = body_json(&dr, "dashboard");
        ck_assert_int_eq(json_integer_value(json_object_get(dj, "plays")), firsts);
        ck_assert_int_eq(json_integer_value(json_object_get(dj, "wins")), wins);
        json_decref(dj);
        http_reply_free(&dr);
        json_decref(lines);
    }
    /* One attempt sent eight times at once, with one key or none: one play. */
    for (int burst = 0; burst < 20; burst++) {
        const test_puzzle *p = &puzzles[burst % npuzzles];
        char player[32], path[ID_MAX + 64], idem[64];
        snprintf(player, sizeof player, "burst%d", burst);
        snprintf(path, sizeof path, "%s/puzzle/%s/%s/check", d.base, p->game, p->id);
        snprintf(idem, sizeof idem, "Idempotency-Key: burst-%d", burst);
        char *body = attempt_body(p, burst % 2 ? FAIL : SOLVE, player);
        const char *headers[] = {KEY_HEADER, burst % 4 < 2 ? idem : NULL, NULL};
        http_call calls[8];
        http_reply replies[8];
        for (int i = 0; i < 8; i++)
            calls[i] = (http_call){"POST", path, headers, body, strlen(body), 0};
        http_do_parallel(calls, replies, 8);
        int rated = 0;
        for (int i = 0; i < 8; i++) {
            ck_assert_msg(replies[i].status == 200, "%ld %s", replies[i].status, replies[i].body);
            json_t *a = body_json(&replies[i], "burst");
            const json_t *rt = json_object_get(a, "rating");
            rated += json_is_true(json_object_get(rt, "rated")) &&
                     json_is_false(json_object_get(rt, "repeated"));
            json_decref(a);
            http_reply_free(&replies[i]);
        }
        ck_assert_msg(rated == 1, "burst %d: %d plays rated", burst, rated);
        json_t *lines = activity_of(&d, player);
        ck_assert_int_eq((long)json_array_size(lines), 1);
        json_decref(lines);
        free(body);
    }
    for (int i = 0; i < NPLAYERS; i++)
        for (int q = 0; q < npuzzles; q++)
            json_decref(model[i][q].player);
    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_store(dir);
}
END_TEST

/* Concurrent next requests: every puzzle of the pool handed to the player
 * once, then 404 saying the pool is exhausted; eight at a time. */
START_TEST(test_next_concurrent)
{
    char dir[64], url[96];
    fresh_store(dir, sizeof dir, url, sizeof url);
    test_daemon d;
    start_on(&d, url, NULL);
    /* The pool: every puzzle of the first game, stored by a rated play. */
    int pool = 0;
    for (int q = 0; q < npuzzles; q++) {
        if (strcmp(puzzles[q].game, games[0]) != 0)
            continue;
        char *body = attempt_body(&puzzles[q], REVEAL, "seeder");
        http_reply r = post_check(&d, &puzzles[q], body, NULL);
        ck_assert_msg(r.status == 200, "%s", r.body);
        http_reply_free(&r);
        free(body);
        pool++;
    }
    for (int player = 0; player < 3; player++) {
        char url_next[128], seen[NPUZZLES][ID_MAX];
        snprintf(url_next, sizeof url_next, "%s/puzzle/%s/next?player=n%d%s", d.base, games[0],
                 player,
                 player == 1   ? "&rating=2600"
                 : player == 2 ? "&band=easy"
                               : "");
        int got = 0, refused = 0;
        const char *headers[] = {KEY_HEADER, NULL};
        while (refused == 0) {
            http_call calls[8];
            http_reply replies[8];
            for (int i = 0; i < 8; i++)
                calls[i] = (http_call){"GET", url_next, headers, NULL, 0, 0};
            http_do_parallel(calls, replies, 8);
            for (int i = 0; i < 8; i++) {
                if (replies[i].status == 404) {
                    expect_error(&replies[i], 404, NULL, NULL, "next past the pool");
                    refused++;
                } else {
                    ck_assert_msg(replies[i].status == 200, "%ld %s", replies[i].status,
                                  replies[i].body);
                    json_t *a = body_json(&replies[i], "next");
                    const char *id = json_string_value(json_object_get(a, "id"));
                    for (int k = 0; k < got; k++)
                        ck_assert_msg(strcmp(seen[k], id) != 0, "served twice to n%d: %s", player,
                                      id);
                    ck_assert_int_lt(got, NPUZZLES);
                    snprintf(seen[got++], ID_MAX, "%s", id);
                    json_decref(a);
                }
                http_reply_free(&replies[i]);
            }
        }
        /* band=easy asks for a part of the pool; the others get all of it. */
        if (player != 2)
            ck_assert_int_eq(got, pool);
        else
            ck_assert_int_le(got, pool);
    }
    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_store(dir);
}
END_TEST

/* ---- kill -9 during a storm of rated plays ----------------------------- */

#define STORM_THREADS 4
#define STORM_ACKED   150 /* acknowledged plays before the kill */

/* A storm: each thread plays its own players' first attempts one after
 * another and notes each acknowledged (200, rated) play. */
typedef struct storm {
    const test_daemon *d;
    const char *prefix; /* of the players' ids */
    pthread_mutex_t lock;
    int acked;
    int acked_player[STORM_THREADS * 4 * NGAMES * NPUZZLES];
    int acked_puzzle[STORM_THREADS * 4 * NGAMES * NPUZZLES];
} storm;

typedef struct storm_thread {
    storm *s;
    int index;
} storm_thread;

/* One thread of the storm: players t*4 .. t*4+3 play every puzzle until
 * the daemon stops answering. */
static void *storm_run(void *arg)
{
    storm_thread *t = arg;
    storm *s = t->s;
    for (int k = 0; k < 4; k++) {
        int pl = t->index * 4 + k;
        char player[32];
        snprintf(player, sizeof player, "%s%d", s->prefix, pl);
        for (int q = 0; q < npuzzles; q++) {
            char *body = attempt_body(&puzzles[q], q % 2 ? SOLVE : FAIL, player);
            http_reply r = post_check(s->d, &puzzles[q], body, NULL);
            free(body);
            bool ok = r.status == 200 && strstr(r.body, "\"rated\":true") != NULL;
            http_reply_free(&r);
            if (!ok)
                return NULL;
            pthread_mutex_lock(&s->lock);
            s->acked_player[s->acked] = pl;
            s->acked_puzzle[s->acked] = q;
            s->acked++;
            pthread_mutex_unlock(&s->lock);
        }
    }
    return NULL;
}

/* SIGKILL a daemon on the store `url` during the storm of players
 * prefix0..prefix15 (new to the store); a daemon restarted on the same
 * store finds every acknowledged play in its player's activity and its
 * puzzle's stats (counted at least once: the store may hold other plays). */
static void kill9_storm(const char *url, const char *prefix)
{
    test_daemon d;
    start_on(&d, url, NULL);
    static storm s;
    memset(&s, 0, sizeof s);
    s.d = &d;
    s.prefix = prefix;
    pthread_mutex_init(&s.lock, NULL);
    pthread_t threads[STORM_THREADS];
    storm_thread args[STORM_THREADS];
    for (int i = 0; i < STORM_THREADS; i++) {
        args[i] = (storm_thread){&s, i};
        ck_assert_int_eq(pthread_create(&threads[i], NULL, storm_run, &args[i]), 0);
    }
    for (;;) {
        pthread_mutex_lock(&s.lock);
        int acked = s.acked;
        pthread_mutex_unlock(&s.lock);
        if (acked >= STORM_ACKED)
            break;
        struct timespec tick = {0, 1000000};
        nanosleep(&tick, NULL);
    }
    kill(d.pid, SIGKILL);
    waitpid(d.pid, NULL, 0);
    d.pid = 0;
    unlink(d.log);
    for (int i = 0; i < STORM_THREADS; i++)
        pthread_join(threads[i], NULL);
    ck_assert_int_ge(s.acked, STORM_ACKED);

    test_daemon again;
    start_on(&again, url, NULL);
    long per_puzzle[NGAMES * NPUZZLES] = {0};
    for (int pl = 0; pl < STORM_THREADS * 4; pl++) {
        char player[32];
        snprintf(player, sizeof player, "%s%d", prefix, pl);
        json_t *lines = activity_of(&again, player);
        for (int k = 0; k < s.acked; k++) {
            if (s.acked_player[k] != pl)
                continue;
            per_puzzle[s.acked_puzzle[k]]++;
            bool found = false;
            for (size_t i = 0; i < json_array_size(lines); i++)
                found |= strcmp(json_string_value(json_object_get(json_array_get(lines, i), "id")),
                                puzzles[s.acked_puzzle[k]].id) == 0;
            ck_assert_msg(found, "an acknowledged play of %s at puzzle %d was lost", player,
                          s.acked_puzzle[k]);
        }
        json_decref(lines);
    }
    for (int q = 0; q < npuzzles; q++) {
        if (per_puzzle[q] == 0)
            continue;
        json_t *st = stats_of(&again, &puzzles[q]);
        ck_assert_ptr_nonnull(st);
        ck_assert_int_ge(json_integer_value(json_object_get(st, "plays")), per_puzzle[q]);
        json_decref(st);
    }
    ck_assert_int_eq(daemon_stop(&again), 0);
}

/* The storm and the kill on SQLite: the daemon restarted on the same file. */
START_TEST(test_kill9)
{
    char dir[64], url[96];
    fresh_store(dir, sizeof dir, url, sizeof url);
    kill9_storm(url, "s");
    remove_store(dir);
}
END_TEST

/* ---- the store made unusable, and back --------------------------------- */

/* /readyz's status until it is `status` (polled, at most 30 s: the watch
 * pings each second, and a ping may wait out the store's busy timeout). */
static http_reply ready_until(const test_daemon *d, long status)
{
    for (int i = 0; i < 300; i++) {
        http_reply r = call(d, "GET", "/readyz", NULL, NULL);
        if (r.status == status)
            return r;
        http_reply_free(&r);
        struct timespec tick = {0, 100000000};
        nanosleep(&tick, NULL);
    }
    ck_abort_msg("/readyz never answered %ld", status);
    return (http_reply){0};
}

/* Another process holds the SQLite file's write lock: every route that
 * writes answers 503 saying so, /readyz 503 naming the store, solving and
 * the stateless puzzles go on; the lock released, the same daemon uses the
 * store again. */
START_TEST(test_store_down)
{
    char dir[64], url[96], file[96];
    fresh_store(dir, sizeof dir, url, sizeof url);
    snprintf(file, sizeof file, "%s/store.db", dir);
    test_daemon d;
    start_on(&d, url, NULL);
    const test_puzzle *p = &puzzles[4];
    char *solve = attempt_body(p, SOLVE, "ada");
    http_reply r = post_check(&d, p, solve, NULL);
    ck_assert_msg(r.status == 200, "%s", r.body);
    http_reply_free(&r);

    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(file, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);

    char *other = attempt_body(&puzzles[5], SOLVE, "ada");
    r = post_check(&d, &puzzles[5], other, NULL);
    expect_error(&r, 503, NULL, NULL, "a rated check with the store locked");
    char *retry = http_header(&r, "Retry-After");
    ck_assert_ptr_nonnull(retry);
    free(retry);
    http_reply_free(&r);
    r = get_keyed(&d, "/puzzle/staircase-chess/next?player=bob");
    expect_error(&r, 503, NULL, NULL, "next with the store locked");
    http_reply_free(&r);
    r = ready_until(&d, 503);
    ck_assert_msg(strstr(r.body, "store") != NULL, "%s", r.body);
    http_reply_free(&r);
    /* Solving and the stateless puzzles go on. */
    r = call(&d, "POST", "/solve/grid-walk", "2 3\n.#.\n.#.\n", NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    char byid[ID_MAX + 64];
    snprintf(byid, sizeof byid, "/puzzle/%s/%s", p->game, p->id);
    r = call(&d, "GET", byid, NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    char *plain = attempt_body(p, SOLVE, NULL);
    r = post_check(&d, p, plain, NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    /* The daily puzzle without its stats, at once: its watch says the
     * store is down, so no request waits out the store's timeout. */
    r = call(&d, "GET", "/puzzle/grid-walk/daily", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(strstr(r.body, "\"stats\"") == NULL, "%s", r.body);
    http_reply_free(&r);

    /* The lock released: used again, without a restart. */
    ck_assert_int_eq(sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    r = ready_until(&d, 200);
    http_reply_free(&r);
    r = call(&d, "GET", "/puzzle/grid-walk/daily", NULL, NULL);
    ck_assert_msg(r.status == 200 && strstr(r.body, "\"stats\"") != NULL, "%s", r.body);
    http_reply_free(&r);
    r = post_check(&d, &puzzles[5], other, NULL);
    ck_assert_msg(r.status == 200 && strstr(r.body, "\"rated\":true") != NULL, "%s", r.body);
    http_reply_free(&r);
    free(solve);
    free(other);
    free(plain);
    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_store(dir);
}
END_TEST

/* The store's metrics: plays by result, served puzzles, its calls'
 * latency, whether it is up and each game's pool. */
START_TEST(test_metrics)
{
    char dir[64], url[96];
    fresh_store(dir, sizeof dir, url, sizeof url);
    test_daemon d;
    start_on(&d, url, NULL);
    const test_puzzle *p = &puzzles[0];
    char *solve = attempt_body(p, SOLVE, "ada"), *fail = attempt_body(p, FAIL, "ada");
    http_reply r = post_check(&d, p, solve, NULL);
    http_reply_free(&r);
    r = post_check(&d, p, solve, NULL);
    http_reply_free(&r);
    r = post_check(&d, p, fail, NULL);
    http_reply_free(&r);
    char path[128];
    snprintf(path, sizeof path, "/puzzle/%s/next?player=bob", p->game);
    r = get_keyed(&d, path);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    ck_assert(daemon_metric(&d, "gamejudge_store_plays_total{result=\"rated\"}") == 1);
    ck_assert(daemon_metric(&d, "gamejudge_store_plays_total{result=\"repeated\"}") == 1);
    ck_assert(daemon_metric(&d, "gamejudge_store_plays_total{result=\"unrated\"}") == 1);
    ck_assert(daemon_metric(&d, "gamejudge_store_served_total") == 1);
    ck_assert(daemon_metric(&d, "gamejudge_store_up") == 1);
    ck_assert(daemon_metric(&d, "gamejudge_store_errors_total") == 0);
    ck_assert(daemon_metric(&d, "gamejudge_store_seconds_count") > 0);
    ck_assert(daemon_metric(&d, "gamejudge_store_seconds_bucket{le=\"+Inf\"}") ==
              daemon_metric(&d, "gamejudge_store_seconds_count"));
    /* The pool is counted within its period (storewatch.h). */
    char series[96];
    snprintf(series, sizeof series, "gamejudge_store_puzzles{game=\"%s\"}", p->game);
    double pool = -1;
    for (int i = 0; i < 300 && pool != 1; i++) {
        pool = daemon_metric(&d, series);
        struct timespec tick = {0, 100000000};
        nanosleep(&tick, NULL);
    }
    ck_assert(pool == 1);
    free(solve);
    free(fail);
    ck_assert_int_eq(daemon_stop(&d), 0);
    remove_store(dir);
}
END_TEST

/* ---- PostgreSQL: replicas sharing one store --------------------------- */

#define REPLICA_PLAYS 1000 /* rated plays of one puzzle through each replica */

/* The PostgreSQL store the tests of this part run on (store_http_pg.sh
 * starts a throwaway cluster and names it), or NULL: they are skipped. */
static const char *pg_url(void)
{
    const char *url = getenv("GJ_TEST_STORE_URL");
    if (url == NULL || strncmp(url, "postgres", 8) != 0) {
        fprintf(stderr, "store_http: skipped: GJ_TEST_STORE_URL names no PostgreSQL database "
                        "(tests/integration/store_http_pg.sh starts one)\n");
        return NULL;
    }
    return url;
}

/* Two replicas on one PostgreSQL database, 2 x 1,000 first plays of one
 * puzzle by distinct players, sixteen at a time, half through each: every
 * one rated once, the puzzle's play counts answered 1 to 2,000 each once
 * (every play saw every play before it), and both replicas' stats say
 * 2,000 plays; then next asked of both at once for one player, never the
 * same puzzle twice. */
START_TEST(test_replicas_pg)
{
    const char *url = pg_url();
    if (url == NULL)
        return;
    test_daemon a, b;
    start_on(&a, url, NULL);
    start_on(&b, url, NULL);
    const test_puzzle *p = &puzzles[0];
    static bool seen[2 * REPLICA_PLAYS + 1];
    long wins = 0;
    for (int from = 0; from < 2 * REPLICA_PLAYS; from += 16) {
        http_call calls[16];
        http_reply replies[16];
        char urls[16][ID_MAX + 96], *bodies[16];
        const char *headers[] = {KEY_HEADER, NULL};
        for (int i = 0; i < 16; i++) {
            char player[16];
            snprintf(player, sizeof player, "rp%d", from + i);
            bodies[i] = attempt_body(p, (from + i) % 3 == 0 ? FAIL : SOLVE, player);
            wins += (from + i) % 3 != 0;
            snprintf(urls[i], sizeof urls[i], "%s/puzzle/%s/%s/check", i % 2 ? b.base : a.base,
                     p->game, p->id);
            calls[i] = (http_call){"POST", urls[i], headers, bodies[i], strlen(bodies[i]), 0};
        }
        http_do_parallel(calls, replies, 16);
        for (int i = 0; i < 16; i++) {
            json_t *r = body_json(&replies[i], "a replica's play");
            ck_assert_msg(replies[i].status == 200, "%s", replies[i].body);
            const json_t *rating = json_object_get(r, "rating");
            ck_assert(json_is_true(json_object_get(rating, "rated")) &&
                      json_is_false(json_object_get(rating, "repeated")));
            long plays = (long)json_integer_value(
                json_object_get(json_object_get(rating, "puzzle"), "plays"));
            ck_assert_msg(plays >= 1 && plays <= 2 * REPLICA_PLAYS && !seen[plays],
                          "plays %ld answered twice or out of range", plays);
            seen[plays] = true;
            json_decref(r);
            http_reply_free(&replies[i]);
            free(bodies[i]);
        }
    }
    json_t *sa = stats_of(&a, p), *sb = stats_of(&b, p);
    ck_assert_ptr_nonnull(sa);
    ck_assert_int_eq(json_integer_value(json_object_get(sa, "plays")), 2 * REPLICA_PLAYS);
    ck_assert_int_eq(json_integer_value(json_object_get(sa, "wins")), wins);
    ck_assert(json_equal(sa, sb));
    json_decref(sa);
    json_decref(sb);

    /* The pool: the puzzles of the first game, stored by a play each. */
    int pool = 0;
    for (int q = 0; q < npuzzles; q++) {
        if (strcmp(puzzles[q].game, games[0]) != 0)
            continue;
        char *body = attempt_body(&puzzles[q], REVEAL, "seeder-pg");
        http_reply r = post_check(q % 2 ? &b : &a, &puzzles[q], body, NULL);
        ck_assert_msg(r.status == 200, "%s", r.body);
        http_reply_free(&r);
        free(body);
        pool++;
    }
    char seen_ids[NPUZZLES][ID_MAX];
    int got = 0, refused = 0;
    const char *headers[] = {KEY_HEADER, NULL};
    char url_a[128], url_b[128];
    snprintf(url_a, sizeof url_a, "%s/puzzle/%s/next?player=np", a.base, games[0]);
    snprintf(url_b, sizeof url_b, "%s/puzzle/%s/next?player=np", b.base, games[0]);
    while (refused == 0) {
        http_call calls[8];
        http_reply replies[8];
        for (int i = 0; i < 8; i++)
            calls[i] = (http_call){"GET", i % 2 ? url_b : url_a, headers, NULL, 0, 0};
        http_do_parallel(calls, replies, 8);
        for (int i = 0; i < 8; i++) {
            if (replies[i].status == 404) {
                refused++;
            } else {
                ck_assert_msg(replies[i].status == 200, "%s", replies[i].body);
                json_t *n = body_json(&replies[i], "next");
                const char *id = json_string_value(json_object_get(n, "id"));
                for (int k = 0; k < got; k++)
                    ck_assert_msg(strcmp(seen_ids[k], id) != 0, "served twice: %s", id);
                ck_assert_int_lt(got, NPUZZLES);
                snprintf(seen_ids[got++], ID_MAX, "%s", id);
                json_decref(n);
            }
            http_reply_free(&replies[i]);
        }
    }
    ck_assert_int_eq(got, pool);
    ck_assert_int_eq(daemon_stop(&a), 0);
    ck_assert_int_eq(daemon_stop(&b), 0);
}
END_TEST

/* The storm and the kill on PostgreSQL: only the daemon dies, the server
 * keeps running, and a daemon restarted on the same URL finds every
 * acknowledged play. */
START_TEST(test_kill9_pg)
{
    const char *url = pg_url();
    if (url == NULL)
        return;
    kill9_storm(url, "k9pg-");
}
END_TEST

/* Run the cluster script's command (stop or start) on the test's cluster. */
static void cluster(const char *command)
{
    const char *script = getenv("GJ_TEST_PG_CLUSTER"), *dir = getenv("GJ_TEST_PG_DIR");
    ck_assert_msg(script != NULL && dir != NULL, "GJ_TEST_PG_CLUSTER and GJ_TEST_PG_DIR unset");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sh '%s' %s '%s' >/dev/null", script, command, dir);
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

/* PostgreSQL stopped under a serving daemon: the store's routes 503,
 * /readyz 503 naming the store, solving and the stateless puzzles go on;
 * started again, the same daemon records plays again. */
START_TEST(test_pg_down)
{
    const char *url = pg_url();
    if (url == NULL)
        return;
    test_daemon d;
    start_on(&d, url, NULL);
    const test_puzzle *p = &puzzles[npuzzles - 1], *q = &puzzles[npuzzles - 2];
    char *solve = attempt_body(p, SOLVE, "down-pg"), *other = attempt_body(q, SOLVE, "down-pg");
    http_reply r = post_check(&d, p, solve, NULL);
    ck_assert_msg(r.status == 200, "%s", r.body);
    http_reply_free(&r);

    cluster("stop");
    r = ready_until(&d, 503);
    ck_assert_msg(strstr(r.body, "store_unavailable") != NULL, "%s", r.body);
    http_reply_free(&r);
    r = post_check(&d, q, other, NULL);
    expect_error(&r, 503, NULL, NULL, "a rated check with PostgreSQL stopped");
    http_reply_free(&r);
    r = call(&d, "POST", "/solve/grid-walk", "2 3\n.#.\n.#.\n", NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    r = call(&d, "GET", "/puzzle/grid-walk/daily", NULL, NULL);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);

    cluster("start");
    r = ready_until(&d, 200);
    http_reply_free(&r);
    r = post_check(&d, q, other, NULL);
    ck_assert_msg(r.status == 200 && strstr(r.body, "\"rated\":true") != NULL, "%s", r.body);
    http_reply_free(&r);
    json_t *lines = activity_of(&d, "down-pg");
    ck_assert_int_eq((long)json_array_size(lines), 2);
    json_decref(lines);
    free(solve);
    free(other);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* The "pg" case's fixture: the puzzles and key file, only when there is a
 * cluster to play them on. */
static void setup_pg(void)
{
    const char *url = getenv("GJ_TEST_STORE_URL");
    if (url != NULL && strncmp(url, "postgres", 8) == 0)
        setup();
}

int main(void)
{
    curl_global_init(CURL_GLOBAL_ALL);
    Suite *s = suite_create("store_http");
    TCase *tc = tcase_create("store");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_flow);
    tcase_add_test(tc, test_bad_inputs);
    tcase_add_test(tc, test_store_none);
    tcase_add_test(tc, test_store_refused);
    tcase_add_test(tc, test_property);
    tcase_add_test(tc, test_next_concurrent);
    tcase_add_test(tc, test_kill9);
    tcase_add_test(tc, test_store_down);
    tcase_add_test(tc, test_metrics);
    suite_add_tcase(s, tc);
    /* On PostgreSQL, when store_http_pg.sh names one (else each is skipped). */
    TCase *pg = tcase_create("pg");
    tcase_add_unchecked_fixture(pg, setup_pg, teardown);
    tcase_set_timeout(pg, 600);
    tcase_add_test(pg, test_replicas_pg);
    tcase_add_test(pg, test_kill9_pg);
    tcase_add_test(pg, test_pg_down);
    suite_add_tcase(s, pg);
    return run_suite(s);
}

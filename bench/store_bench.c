/* store_bench.c - the puzzle store's figures (bench/results.md, "The puzzle
 * store"), driven by bench/store.sh:
 *
 *   store_bench pool URL GAME N THREADS
 *       store N synthetic puzzles of GAME (ids bench-GAME-0..N-1, ratings
 *       spread 700..2800 by a fixed seed) with store_put from THREADS
 *       threads; prints "pool GAME N added S seconds R per second".
 *   store_bench plays URL[,URL...] THREADS SECONDS GAME POOL
 *       rated plays of first attempts (a new player each, a random puzzle
 *       of the POOL first bench-GAME ids) from THREADS threads spread over
 *       one store handle per URL (the same URL twice: two replicas of one
 *       database); prints the plays per second and the p50 / p99 of one
 *       store_record in ms, and checks afterwards that the pool's plays
 *       counters add up to the plays made.
 *   store_bench next URL GAME N PLAYERS
 *       N store_next calls for PLAYERS players in turn (ratings spread, a
 *       fixed seed), in process; prints p50 / p99 / max in ms.
 *   store_bench http BASE KEY GAME N PLAYERS
 *       through a running daemon with a store and the API key KEY: the
 *       ids of PLAYERS /next answers, then N rounds of an unrated and a
 *       rated /check (a reveal; the rated one by a player new to the
 *       puzzle), interleaved on one keep-alive connection after a warm-up,
 *       and N GET /next for PLAYERS players in turn; prints each one's p50
 *       and p99 in ms, and those of GET /puzzle by id for each puzzle /next
 *       handed out (the same rebuild from the id, without the store's walk).
 *
 * Every figure line starts with its subcommand's name, then "key value"
 * pairs, for store.sh to read. */
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store.h"

/* What a synthetic puzzle shows: a matrix-game position as GET /puzzle
 * writes one; the store keeps it as text and never reads it. */
#define SYNTH_POSITION "{\"matrix\":[[3,1],[2,4]],\"k\":1}"
#define SYNTH_SOLUTION "[{\"row\":1}]"

/* Order of doubles, for the percentiles. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile (0..1) of n values, sorted in place; 0 for none. */
static double quantile(double *v, size_t n, double q)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof v[0], cmp_double);
    return v[(size_t)(q * (double)(n - 1) + 0.5)];
}

/* Monotonic milliseconds. */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Wall-clock milliseconds since the epoch, as plays are stamped. */
static long long epoch_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* splitmix64: the next number of the sequence at *s. */
static unsigned long long mix(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniform double in [0, 1) from *s. */
static double unit(unsigned long long *s)
{
    return (double)(mix(s) >> 11) / 9007199254740992.0;
}

/* Print e's message for what failed and exit 1. */
static void die(const char *what, const gj_error *e)
{
    fprintf(stderr, "store_bench: %s: %s\n", what, e->message);
    exit(1);
}

/* Open url or exit. */
static gj_store *open_or_die(const char *url)
{
    gj_store *s = NULL;
    gj_error e = {0};
    if (store_open(url, &s, &e) != 0)
        die(url, &e);
    if (s == NULL) {
        fprintf(stderr, "store_bench: %s: no store\n", url);
        exit(1);
    }
    return s;
}

/* Synthetic puzzle i of game into *p (texts static, nothing to free):
 * its rating from i alone, so every run and engine gets the same pool. */
static void synth(const char *game, long i, store_puzzle *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->game, sizeof p->game, "%s", game);
    snprintf(p->id, sizeof p->id, "bench-%s-%ld", game, i);
    p->position = (char *)SYNTH_POSITION;
    p->solution = (char *)SYNTH_SOLUTION;
    snprintf(p->themes, sizeof p->themes, "%s", i % 3 == 0 ? "short" : "long");
    unsigned long long s = (unsigned long long)i * 7919 + 17;
    p->difficulty = (double)(long)(unit(&s) * 10000) / 10000;
    p->band = p->difficulty < 0.35 ? 0 : p->difficulty < 0.65 ? 1 : 2;
    p->depth = 1 + (int)(i % 2);
    p->rating = (glicko){700 + 2100 * p->difficulty, GLICKO_PUZZLE_RD, GLICKO_START_VOL};
}

/* ---- pool ---------------------------------------------------------------- */

/* One pool thread's share: ids from, from + step, ... below n. */
typedef struct pool_job {
    gj_store *s;
    const char *game;
    long from, step, n, added;
} pool_job;

/* Store a pool_job's puzzles. */
static void *pool_thread(void *arg)
{
    pool_job *j = arg;
    for (long i = j->from; i < j->n; i += j->step) {
        store_puzzle p;
        synth(j->game, i, &p);
        bool added = false;
        gj_error e = {0};
        if (store_put(j->s, &p, &added, &e) != 0)
            die("store_put", &e);
        j->added += added;
    }
    return NULL;
}

/* store_bench pool URL GAME N THREADS */
static int cmd_pool(char **argv)
{
    gj_store *s = open_or_die(argv[0]);
    long n = atol(argv[2]);
    int threads = atoi(argv[3]);
    if (threads < 1 || threads > 64)
        threads = 1;
    pool_job jobs[64];
    pthread_t tid[64];
    double t0 = now_ms();
    for (int t = 0; t < threads; t++) {
        jobs[t] = (pool_job){s, argv[1], t, threads, n, 0};
        pthread_create(&tid[t], NULL, pool_thread, &jobs[t]);
    }
    long added = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        added += jobs[t].added;
    }
    double sec = (now_ms() - t0) / 1e3;
    printf("pool game %s n %ld added %ld seconds %.2f per_second %.0f\n", argv[1], n, added, sec,
           (double)added / sec);
    store_close(s);
    return 0;
}

/* ---- plays --------------------------------------------------------------- */

/* One plays thread: its store handle, its players' prefix, its latencies. */
typedef struct plays_job {
    gj_store *s;
    const char *game;
    int index;
    long long stamp; /* the run's, so no player of an earlier run comes back */
    long pool;
    double until;  /* now_ms() past which it stops */
    double *ms;    /* per store_record */
    size_t n, cap; /* of ms */
    long solved;
} plays_job;

/* Record first attempts until j->until, each by a new player. */
static void *plays_thread(void *arg)
{
    plays_job *j = arg;
    unsigned long long seed = 1000003ULL * (unsigned long long)(j->index + 1);
    while (now_ms() < j->until && j->n < j->cap) {
        store_puzzle p;
        synth(j->game, (long)(mix(&seed) % (unsigned long long)j->pool), &p);
        char player[STORE_PLAYER_MAX];
        snprintf(player, sizeof player, "b%lld-%d-%zu", j->stamp, j->index, j->n);
        bool solved = unit(&seed) < 0.5;
        store_play in = {.puzzle = &p,
                         .player = player,
                         .attempt = solved ? "[{\"row\":1}]" : "[]",
                         .solved = solved,
                         .at_ms = epoch_ms()};
        store_play_result out;
        gj_error e = {0};
        double t0 = now_ms();
        if (store_record(j->s, &in, &out, &e) != 0)
            die("store_record", &e);
        j->ms[j->n++] = now_ms() - t0;
        if (!out.rated || out.repeated) {
            fprintf(stderr, "store_bench: player %s's first attempt was not rated\n", player);
            exit(1);
        }
        j->solved += solved;
    }
    return NULL;
}

/* Sum of plays, and of wins, over the pool's first n puzzles. */
static void pool_counts(gj_store *s, const char *game, long n, long *plays, long *wins)
{
    *plays = *wins = 0;
    for (long i = 0; i < n; i++) {
        store_puzzle p;
        synth(game, i, &p);
        store_puzzle got;
        gj_error e = {0};
        if (store_get(s, game, p.id, &got, &e) != 0) {
            if (e.kind == GJ_NOT_FOUND)
                continue;
            die("store_get", &e);
        }
        *plays += got.plays;
        *wins += got.wins;
        store_puzzle_free(&got);
    }
}

/* store_bench plays URL[,URL...] THREADS SECONDS GAME POOL */
static int cmd_plays(char **argv)
{
    gj_store *stores[8];
    int nstores = 0;
    char *urls = strdup(argv[0]);
    for (char *u = strtok(urls, ","); u != NULL && nstores < 8; u = strtok(NULL, ","))
        stores[nstores++] = open_or_die(u);
    int threads = atoi(argv[1]);
    if (threads < 1 || threads > 64)
        threads = 1;
    double seconds = atof(argv[2]);
    const char *game = argv[3];
    long pool = atol(argv[4]);
    long before_plays, before_wins;
    pool_counts(stores[0], game, pool, &before_plays, &before_wins);
    plays_job jobs[64];
    pthread_t tid[64];
    double t0 = now_ms();
    for (int t = 0; t < threads; t++) {
        size_t cap = 2000000;
        jobs[t] = (plays_job){.s = stores[t % nstores],
                              .game = game,
                              .index = t,
                              .stamp = epoch_ms(),
                              .pool = pool,
                              .until = t0 + seconds * 1e3,
                              .ms = malloc(cap * sizeof(double)),
                              .cap = cap};
        pthread_create(&tid[t], NULL, plays_thread, &jobs[t]);
    }
    size_t total = 0;
    long solved = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        total += jobs[t].n;
        solved += jobs[t].solved;
    }
    double sec = (now_ms() - t0) / 1e3;
    double *all = malloc((total + 1) * sizeof *all);
    size_t k = 0;
    for (int t = 0; t < threads; t++) {
        memcpy(all + k, jobs[t].ms, jobs[t].n * sizeof *all);
        k += jobs[t].n;
        free(jobs[t].ms);
    }
    long after_plays, after_wins;
    pool_counts(stores[0], game, pool, &after_plays, &after_wins);
    bool counted = after_plays - before_plays == (long)total && after_wins - before_wins == solved;
    printf("plays handles %d threads %d plays %zu seconds %.2f per_second %.0f p50_ms %.3f "
           "p99_ms %.3f counted %s\n",
           nstores, threads, total, sec, (double)total / sec, quantile(all, total, 0.5),
           quantile(all, total, 0.99), counted ? "yes" : "NO");
    free(all);
    for (int i = 0; i < nstores; i++)
        store_close(stores[i]);
    free(urls);
    return counted ? 0 : 1;
}

/* ---- next ---------------------------------------------------------------- */

/* store_bench next URL GAME N PLAYERS */
static int cmd_next(char **argv)
{
    gj_store *s = open_or_die(argv[0]);
    const char *game = argv[1];
    long n = atol(argv[2]), players = atol(argv[3]);
    if (n < 1 || players < 1)
        return 2;
    double *ms = malloc((size_t)n * sizeof *ms);
    long long stamp = epoch_ms();
    for (long i = 0; i < n; i++) {
        char player[STORE_PLAYER_MAX];
        long who = i % players;
        snprintf(player, sizeof player, "n%lld-%ld", stamp % 1000000, who);
        store_next_ask a = {.game = game,
                            .player = player,
                            .has_rating = true,
                            .rating = 800 + (double)(who * 1600 / players),
                            .band = -1,
                            .at_ms = epoch_ms()};
        store_puzzle p;
        gj_error e = {0};
        double t0 = now_ms();
        if (store_next(s, &a, &p, &e) != 0)
            die("store_next", &e);
        ms[i] = now_ms() - t0;
        store_puzzle_free(&p);
    }
    long count = 0;
    gj_error e = {0};
    if (store_count(s, game, &count, &e) != 0)
        die("store_count", &e);
    double p50 = quantile(ms, (size_t)n, 0.5), p99 = quantile(ms, (size_t)n, 0.99);
    printf("next pool %ld calls %ld players %ld p50_ms %.3f p99_ms %.3f max_ms %.3f\n", count, n,
           players, p50, p99, ms[n - 1]);
    free(ms);
    store_close(s);
    return 0;
}

/* ---- http ---------------------------------------------------------------- */

/* A response body, kept whole. */
typedef struct body {
    char *data;
    size_t len;
} body;

/* libcurl's write callback: append to the body. */
static size_t keep(char *ptr, size_t size, size_t nmemb, void *ctx)
{
    body *b = ctx;
    size_t n = size * nmemb;
    char *grown = realloc(b->data, b->len + n + 1);
    if (grown == NULL)
        return 0;
    memcpy(grown + b->len, ptr, n);
    b->data = grown;
    b->len += n;
    b->data[b->len] = '\0';
    return n;
}

/* One request on c (a GET when post is NULL): its time in ms, the body in
 * *b; exits unless the status is 200. */
static double request(CURL *c, const char *url, const char *post, body *b)
{
    b->len = 0;
    if (b->data != NULL)
        b->data[0] = '\0';
    curl_easy_setopt(c, CURLOPT_URL, url);
    if (post != NULL)
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, post);
    else
        curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    double t0 = now_ms();
    CURLcode rc = curl_easy_perform(c);
    double ms = now_ms() - t0;
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (rc != CURLE_OK || status != 200) {
        fprintf(stderr, "store_bench: %s %s: %s %ld %s\n", post ? "POST" : "GET", url,
                curl_easy_strerror(rc), status, b->data ? b->data : "");
        exit(1);
    }
    return ms;
}

/* The "id" member's value of a JSON answer into out (cap bytes): 0, or -1. */
static int answer_id(const char *json, char *out, size_t cap)
{
    const char *at = json ? strstr(json, "\"id\":") : NULL;
    if (at == NULL)
        return -1;
    at = strchr(at + 5, '"');
    const char *end = at ? strchr(at + 1, '"') : NULL;
    if (end == NULL || (size_t)(end - at - 1) >= cap)
        return -1;
    memcpy(out, at + 1, (size_t)(end - at - 1));
    out[end - at - 1] = '\0';
    return 0;
}

/* store_bench http BASE KEY GAME N PLAYERS */
static int cmd_http(char **argv)
{
    const char *base = argv[0], *game = argv[2];
    long n = atol(argv[3]), players = atol(argv[4]);
    if (n < 1 || players < 1)
        return 2;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *c = curl_easy_init();
    char keyh[256];
    snprintf(keyh, sizeof keyh, "X-Api-Key: %s", argv[1]);
    struct curl_slist *h = curl_slist_append(NULL, keyh);
    h = curl_slist_append(h, "Content-Type: application/json");
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    body b = {0};
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, keep);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
    long long stamp = epoch_ms() % 1000000;

    /* The puzzles to check: what /next hands out (they are in the store). */
    long nids = players < 200 ? players : 200;
    char(*ids)[STORE_ID_MAX] = calloc((size_t)nids, sizeof *ids);
    char url[4096], post[512];
    for (long i = 0; i < nids; i++) {
        snprintf(url, sizeof url, "%s/puzzle/%s/next?player=h%lld-ids", base, game, stamp);
        request(c, url, NULL, &b);
        if (answer_id(b.data, ids[i], sizeof ids[i]) != 0) {
            fprintf(stderr, "store_bench: no id in %s\n", b.data);
            return 1;
        }
    }
    /* Warm-up: each puzzle checked once, unrated (the result cache). */
    for (long i = 0; i < nids; i++) {
        snprintf(url, sizeof url, "%s/puzzle/%s/%s/check", base, game, ids[i]);
        request(c, url, "{\"moves\":[],\"reveal\":true}", &b);
    }
    double *unrated = malloc((size_t)n * sizeof(double)),
           *rated = malloc((size_t)n * sizeof(double));
    for (long i = 0; i < n; i++) {
        snprintf(url, sizeof url, "%s/puzzle/%s/%s/check", base, game, ids[i % nids]);
        unrated[i] = request(c, url, "{\"moves\":[],\"reveal\":true}", &b);
        snprintf(post, sizeof post, "{\"moves\":[],\"reveal\":true,\"player\":\"h%lld-r%ld\"}",
                 stamp, i);
        rated[i] = request(c, url, post, &b);
        if (strstr(b.data, "\"rated\":true") == NULL) {
            fprintf(stderr, "store_bench: a first attempt was not rated: %s\n", b.data);
            return 1;
        }
    }
    double u50 = quantile(unrated, (size_t)n, 0.5), u99 = quantile(unrated, (size_t)n, 0.99);
    double r50 = quantile(rated, (size_t)n, 0.5), r99 = quantile(rated, (size_t)n, 0.99);
    printf(
        "check n %ld unrated_p50_ms %.3f unrated_p99_ms %.3f rated_p50_ms %.3f rated_p99_ms %.3f "
        "added_p50_ms %.3f added_p99_ms %.3f\n",
        n, u50, u99, r50, r99, r50 - u50, r99 - u99);

    /* /next, then GET /puzzle by id of each puzzle it handed out: the same
     * rebuild from the id (and a read of its stats) without the walk and
     * the served mark, to tell the store's share from the puzzle's. */
    double *next = malloc((size_t)n * sizeof(double)), *byid = malloc((size_t)n * sizeof(double));
    char(*handed)[STORE_ID_MAX] = calloc((size_t)n, sizeof *handed);
    for (long i = 0; i < n; i++) {
        long who = i % players;
        snprintf(url, sizeof url, "%s/puzzle/%s/next?player=h%lld-n%ld&rating=%ld", base, game,
                 stamp, who, 800 + who * 1600 / players);
        next[i] = request(c, url, NULL, &b);
        if (answer_id(b.data, handed[i], sizeof handed[i]) != 0) {
            fprintf(stderr, "store_bench: no id in %s\n", b.data);
            return 1;
        }
    }
    for (long i = 0; i < n; i++) {
        snprintf(url, sizeof url, "%s/puzzle/%s/%s", base, game, handed[i]);
        byid[i] = request(c, url, NULL, &b);
    }
    double n50 = quantile(next, (size_t)n, 0.5), n99 = quantile(next, (size_t)n, 0.99);
    double nmax = next[n - 1];
    double b50 = quantile(byid, (size_t)n, 0.5), b99 = quantile(byid, (size_t)n, 0.99);
    printf("http_next n %ld players %ld p50_ms %.3f p99_ms %.3f max_ms %.3f byid_p50_ms %.3f "
           "byid_p99_ms %.3f\n",
           n, players, n50, n99, nmax, b50, b99);
    free(byid);
    free(handed);
    free(unrated);
    free(rated);
    free(next);
    free(ids);
    free(b.data);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    curl_global_cleanup();
    return 0;
}

/* Dispatch on the subcommand. */
int main(int argc, char **argv)
{
    struct {
        const char *name;
        int args;
        int (*run)(char **argv);
    } cmds[] = {{"pool", 4, cmd_pool},
                {"plays", 5, cmd_plays},
                {"next", 4, cmd_next},
                {"http", 5, cmd_http}};
    for (size_t i = 0; argc >= 2 && i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0 && argc - 2 == cmds[i].args)
            return cmds[i].run(argv + 2);
    fprintf(stderr, "usage: store_bench pool URL GAME N THREADS\n"
                    "       store_bench plays URL[,URL...] THREADS SECONDS GAME POOL\n"
                    "       store_bench next URL GAME N PLAYERS\n"
                    "       store_bench http BASE KEY GAME N PLAYERS\n");
    return 2;
}

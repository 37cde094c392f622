/* storewatch.c - the store's health and pool sizes, kept fresh by one
 * thread (storewatch.h). */
#include "storewatch.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "games.h"
#include "metrics.h"

struct gj_storewatch {
    gj_store *store;
    pthread_t thread;
    bool started;
    pthread_mutex_t lock; /* guards what follows, and `stop` with `wake` */
    pthread_cond_t wake;
    bool stop;
    gj_error health;           /* the last ping: kind GJ_OK, or why it failed */
    long counts[GAMES_COUNT];  /* stored puzzles per game, registry order, as last counted */
    bool counted[GAMES_COUNT]; /* whether counts[i] was ever read */
};

/* Ping the store and keep what it said. */
static void ping(gj_storewatch *w)
{
    gj_error e;
    gj_error_clear(&e);
    if (store_ping(w->store, &e) != 0 && e.kind == GJ_OK)
        gj_fail(&e, GJ_UNAVAILABLE, "the store did not answer and did not say why");
    pthread_mutex_lock(&w->lock);
    w->health = e;
    pthread_mutex_unlock(&w->lock);
}

/* Count each game's stored puzzles and keep the counts that were read; a
 * game whose count failed keeps its last one. */
static void count(gj_storewatch *w)
{
    size_t n;
    const gj_game *const *games = games_all(&n);
    for (size_t i = 0; i < n && i < GAMES_COUNT; i++) {
        long c = 0;
        gj_error e;
        if (store_count(w->store, games[i]->name, &c, &e) != 0)
            continue;
        pthread_mutex_lock(&w->lock);
        w->counts[i] = c;
        w->counted[i] = true;
        pthread_mutex_unlock(&w->lock);
    }
}

/* The thread: a ping each beat, the counts every STOREWATCH_COUNT_MS,
 * until storewatch_stop wakes it. */
static void *watch(void *arg)
{
    gj_storewatch *w = arg;
    long since_count = STOREWATCH_COUNT_MS;
    for (;;) {
        if (since_count >= STOREWATCH_COUNT_MS) {
            count(w);
            since_count = 0;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += STOREWATCH_PING_MS / 1000;
        until.tv_nsec += (STOREWATCH_PING_MS % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_mutex_lock(&w->lock);
        while (!w->stop && pthread_cond_timedwait(&w->wake, &w->lock, &until) == 0)
            ;
        bool stop = w->stop;
        pthread_mutex_unlock(&w->lock);
        if (stop)
            return NULL;
        ping(w);
        since_count += STOREWATCH_PING_MS;
    }
}

gj_storewatch *storewatch_start(gj_store *s, gj_error *e)
{
    gj_storewatch *w = calloc(1, sizeof *w);
    if (w == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    w->store = s;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    ping(w);
    if (pthread_create(&w->thread, NULL, watch, w) != 0) {
        gj_fail(e, GJ_INTERNAL, "cannot start the store's watch thread");
        storewatch_stop(w);
        return NULL;
    }
    w->started = true;
    return w;
}

void storewatch_stop(gj_storewatch *w)
{
    if (w == NULL)
        return;
    if (w->started) {
        pthread_mutex_lock(&w->lock);
        w->stop = true;
        pthread_cond_signal(&w->wake);
        pthread_mutex_unlock(&w->lock);
        pthread_join(w->thread, NULL);
    }
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

int storewatch_health(gj_storewatch *w, gj_error *e)
{
    pthread_mutex_lock(&w->lock);
    *e = w->health;
    pthread_mutex_unlock(&w->lock);
    return e->kind == GJ_OK ? 0 : -1;
}

/* The latency buckets' upper bounds in seconds, store.h's latency_le. */
static const char *const latency_bounds[] = {"0.0005", "0.001", "0.002", "0.005",
                                             "0.01",   "0.05",  "0.25",  "+Inf"};

void storewatch_render(void *arg, gj_buf *out)
{
    gj_storewatch *w = arg;
    store_counters c;
    store_counters_read(w->store, &c);
    metrics_family(out, "gamejudge_store_plays_total", "counter",
                   "Complete attempts the store recorded: rated (a player's first at a puzzle), "
                   "unrated (a later one) and repeated (a retry of a recorded play).");
    metrics_sample(out, "gamejudge_store_plays_total", "result=\"rated\"",
                   (double)c.plays_recorded);
    metrics_sample(out, "gamejudge_store_plays_total", "result=\"unrated\"",
                   (double)c.plays_unrated);
    metrics_sample(out, "gamejudge_store_plays_total", "result=\"repeated\"",
                   (double)c.plays_repeated);
    metrics_family(out, "gamejudge_store_rating_updates_total", "counter",
                   "Ratings the store updated: a player's and a puzzle's per rated play.");
    metrics_sample(out, "gamejudge_store_rating_updates_total", "", 2.0 * (double)c.plays_recorded);
    metrics_family(out, "gamejudge_store_served_total", "counter",
                   "Puzzles handed out by GET /puzzle/{game}/next.");
    metrics_sample(out, "gamejudge_store_served_total", "", (double)c.served);
    metrics_family(out, "gamejudge_store_errors_total", "counter",
                   "Store calls that failed for the store's sake (unreachable, read-only, full).");
    metrics_sample(out, "gamejudge_store_errors_total", "", (double)c.errors);
    metrics_family(out, "gamejudge_store_seconds", "histogram",
                   "Time of each store call, its transaction included.");
    for (size_t i = 0; i < sizeof latency_bounds / sizeof latency_bounds[0]; i++) {
        char labels[32];
        snprintf(labels, sizeof labels, "le=\"%s\"", latency_bounds[i]);
        metrics_sample(out, "gamejudge_store_seconds_bucket", labels, c.latency_le[i]);
    }
    metrics_sample(out, "gamejudge_store_seconds_sum", "", c.seconds);
    metrics_sample(out, "gamejudge_store_seconds_count", "", (double)c.calls);

    gj_error e;
    metrics_family(out, "gamejudge_store_up", "gauge",
                   "1 when the store answered its last ping (each second), else 0.");
    metrics_sample(out, "gamejudge_store_up", "", storewatch_health(w, &e) == 0 ? 1 : 0);
    metrics_family(out, "gamejudge_store_puzzles", "gauge",
                   "Stored puzzles per game, counted every 15 seconds.");
    size_t n;
    const gj_game *const *games = games_all(&n);
    pthread_mutex_lock(&w->lock);
    for (size_t i = 0; i < n && i < GAMES_COUNT; i++) {
        if (!w->counted[i])
            continue;
        char labels[64];
        snprintf(labels, sizeof labels, "game=\"%s\"", games[i]->name);
        metrics_sample(out, "gamejudge_store_puzzles", labels, (double)w->counts[i]);
    }
    pthread_mutex_unlock(&w->lock);
}

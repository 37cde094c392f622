/* metrics.c - lock-free counters and latency histograms.
 *
 * Histogram buckets are cumulative only when rendered: each observation
 * increments the one bucket it falls in, and render sums them, so an
 * observation costs one atomic add instead of one per bucket.
 *
 * Every counter is kept once per shard, and each thread adds to the shard
 * it was given when it first counted (round-robin): the I/O threads, which
 * count every request, then never pass a cache line between them, and
 * render sums the shards. */
#include "metrics.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"

#ifndef GJ_VERSION
#define GJ_VERSION "0.0.0"
#endif

#define MAX_SERIES_GAMES (GAMES_COUNT + 1) /* the registry plus "none" */

/* The statuses given to metrics_create, plus "other". */
#define NSTATUS      (METRICS_STATUSES_MAX + 1)
#define MAX_SECTIONS 4

/* Upper bounds in seconds; the last bucket is +Inf. */
static const double bounds[] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                0.05,   0.1,     0.25,   0.5,   1,      2.5,   5,    10};
#define NBUCKET (sizeof bounds / sizeof bounds[0] + 1)

typedef struct histogram {
    atomic_ulong bucket[NBUCKET];
    atomic_ulong count;
    atomic_ulong sum_ns;
} histogram;

/* Room for the I/O threads of a small machine; past it threads share a
 * shard, which stays exact and is only contended again. */
#define NSHARD 8

/* One thread's counters (or a few threads' past NSHARD), on cache lines
 * of their own. */
typedef struct shard {
    _Alignas(64) atomic_ulong requests[MAX_SERIES_GAMES][NSTATUS];
    atomic_ulong bytes_in, bytes_out;
    histogram parse[MAX_SERIES_GAMES], solve[MAX_SERIES_GAMES];
    atomic_ulong job_events[JOB_NEVENTS];
} shard;

struct gj_metrics {
    shard shards[NSHARD];
    int statuses[METRICS_STATUSES_MAX]; /* the series' statuses, ascending */
    size_t nstatuses;                   /* slot nstatuses is "other" */
    size_t ngames;
    const gj_game *const *games;
    metrics_section sections[MAX_SECTIONS]; /* other layers' families, rendered last */
    void *section_ctx[MAX_SECTIONS];
    size_t nsections;
};

gj_metrics *metrics_create(const int *statuses, size_t nstatuses)
{
    if (nstatuses > METRICS_STATUSES_MAX)
        return NULL;
    gj_metrics *m = aligned_alloc(_Alignof(gj_metrics), sizeof *m); /* a multiple of it */
    if (m == NULL)
        return NULL;
    memset(m, 0, sizeof *m);
    m->games = games_all(&m->ngames);
    memcpy(m->statuses, statuses, nstatuses * sizeof statuses[0]);
    m->nstatuses = nstatuses;
    return m;
}

int metrics_add_section(gj_metrics *m, metrics_section render, void *ctx)
{
    if (m->nsections == MAX_SECTIONS)
        return -1;
    m->sections[m->nsections] = render;
    m->section_ctx[m->nsections++] = ctx;
    return 0;
}

void metrics_free(gj_metrics *m)
{
    free(m);
}

/* The calling thread's shard of m: the same one for as long as it runs. */
static shard *my_shard(gj_metrics *m)
{
    static atomic_uint next;
    static _Thread_local int mine = -1;
    if (mine < 0)
        mine = (int)(atomic_fetch_add_explicit(&next, 1, memory_order_relaxed) % NSHARD);
    return &m->shards[mine];
}

/* The sum over m's shards of the counter `at` points to in shard 0. */
static unsigned long sum_shards(const gj_metrics *m, const atomic_ulong *at)
{
    size_t offset = (size_t)((const char *)at - (const char *)&m->shards[0]);
    unsigned long n = 0;
    for (size_t i = 0; i < NSHARD; i++)
        n += atomic_load_explicit((const atomic_ulong *)((const char *)&m->shards[i] + offset),
                                  memory_order_relaxed);
    return n;
}

/* Index of g in the registry; ngames stands for "none". */
static size_t game_slot(const gj_metrics *m, const gj_game *g)
{
    for (size_t i = 0; g != NULL && i < m->ngames; i++)
        if (m->games[i] == g)
            return i;
    return m->ngames;
}

/* Index of status in m->statuses, or the slot after them ("other") for any
 * status not listed (0: the request ended with no answer sent). */
static size_t status_slot(const gj_metrics *m, int status)
{
    size_t i = 0;
    while (i < m->nstatuses && m->statuses[i] != status)
        i++;
    return i;
}

void metrics_request(gj_metrics *m, const gj_game *g, int status, size_t bytes_in, size_t bytes_out)
{
    shard *sh = my_shard(m);
    atomic_fetch_add_explicit(&sh->requests[game_slot(m, g)][status_slot(m, status)], 1,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&sh->bytes_in, bytes_in, memory_order_relaxed);
    atomic_fetch_add_explicit(&sh->bytes_out, bytes_out, memory_order_relaxed);
}

/* Count one duration of ms milliseconds in h: its one bucket, the count and the sum. */
static void observe(histogram *h, double ms)
{
    double seconds = ms / 1000;
    size_t b = 0;
    while (b < NBUCKET - 1 && seconds > bounds[b])
        b++;
    atomic_fetch_add_explicit(&h->bucket[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->sum_ns, (unsigned long)(ms * 1e6), memory_order_relaxed);
}

void metrics_solve_times(gj_metrics *m, const gj_game *g, double parse_ms, double solve_ms)
{
    size_t slot = game_slot(m, g);
    shard *sh = my_shard(m);
    observe(&sh->parse[slot], parse_ms);
    observe(&sh->solve[slot], solve_ms);
}

void metrics_job_event(gj_metrics *m, metrics_job_event_kind k)
{
    atomic_fetch_add_explicit(&my_shard(m)->job_events[k], 1, memory_order_relaxed);
}

/* The game label of a series slot: the game's name, or "none" for the slot past the registry. */
static const char *game_label(const gj_metrics *m, size_t slot)
{
    return slot < m->ngames ? m->games[slot]->name : "none";
}

/* Append a metric family's # HELP and # TYPE lines (Prometheus text format). */
static void put_header(gj_buf *out, const char *name, const char *type, const char *help)
{
    char line[256];
    snprintf(line, sizeof line, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
    buf_puts(out, line);
}

/* Append one sample line, name{labels} value (no braces when labels is ""). */
static void put_sample(gj_buf *out, const char *name, const char *labels, double value)
{
    char line[320];
    snprintf(line, sizeof line, "%s%s%s%s %.9g\n", name, labels[0] ? "{" : "", labels,
             labels[0] ? "}" : "", value);
    buf_puts(out, line);
}

/* Append the scheduling counters: jobs by lane, dropped, and cancelled. */
static void render_job_events(gj_metrics *m, gj_buf *out)
{
    static const struct {
        const char *name, *labels;
    } rows[JOB_NEVENTS] = {
        [JOB_LANE_IO] = {"gamejudge_jobs_lane_total", "lane=\"io\""},
        [JOB_LANE_FAST] = {"gamejudge_jobs_lane_total", "lane=\"fast\""},
        [JOB_LANE_HEAVY] = {"gamejudge_jobs_lane_total", "lane=\"heavy\""},
        [JOB_DROPPED_ABANDONED] = {"gamejudge_jobs_dropped_total", "reason=\"abandoned\""},
        [JOB_DROPPED_LATE] = {"gamejudge_jobs_dropped_total", "reason=\"late\""},
        [JOB_CANCELLED_GONE] = {"gamejudge_jobs_cancelled_total", "reason=\"gone\""},
        [JOB_CANCELLED_DEADLINE] = {"gamejudge_jobs_cancelled_total", "reason=\"deadline\""},
    };
    put_header(out, "gamejudge_jobs_lane_total", "counter",
               "POST jobs by where they ran: io (solved on the I/O thread), fast, heavy lane.");
    for (int k = JOB_LANE_IO; k <= JOB_LANE_HEAVY; k++)
        put_sample(out, rows[k].name, rows[k].labels,
                   (double)sum_shards(m, &m->shards[0].job_events[k]));
    put_header(out, "gamejudge_jobs_dropped_total", "counter",
               "Queued jobs dropped before they started: the client had gone (abandoned) or "
               "the request timeout had passed (late).");
    for (int k = JOB_DROPPED_ABANDONED; k <= JOB_DROPPED_LATE; k++)
        put_sample(out, rows[k].name, rows[k].labels,
                   (double)sum_shards(m, &m->shards[0].job_events[k]));
    put_header(out, "gamejudge_jobs_cancelled_total", "counter",
               "Running solves stopped: the client had gone, or the request timeout passed.");
    for (int k = JOB_CANCELLED_GONE; k <= JOB_CANCELLED_DEADLINE; k++)
        put_sample(out, rows[k].name, rows[k].labels,
                   (double)sum_shards(m, &m->shards[0].job_events[k]));
}

/* Append histogram family `name` from hs[] (shard 0's, summed over the
 * shards), one series per game (not "none": only solves are timed),
 * summing the buckets into cumulative ones. */
static void render_histogram(gj_metrics *m, histogram *hs, const char *name, const char *help,
                             gj_buf *out)
{
    char series[64], labels[160];
    put_header(out, name, "histogram", help);
    for (size_t g = 0; g < m->ngames; g++) {
        histogram *h = &hs[g];
        unsigned long cumulative = 0;
        snprintf(series, sizeof series, "%s_bucket", name);
        for (size_t b = 0; b < NBUCKET; b++) {
            cumulative += sum_shards(m, &h->bucket[b]);
            if (b < NBUCKET - 1)
                snprintf(labels, sizeof labels, "game=\"%s\",le=\"%g\"", game_label(m, g),
                         bounds[b]);
            else
                snprintf(labels, sizeof labels, "game=\"%s\",le=\"+Inf\"", game_label(m, g));
            put_sample(out, series, labels, (double)cumulative);
        }
        snprintf(labels, sizeof labels, "game=\"%s\"", game_label(m, g));
        snprintf(series, sizeof series, "%s_sum", name);
        put_sample(out, series, labels, (double)sum_shards(m, &h->sum_ns) / 1e9);
        snprintf(series, sizeof series, "%s_count", name);
        put_sample(out, series, labels, (double)sum_shards(m, &h->count));
    }
}

/* Append requests_total for every game (and "none") and status, then rejected_total, the
 * sum of their 503s. */
static void render_requests(gj_metrics *m, gj_buf *out)
{
    char labels[160], status[8];
    put_header(out, "gamejudge_requests_total", "counter",
               "Requests answered, by game (none: not a solve) and HTTP status.");
    for (size_t g = 0; g <= m->ngames; g++)
        for (size_t s = 0; s <= m->nstatuses; s++) {
            if (s < m->nstatuses)
                snprintf(status, sizeof status, "%d", m->statuses[s]);
            else
                snprintf(status, sizeof status, "other");
            snprintf(labels, sizeof labels, "game=\"%s\",status=\"%s\"", game_label(m, g), status);
            put_sample(out, "gamejudge_requests_total", labels,
                       (double)sum_shards(m, &m->shards[0].requests[g][s]));
        }
    put_header(out, "gamejudge_rejected_total", "counter",
               "Requests answered 503: no queue place, or waited in the queue past the request "
               "timeout.");
    unsigned long rejected = 0;
    for (size_t g = 0; g <= m->ngames; g++)
        rejected += sum_shards(m, &m->shards[0].requests[g][status_slot(m, 503)]);
    put_sample(out, "gamejudge_rejected_total", "", (double)rejected);
}

/* Zeros with the cache off, so dashboards see the same series. */
static void render_cache(const cache_stats *c, gj_buf *out)
{
    static const cache_stats off;
    const struct {
        const char *name, *type, *help;
        unsigned long long value;
    } rows[] = {
        {"gamejudge_cache_hits_total", "counter", "Solves answered from the result cache.",
         c ? c->hits : off.hits},
        {"gamejudge_cache_misses_total", "counter", "Solves the result cache did not hold.",
         c ? c->misses : off.misses},
        {"gamejudge_cache_waits_total", "counter",
         "Solves that waited for an identical solve in progress instead of repeating it.",
         c ? c->waits : off.waits},
        {"gamejudge_cache_evictions_total", "counter",
         "Answers dropped from the result cache to stay within --cache-bytes.",
         c ? c->evictions : off.evictions},
        {"gamejudge_cache_entries", "gauge", "Answers in the result cache.",
         c ? c->entries : off.entries},
        {"gamejudge_cache_bytes", "gauge",
         "Bytes the result cache holds (keys, answers, overhead).", c ? c->bytes : off.bytes},
        {"gamejudge_cache_budget_bytes", "gauge", "The result cache's budget (--cache-bytes).",
         c ? c->budget : off.budget},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        put_header(out, rows[i].name, rows[i].type, rows[i].help);
        put_sample(out, rows[i].name, "", (double)rows[i].value);
    }
}

void metrics_render(gj_metrics *m, const metrics_gauges *gauges, gj_buf *out)
{
    put_header(out, "gamejudge_build_info", "gauge", "The running build; always 1.");
    put_sample(out, "gamejudge_build_info", "version=\"" GJ_VERSION "\"", 1);
    render_requests(m, out);
    put_header(out, "gamejudge_received_bytes_total", "counter", "Request body bytes read.");
    put_sample(out, "gamejudge_received_bytes_total", "",
               (double)sum_shards(m, &m->shards[0].bytes_in));
    put_header(out, "gamejudge_sent_bytes_total", "counter", "Response body bytes sent.");
    put_sample(out, "gamejudge_sent_bytes_total", "",
               (double)sum_shards(m, &m->shards[0].bytes_out));
    render_histogram(m, m->shards[0].parse, "gamejudge_parse_seconds",
                     "Time to parse a position, by game.", out);
    render_histogram(m, m->shards[0].solve, "gamejudge_solve_seconds",
                     "Time to solve a parsed position, by game.", out);
    render_job_events(m, out);
    put_header(out, "gamejudge_queue_depth", "gauge", "Solves waiting for a worker.");
    put_sample(out, "gamejudge_queue_depth", "", gauges->queued);
    put_header(out, "gamejudge_queue_capacity", "gauge", "Solves that may wait before 503.");
    put_sample(out, "gamejudge_queue_capacity", "", gauges->queue_capacity);
    put_header(out, "gamejudge_workers_busy", "gauge", "Workers solving now.");
    put_sample(out, "gamejudge_workers_busy", "", gauges->busy);
    put_header(out, "gamejudge_workers", "gauge", "Worker threads.");
    put_sample(out, "gamejudge_workers", "", gauges->workers);
    put_header(out, "gamejudge_requests_in_flight", "gauge",
               "Requests received and not yet answered.");
    put_sample(out, "gamejudge_requests_in_flight", "", (double)gauges->in_flight);
    put_header(out, "gamejudge_deadline_closed_total", "counter",
               "Connections closed for not completing a request within --request-timeout.");
    put_sample(out, "gamejudge_deadline_closed_total", "", (double)gauges->reaped);
    put_header(out, "gamejudge_ready", "gauge", "1 while accepting work, 0 while draining.");
    put_sample(out, "gamejudge_ready", "", gauges->ready);
    render_cache(gauges->cache, out);
    for (size_t i = 0; i < m->nsections; i++)
        m->sections[i](m->section_ctx[i], out);
}

void metrics_family(gj_buf *out, const char *name, const char *type, const char *help)
{
    put_header(out, name, type, help);
}

void metrics_sample(gj_buf *out, const char *name, const char *labels, double value)
{
    put_sample(out, name, labels, value);
}

/* metrics.h - counters and histograms for GET /metrics (Prometheus text
 * format 0.0.4).
 *
 * Every update is a relaxed atomic add on a fixed array slot, so threads
 * record without locks; a scrape reads each slot once.  Series are fixed
 * at start-up: games from the registry (plus "none" for requests that are
 * not solves) times the statuses the service answers. */
#ifndef GJ_METRICS_H
#define GJ_METRICS_H

#include <stddef.h>

#include "buf.h"
#include "cache.h"
#include "game.h"

typedef struct gj_metrics gj_metrics;

/* The most statuses a request series may have. */
#define METRICS_STATUSES_MAX 32

/* Metrics whose request series count `statuses` (ascending, each once, at
 * most METRICS_STATUSES_MAX: every status the service answers, which the
 * HTTP layer knows) and "other"; NULL when out of memory or too many. */
gj_metrics *metrics_create(const int *statuses, size_t nstatuses);

/* A family rendered by another layer (the quotas, the memory budget). */
typedef void (*metrics_section)(void *ctx, gj_buf *out);

/* Render `render` with ctx after the service's own families on every
 * scrape; -1 when the (small, fixed) table of sections is full. */
int metrics_add_section(gj_metrics *m, metrics_section render, void *ctx);

void metrics_free(gj_metrics *m);

/* One finished request: its game (NULL when not a solve), status, and the
 * bytes it brought and took away. */
void metrics_request(gj_metrics *m, const gj_game *g, int status, size_t bytes_in,
                     size_t bytes_out);

/* Parse and solve times of one solve, in milliseconds. */
void metrics_solve_times(gj_metrics *m, const gj_game *g, double parse_ms, double solve_ms);

/* Scheduling events: where a pool route's job went, and jobs dropped
 * before they started or stopped while running (jobs.h). */
typedef enum metrics_job_event_kind {
    JOB_LANE_IO,
    JOB_LANE_FAST,
    JOB_LANE_HEAVY,
    JOB_DROPPED_ABANDONED,
    JOB_DROPPED_LATE,
    JOB_CANCELLED_GONE,
    JOB_CANCELLED_DEADLINE,
    JOB_NEVENTS
} metrics_job_event_kind;

/* Count one scheduling event. */
void metrics_job_event(gj_metrics *m, metrics_job_event_kind k);

/* The gauges read at scrape time. */
typedef struct metrics_gauges {
    int queued, busy, workers, queue_capacity;
    long in_flight;
    int ready;
    unsigned long reaped;     /* connections cut off by the request deadline */
    const cache_stats *cache; /* NULL with the cache off */
} metrics_gauges;

/* Append the whole exposition to out. */
void metrics_render(gj_metrics *m, const metrics_gauges *g, gj_buf *out);

/* For modules that render their own families (budget.c, quota.c): a
 * family's # HELP and # TYPE lines, and one sample (labels "" for none). */
void metrics_family(gj_buf *out, const char *name, const char *type, const char *help);
void metrics_sample(gj_buf *out, const char *name, const char *labels, double value);

#endif

/* jobs.h - a job: one request's work, whichever thread runs it.
 *
 * Every route's handler (endpoints.h) takes a job: the request's game,
 * media and body in, and the answer or the error out.  Where a job goes
 * from the HTTP front to its answer is told once, in docs/ARCHITECTURE.md
 * ("The life of POST /solve/grid-walk"); what it promises is here:
 *
 *   - the caller fills the inputs and `done`, and keeps the body valid
 *     until done() runs;
 *   - done() runs exactly once however the job ends (answered, refused,
 *     dropped before it started, stopped by its cancel flag): before the
 *     handler returns, or for a batch on whichever worker finishes the
 *     last item;
 *   - when it runs, work_ms holds every thread's time on the job (the
 *     estimate, the handler, each batch item), which the front charges to
 *     the client's quota even when nobody reads the answer. */
#ifndef GJ_JOBS_H
#define GJ_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis_read.h"
#include "buf.h"
#include "cache.h"
#include "cancel.h"
#include "clock.h"
#include "error.h"
#include "etag.h"
#include "game.h"
#include "grant.h"
#include "media.h"
#include "runtime.h"

typedef struct job job;
typedef void (*job_done)(job *j);
typedef void (*job_handler)(job *j);

/* The conditional-request and caching state of a job on a cacheable route
 * (the row's `cacheable`, router.h): the HTTP front hands such a job one
 * of its own (j->tag) and reads it back for the ETag, Cache-Control and 304;
 * every other route's job has none. */
typedef struct job_tag {
    const char *if_none_match; /* the request's If-None-Match, or NULL */
    char etag[ETAG_MAX];       /* the answer's tag (etag.h), or "" */
    bool not_modified;         /* If-None-Match matched etag (the answer is kept for its length) */
    long cache_seconds;        /* -1: the route's caching; 0: no cache may keep it;
                                * else how long a shared cache may keep the tagged answer */
} job_tag;

/* Ends a route's own state (j->route_state): frees it and sets it NULL. */
typedef void (*job_route_free)(job *j);

struct job {
    /* Set by the caller. */
    gj_runtime *rt;
    const gj_game *game; /* the per-game routes */
    media_kind input, output;
    const char *body;
    size_t len;
    const char *arg;              /* the path's argument (router.h: a puzzle id), or "" */
    const char *query;            /* the query as sent (after '?'), or NULL: the pages' */
    const char *origin;           /* where visitors reach the service, scheme://host[:port]
                                   * (--public-origin, else from the request's Host), or NULL */
    bool origin_from_host;        /* origin came from this request's Host */
    bool by_key;                  /* the client holds an --api-keys key (the site's backend) */
    const char *idempotency_key;  /* the Idempotency-Key header as sent, or NULL (unchecked) */
    job_tag *tag;                 /* a cacheable route's (above), or NULL */
    unsigned long long queued_ns; /* when it was queued for a worker; 0 on the I/O thread */
    job_done done;
    void *ctx;
    tracked *peer; /* the client's connection, NULL when untracked */
    /* The memory the work takes as it writes and parses (grant.h), bound
     * while the handler and its steps run, charged by the caller's take
     * and hold; take NULL: nothing is charged. */
    gj_grant grant;
    /* A body read as it arrived by the game's reader (game.h's read_json
     * or read_text), or into its JSON tree on a tree_body row (router.h),
     * or into both on an analysis_body row of a game that reads analyses
     * (analysis_read.h): body is then empty, and the route takes pos, tree
     * or read_analysis instead of parsing it (all NULL: body_error says
     * why; body_read_ms is the reader's time).  jobs_release frees what is
     * left untaken. */
    bool body_read;
    void *pos;
    struct json_t *tree;
    analysis_body *read_analysis;
    gj_error body_error;
    double body_read_ms;

    /* Kept by the lifecycle (jobs.c). */
    double estimate_ms;        /* the I/O thread's time on the route's estimate (jobs_triage) */
    gj_cancel cancel;          /* a queued job's stop flag (cancel.h) */
    int abandoned;             /* the client left: dropped or stopped for it */
    job_done then;             /* the caller's done, which jobs_start wraps to count work */
    unsigned long long own_ns; /* when the handler's thread began counting, 0 once counted */

    /* The route's own (its endpoint's file says what): set by its estimate
     * or handler, which takes it back; jobs_release ends what is left with
     * route_free, so a job dropped or refused before its handler ran leaks
     * nothing. */
    void *route_state;
    job_route_free route_free;
    /* The bytes the handler's solve will hold beyond the body, found by
     * the route's estimate (game.h's work_bytes), 0 when unknown: the
     * front charges them to the memory budget before the job runs. */
    size_t work_bytes;
    /* NULL; or the front could not charge work_bytes (the budget is busy)
     * and the job may give only a cached answer, which needs none of that
     * memory: a miss fails with this error (jobs_cached, endpoint_solve). */
    const gj_error *only_cached;

    /* Filled before done(). */
    gj_error error;    /* kind GJ_OK, or why the job failed (its HTTP status too) */
    int ok_status;     /* without an error: 200, or 503 from /readyz while draining */
    const char *type;  /* without an error: the answer's content type */
    bool no_store;     /* no cache may keep the answer (it names this request's Host) */
    gj_buf answer;     /* without an error, the answer ... */
    const char *fixed; /* ... or, when not NULL, this static one */
    size_t fixed_len;
    solve_timing t;             /* parse/solve/write, zero where they do not apply */
    cache_result how;           /* what the result cache did: CACHE_BYPASS where none was asked */
    unsigned long long wait_ns; /* how long it waited for a worker */
    double work_ms;             /* every thread's time for the request, its estimate included:
                                 * what the client's quota is charged however the job ends */
};

/* Where a job runs, by its estimated solve time.  The bounds are stated
 * (docs/reliability.md): bodies up to JOBS_TRIAGE_MAX_BODY are estimated
 * on the I/O thread (a parse of a few tens of microseconds); a job
 * estimated at most JOBS_HERE_MAX_US runs there too, one at most
 * JOBS_FAST_MAX_US on the fast lane (pool.h), anything else (and every
 * route without an estimate, and every job while the test hold hook is
 * on) on the heavy lane. */
typedef enum job_lane { JOB_HERE, JOB_FAST, JOB_HEAVY } job_lane;
#define JOBS_TRIAGE_MAX_BODY 16384
#define JOBS_HERE_MAX_US     200.0
#define JOBS_FAST_MAX_US     10000.0

/* A route's estimate of its job (router.h): keeps what it found in
 * j->route_state as it likes (with route_free) and returns the job's lane;
 * a job it cannot estimate is JOB_HEAVY.  Its time is counted as work. */
typedef job_lane (*job_estimate)(job *j);

/* Choose j's lane with the route's `estimate` (NULL: none), within the
 * bounds above, timing the estimate into j->estimate_ms.  The job's inputs
 * must be set.  A body already read into a position (body_read) is
 * estimated whatever its size: its parse is done. */
job_lane jobs_triage(job *j, job_estimate estimate);

/* The lane of a job estimated at cost_us microseconds. */
job_lane jobs_lane_for(double cost_us);

/* End the route's state that is left (route_free) and free a read
 * position or tree left untaken, for a job that will not be started or
 * whose handler did not take them. */
void jobs_release(job *j);

/* The body's tree read as it arrived (body_read on a tree_body row), the
 * caller's to release; NULL with j->error set to the reader's refusal. */
struct json_t *jobs_take_tree(job *j);

/* The body read as it arrived on an analysis_body row (router.h), the
 * caller's to release; NULL when it was read into a tree instead, or with
 * j->error set to the reader's refusal when it was not read at all. */
analysis_body *jobs_take_analysis(job *j);

/* Run `handler` on j (see above). */
void jobs_start(job *j, job_handler handler);

/* The limits in force for game g (settings.h). */
const long *jobs_limits(const job *j, const gj_game *g);

/* Around a handler's solving: bind the job's cancel flag to this thread
 * and let the tracker raise it when the client goes; then unbind it and
 * count a stop.  Jobs on the I/O thread are not watched. */
void jobs_watch(job *j);
void jobs_unwatch(job *j);

/* Settle the job after a step that returned rc (0, or -1 with j->error;
 * an answer that ran out of memory fails too) and hand it back: done(). */
void jobs_finish(job *j, int rc);

/* A handler's one step, timed as the job's solve, watched, and under the
 * job's grant (bound to this thread): rc = step(j, arg); a failure that
 * said nothing becomes "GAME: the WHAT failed without saying why"; then
 * jobs_finish. */
void jobs_run_step(job *j, const char *what, int (*step)(job *j, void *arg), void *arg);

/* The answer of `key` through the result cache: a hit is copied into
 * j->answer, a miss is made by make(j, arg) (0, or -1 with j->error) into
 * j->answer and kept.  Concurrent jobs with one key make it once.  With
 * j->only_cached, a miss is that error and nothing is made.  0, or -1
 * with j->error. */
int jobs_cached(job *j, const void *key, size_t len, int (*make)(job *j, void *arg), void *arg);

/* Milliseconds since *since, which is then zeroed (0: nothing to count). */
double jobs_take_ms(unsigned long long *since);

#endif

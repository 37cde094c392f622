/* jobs.h - the work behind each POST route, run on a worker thread.
 *
 *   solve    the game's parse -> solve -> write, through the result cache
 *   analyze  the game's analyze() on a mid-play position (JSON)
 *   judge    solve the judge input, compare the submitted output (judge.h)
 *   batch    every item spread over the pool, answered in order
 *
 * The caller fills the job's inputs and `done`; jobs_run fills the result
 * and calls done(job) exactly once: before it returns, or for a batch on
 * whichever worker finishes the last item.  Nothing here knows about
 * connections; the body must stay valid until done() runs. */
#ifndef GJ_JOBS_H
#define GJ_JOBS_H

#include <stddef.h>

#include "buf.h"
#include "cache.h"
#include "config.h"
#include "error.h"
#include "errors.h"
#include "media.h"
#include "metrics.h"
#include "pool.h"
#include "route.h"
#include "solve.h"

typedef struct job job;
typedef void (*job_done)(job *j);

struct job {
    /* Set by the caller. */
    const gj_config *cfg;
    gj_pool *pool;
    gj_cache *cache; /* NULL: no cache */
    gj_metrics *metrics;
    route_kind kind;
    const gj_game *game; /* the per-game routes */
    media_kind input, output;
    const char *body;
    size_t len;
    job_done done;
    void *ctx;

    /* Filled before done(). */
    gj_error error;   /* kind GJ_OK, or why the job failed (its HTTP status too) */
    gj_buf answer;    /* without an error; media: output (always JSON but solve) */
    solve_timing t;   /* parse/solve/write, zero where they do not apply */
    solve_cached how; /* solve and judge: what the cache did */
};

void jobs_run(job *j);

#endif

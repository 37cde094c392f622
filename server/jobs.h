/* jobs.h - a job: one request's work, whichever thread runs it.
 *
 * Every route's handler (routes.h) takes a job: the request's game, media
 * and body in, and the answer or the error out.  The HTTP front fills the
 * inputs and `done`, then calls jobs_triage, which says where a pool
 * route's job runs (for a solve with a small body: parsed here and its
 * cost estimated with the game's cost_us), then jobs_start on the I/O
 * thread or on a worker of that lane.  Before a queued job starts,
 * jobs_start drops it when its client has closed the connection (the
 * peer, conntrack.h) or it waited past --request-timeout (503: nobody
 * should wait for so late an answer), else runs the handler, which fills
 * the result and calls done(job) exactly once: before it returns, or for a
 * batch on whichever worker finishes the last item.  While a queued job's
 * solve runs, its cancel flag is bound to the thread and watched by the
 * tracker, so the solve stops (GJ_CANCELLED) when the client leaves or the
 * deadline (queued + --request-timeout) passes.  The body must stay valid
 * until done() runs.  When done() runs, work_ms holds the time every
 * thread spent on the job (the I/O thread's parse ahead, the handler, each
 * batch item), whether it was answered, refused, dropped or stopped: the
 * HTTP front charges it to the client's quota even when nobody reads the
 * answer.
 *
 * The handlers of the POST routes live here:
 *   jobs_solve    the game's parse -> solve -> write, through the result cache
 *   jobs_analyze  the game's analyze() on a mid-play position (JSON), with
 *                 its perfect-play line when asked (line.h), through the
 *                 result cache keyed on the request's canonical form
 *   jobs_move     the engine's move at a level (engine.h)
 *   jobs_judge    solve the judge input, compare the submitted output (judge.h);
 *                 a test set ("cases") is spread over the pool as a batch is
 *   jobs_batch    every item (a position, or a submission to judge) spread
 *                 over the pool, answered in order */
#ifndef GJ_JOBS_H
#define GJ_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"
#include "cancel.h"
#include "buf.h"
#include "error.h"
#include "etag.h"
#include "game.h"
#include "media.h"
#include "solve.h"

typedef struct job job;
typedef void (*job_done)(job *j);
typedef void (*job_handler)(job *j);

struct job {
    /* Set by the caller. */
    gj_app *app;
    const gj_game *game; /* the per-game routes */
    media_kind input, output;
    const char *body;
    size_t len;
    unsigned long long queued_ns; /* when it was queued for a worker; 0 on the I/O thread */
    job_done done;
    void *ctx;
    tracked *peer; /* the client's connection, NULL when untracked */

    /* Set by jobs_triage: a solve parsed ahead on the I/O thread. */
    int parsed;                /* 1 when pos / parse_error are the parse's outcome */
    void *pos;                 /* the position, owned until the solve takes it */
    gj_error parse_error;      /* why pos is NULL */
    double parse_ms;           /* the parse's time */
    double cost_us;            /* the game's estimate, -1 when not parsed */
    gj_cancel cancel;          /* a queued job's stop flag (cancel.h) */
    int abandoned;             /* the client left: dropped or stopped for it */
    const char *if_none_match; /* solve, analyze: the request's If-None-Match, or NULL */
    job_done then;             /* the caller's done, which jobs_start wraps to count work */
    unsigned long long own_ns; /* when the handler's thread began counting, 0 once counted */

    /* Filled before done(). */
    gj_error error;    /* kind GJ_OK, or why the job failed (its HTTP status too) */
    int ok_status;     /* without an error: 200, or 503 from /readyz while draining */
    const char *type;  /* without an error: the answer's content type */
    gj_buf answer;     /* without an error, the answer ... */
    const char *fixed; /* ... or, when not NULL, this static one */
    size_t fixed_len;
    solve_timing t;             /* parse/solve/write, zero where they do not apply */
    solve_cached how;           /* solve and judge: what the cache did */
    unsigned long long wait_ns; /* how long it waited for a worker */
    char etag[ETAG_MAX];        /* solve, analyze: the answer's tag (etag.h), or "" */
    bool not_modified;          /* If-None-Match matched etag (the answer is kept for its length) */
    double work_ms;             /* every thread's time for the request, its parse ahead included:
                                 * what the client's quota is charged however the job ends */
};

/* Where a job runs, by its estimated solve time.  The bounds are stated
 * (docs/reliability.md): bodies up to JOBS_TRIAGE_MAX_BODY are parsed on
 * the I/O thread (a few tens of microseconds); a solve estimated at most
 * JOBS_HERE_MAX_US runs there too, one at most JOBS_FAST_MAX_US on the
 * fast lane (pool.h), anything else (and every other route, and every
 * solve while the test hold hook is on) on the heavy lane. */
typedef enum job_lane { JOB_HERE, JOB_FAST, JOB_HEAVY } job_lane;
#define JOBS_TRIAGE_MAX_BODY 16384
#define JOBS_HERE_MAX_US     200.0
#define JOBS_FAST_MAX_US     10000.0

/* Choose j's lane (see above); `estimable` is the route's (routes.h: a
 * solve, whose position jobs_solve takes as parsed here).  A parse error is
 * answered on JOB_HERE.  The job's inputs must be set. */
job_lane jobs_triage(job *j, bool estimable);

/* Free what jobs_triage parsed, for a job that will not be started. */
void jobs_release(job *j);

/* Run `handler` on j (see above). */
void jobs_start(job *j, job_handler handler);

void jobs_solve(job *j);
void jobs_analyze(job *j);
void jobs_move(job *j);
void jobs_judge(job *j);
void jobs_batch(job *j);
/* POST /generate/{game}: a fresh puzzle (server/generate_job.c). */
void jobs_generate(job *j);
/* Around a handler's solving, for handlers outside jobs.c: bind the job's
 * cancel flag to this thread and let the tracker raise it when the client
 * goes; then unbind it and count a stop. */
void jobs_watch(job *j);
void jobs_unwatch(job *j);

#endif

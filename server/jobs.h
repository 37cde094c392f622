/* jobs.h - a job: one request's work, whichever thread runs it.
 *
 * Every route's handler (routes.h) takes a job: the request's game, media
 * and body in, and the answer or the error out.  The HTTP front fills the
 * inputs and `done`, then calls jobs_start on the I/O thread or on a
 * worker, as the route's row says.  jobs_start refuses a job that waited
 * in the queue past --request-timeout (503: nobody should wait for so late
 * an answer), else runs the handler, which fills the result and calls
 * done(job) exactly once: before it returns, or for a batch on whichever
 * worker finishes the last item.  Nothing here knows about connections;
 * the body must stay valid until done() runs.
 *
 * The handlers of the POST routes live here:
 *   jobs_solve    the game's parse -> solve -> write, through the result cache
 *   jobs_analyze  the game's analyze() on a mid-play position (JSON), with
 *                 its perfect-play line when asked (line.h)
 *   jobs_move     the engine's move at a level (engine.h)
 *   jobs_judge    solve the judge input, compare the submitted output (judge.h)
 *   jobs_batch    every item spread over the pool, answered in order */
#ifndef GJ_JOBS_H
#define GJ_JOBS_H

#include <stddef.h>

#include "app.h"
#include "buf.h"
#include "error.h"
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
};

/* Run `handler` on j (see above). */
void jobs_start(job *j, job_handler handler);

void jobs_solve(job *j);
void jobs_analyze(job *j);
void jobs_move(job *j);
void jobs_judge(job *j);
void jobs_batch(job *j);

#endif

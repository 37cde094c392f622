/* jobs.c - a job's life: where it runs, its start, its watch and its end
 * (jobs.h).  The handlers are the endpoints' (endpoints.h). */
#include "jobs.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

/* The job failed with j->error: drop any partial answer. */
static void fail(job *j)
{
    buf_free(&j->answer);
}

void jobs_finish(job *j, int rc)
{
    if (rc == 0 && j->answer.failed)
        rc = gj_fail_nomem(&j->error);
    if (rc == 0)
        gj_error_clear(&j->error);
    else
        fail(j);
    j->done(j);
}

double jobs_take_ms(unsigned long long *since)
{
    if (*since == 0)
        return 0;
    double ms = (double)(clock_ns() - *since) / 1e6;
    *since = 0;
    return ms;
}

const long *jobs_limits(const job *j, const gj_game *g)
{
    return config_game_limits(j->rt->cfg, g);
}

void jobs_watch(job *j)
{
    if (j->queued_ns == 0)
        return;
    gj_cancel_bind(&j->cancel);
    conntrack_watch(j->rt->tracker, j->peer, &j->cancel);
}

void jobs_unwatch(job *j)
{
    if (j->queued_ns == 0)
        return;
    conntrack_watch(j->rt->tracker, j->peer, NULL);
    gj_cancel_bind(NULL);
    gj_cancel_reason why = gj_cancel_reason_of(&j->cancel);
    if (j->error.kind != GJ_CANCELLED || why == GJ_CANCEL_NONE)
        return;
    j->abandoned = why == GJ_CANCEL_GONE;
    metrics_job_event(j->rt->metrics,
                      why == GJ_CANCEL_GONE ? JOB_CANCELLED_GONE : JOB_CANCELLED_DEADLINE);
}

void jobs_run_step(job *j, const char *what, int (*step)(job *j, void *arg), void *arg)
{
    unsigned long long start = clock_ns();
    jobs_watch(j);
    gj_grant *was = gj_grant_bind(j->grant.take != NULL ? &j->grant : NULL);
    int rc = step(j, arg);
    gj_grant_bind(was);
    jobs_unwatch(j);
    j->t.solve_ms = (double)(clock_ns() - start) / 1e6;
    if (rc != 0 && j->error.kind == GJ_OK)
        gj_fail(&j->error, GJ_INTERNAL, "%s: the %s failed without saying why", j->game->name,
                what);
    jobs_finish(j, rc);
}

int jobs_cached(job *j, const void *key, size_t len, int (*make)(job *j, void *arg), void *arg)
{
    cache_ticket *ticket = NULL;
    cache_result r = CACHE_BYPASS;
    if (j->only_cached != NULL) { /* a peek: nothing is claimed that will not be made */
        if (j->rt->cache == NULL || !cache_peek(j->rt->cache, key, len, &j->answer)) {
            j->error = *j->only_cached;
            return -1;
        }
        return j->answer.failed ? gj_fail_nomem(&j->error) : 0;
    }
    if (j->rt->cache != NULL)
        r = cache_get(j->rt->cache, key, len, &j->answer, &ticket);
    if (r == CACHE_HIT)
        return j->answer.failed ? gj_fail_nomem(&j->error) : 0;
    int rc = make(j, arg);
    if (rc == 0 && j->answer.failed)
        rc = gj_fail_nomem(&j->error);
    if (ticket != NULL && rc == 0)
        cache_fill(j->rt->cache, ticket, j->answer.data, j->answer.len);
    else if (ticket != NULL)
        cache_abandon(j->rt->cache, ticket);
    return rc;
}

job_lane jobs_lane_for(double cost_us)
{
    return cost_us <= JOBS_HERE_MAX_US   ? JOB_HERE
           : cost_us <= JOBS_FAST_MAX_US ? JOB_FAST
                                         : JOB_HEAVY;
}

job_lane jobs_triage(job *j, job_estimate estimate)
{
    j->estimate_ms = 0;
    if (estimate == NULL || j->rt->hold_fifo != NULL ||
        (j->len > JOBS_TRIAGE_MAX_BODY && !j->body_read))
        return JOB_HEAVY;
    unsigned long long start = clock_ns();
    job_lane lane = estimate(j);
    j->estimate_ms = (double)(clock_ns() - start) / 1e6;
    return lane;
}

void jobs_release(job *j)
{
    if (j->route_free != NULL && j->route_state != NULL)
        j->route_free(j);
    j->route_state = NULL;
    j->route_free = NULL;
    if (j->pos != NULL)
        j->game->free_position(j->pos);
    j->pos = NULL;
    json_decref(j->tree);
    j->tree = NULL;
    analysis_body_free(j->read_analysis);
    j->read_analysis = NULL;
}

analysis_body *jobs_take_analysis(job *j)
{
    analysis_body *read = j->read_analysis;
    j->read_analysis = NULL;
    if (read == NULL && j->tree == NULL)
        j->error = j->body_error;
    return read;
}

json_t *jobs_take_tree(job *j)
{
    json_t *tree = j->tree;
    j->tree = NULL;
    if (tree == NULL)
        j->error = j->body_error;
    return tree;
}

/* done() as jobs_start installs it: what the route left of its state is
 * ended, the handler's own thread's time (when a batch has not already
 * counted it) joins work_ms, then the caller's done runs. */
static void settle(job *j)
{
    if (gj_grant_bound() == &j->grant) /* the request may be freed once it is answered */
        gj_grant_bind(NULL);
    jobs_release(j);
    j->work_ms += jobs_take_ms(&j->own_ns);
    j->then(j);
}

void jobs_start(job *j, job_handler handler)
{
    j->then = j->done;
    j->done = settle;
    j->own_ns = clock_ns();
    /* The I/O thread's estimate (jobs_triage) and its reading of the body
     * into a position (body_read) are work for the request too. */
    j->work_ms = j->estimate_ms + (j->body_read ? j->body_read_ms : 0);
    buf_init(&j->answer);
    gj_error_clear(&j->error);
    j->ok_status = 200;
    j->type = j->output == MEDIA_JSON ? "application/json" : "text/plain; charset=utf-8";
    j->fixed = NULL;
    j->fixed_len = 0;
    j->no_store = false;
    j->how = CACHE_BYPASS;
    if (j->tag != NULL) {
        j->tag->cache_seconds = -1;
        j->tag->etag[0] = '\0';
        j->tag->not_modified = false;
    }
    memset(&j->t, 0, sizeof j->t);
    j->abandoned = 0;
    j->wait_ns = j->queued_ns ? clock_ns() - j->queued_ns : 0;
    double waited = (double)j->wait_ns / 1e9;
    long limit = j->rt->cfg->request_timeout;
    if (j->queued_ns != 0 && conntrack_gone(j->peer)) {
        /* Nobody reads the answer; the 503 only completes the request. */
        j->abandoned = 1;
        metrics_job_event(j->rt->metrics, JOB_DROPPED_ABANDONED);
        gj_fail(&j->error, GJ_CANCELLED, "the client closed its connection before its job started");
    } else if (waited > (double)limit) {
        metrics_job_event(j->rt->metrics, JOB_DROPPED_LATE);
        gj_fail(&j->error, GJ_OVERLOADED,
                "the request waited %.1f s for a worker, past the %ld s limit "
                "(--request-timeout); retry shortly",
                waited, limit);
    }
    if (j->error.kind != GJ_OK) {
        j->done(j); /* settle: the route's state is ended there */
        return;
    }
    gj_cancel_init(&j->cancel,
                   j->queued_ns ? j->queued_ns + (unsigned long long)limit * 1000000000ull : 0);
    /* The handler's parse of the body is charged as it is built (grant.h);
     * j may be answered and gone when the handler returns, so the binding
     * is undone without it (settle undoes it first if j ends here). */
    gj_grant *was = gj_grant_bind(j->grant.take != NULL ? &j->grant : NULL);
    handler(j);
    gj_grant_bind(was);
}

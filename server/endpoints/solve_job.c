/* solve_job.c - POST and GET /solve/{game} (endpoints.h): one position
 * through the game, parsed ahead on the I/O thread when the body is small
 * (or read as it arrived, jobs.h's body_read) so that its cost decides
 * where it is solved.
 *
 * The parse ahead is this route's own state (jobs.h, route_state): a
 * solve_ahead that the estimate allocates and the handler takes; a job
 * refused or dropped in between has it ended by jobs_release.  A body
 * read as it arrived needs none: its position stays on the job. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "endpoints.h"
#include "solve.h"

/* What solve_estimate parsed on the I/O thread, for the handler. */
typedef struct solve_ahead {
    void *pos;      /* the position, or NULL with error */
    gj_error error; /* why pos is NULL */
    double ms;      /* the parse's time: the answer's parse time */
} solve_ahead;

/* route_free of a solve: the position not solved, and the state. */
static void ahead_free(job *j)
{
    solve_ahead *a = j->route_state;
    if (a->pos != NULL)
        j->game->free_position(a->pos);
    free(a);
    j->route_state = NULL;
}

/* The position the body gave as it arrived (jobs.h's body_read, which
 * the caller has checked), taken from the job with its time and error;
 * NULL when the reader refused the body. */
static void *take_read(job *j, double *ms, gj_error *e)
{
    void *pos = j->pos;
    j->pos = NULL;
    *ms = j->body_read_ms;
    *e = j->body_error;
    return pos;
}

job_lane solve_estimate(job *j)
{
    const gj_game *g = j->game;
    void *pos = j->pos; /* read as it arrived: left on the job for the handler */
    if (!j->body_read) {
        solve_ahead *a = malloc(sizeof *a);
        if (a == NULL)
            return JOB_HEAVY; /* the handler parses it, and says what ran out */
        a->pos = pos =
            solve_parse(g, jobs_limits(j, g), j->input, j->body, j->len, &a->ms, &a->error);
        j->route_state = a;
        j->route_free = ahead_free;
    }
    if (pos == NULL)
        return JOB_HERE; /* the parse error is answered at once */
    j->work_bytes = g->work_bytes != NULL ? g->work_bytes(pos) : 0;
    return jobs_lane_for(g->cost_us != NULL ? g->cost_us(pos) : INFINITY);
}

/* The position to solve: the one parsed ahead (taken from the job's
 * state, with its time and error), else the one read as the body arrived,
 * else parsed now.  NULL with j->error. */
static void *take_position(job *j)
{
    const gj_game *g = j->game;
    solve_ahead *a = j->route_state;
    if (a == NULL && j->body_read)
        return take_read(j, &j->t.parse_ms, &j->error);
    if (a == NULL)
        return solve_parse(g, jobs_limits(j, g), j->input, j->body, j->len, &j->t.parse_ms,
                           &j->error);
    void *pos = a->pos;
    a->pos = NULL;
    j->t.parse_ms = a->ms;
    if (pos == NULL)
        j->error = a->error;
    jobs_release(j);
    return pos;
}

void endpoint_solve(job *j)
{
    const gj_game *g = j->game;
    runtime_test_hold(j->rt);
    void *pos = take_position(j);
    int rc = -1;
    solve_tag tag = {.if_none_match = j->tag->if_none_match};
    if (pos != NULL) {
        jobs_watch(j);
        rc = solve_parsed_cached(g, pos, j->output, j->rt->cache, j->only_cached, &j->answer, &j->t,
                                 &j->how, &tag, &j->error);
        jobs_unwatch(j);
    }
    memcpy(j->tag->etag, tag.etag, sizeof j->tag->etag);
    j->tag->not_modified = rc == 0 && tag.not_modified;
    /* Failed parses count too: a parse histogram without them would hide
     * the time spent refusing input. */
    metrics_solve_times(j->rt->metrics, g, j->t.parse_ms, j->t.solve_ms);
    jobs_finish(j, rc);
}

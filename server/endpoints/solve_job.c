/* solve_job.c - POST and GET /solve/{game} (endpoints.h): one position
 * through the game, parsed ahead on the I/O thread when the body is small
 * so that its cost decides where it is solved. */
#include <math.h>
#include <string.h>

#include "endpoints.h"

job_lane solve_estimate(job *j)
{
    const gj_game *g = j->game;
    j->ahead.parsed = true;
    j->ahead.pos =
        solve_parse(g, jobs_limits(j, g), j->input, j->body, j->len, &j->ahead.ms, &j->ahead.error);
    if (j->ahead.pos == NULL)
        return JOB_HERE; /* the parse error is answered at once */
    return jobs_lane_for(g->cost_us != NULL ? g->cost_us(j->ahead.pos) : INFINITY);
}

void endpoint_solve(job *j)
{
    const gj_game *g = j->game;
    runtime_test_hold(j->rt);
    void *pos = j->ahead.pos;
    j->ahead.pos = NULL;
    if (j->ahead.parsed) {
        j->t.parse_ms = j->ahead.ms;
        j->error = j->ahead.error;
    } else {
        pos =
            solve_parse(g, jobs_limits(j, g), j->input, j->body, j->len, &j->t.parse_ms, &j->error);
    }
    int rc = -1;
    solve_tag tag = {.if_none_match = j->if_none_match};
    if (pos != NULL) {
        jobs_watch(j);
        rc = solve_parsed_cached(g, pos, j->output, j->rt->cache, &j->answer, &j->t, &j->how, &tag,
                                 &j->error);
        jobs_unwatch(j);
    }
    memcpy(j->etag, tag.etag, sizeof j->etag);
    j->not_modified = rc == 0 && tag.not_modified;
    /* Failed parses count too: a parse histogram without them would hide
     * the time spent refusing input. */
    metrics_solve_times(j->rt->metrics, g, j->t.parse_ms, j->t.solve_ms);
    jobs_finish(j, rc);
}

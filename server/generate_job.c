/* generate_job.c - the POST /generate/{game} handler (jobs.h): the game's
 * generate() under the limits in force and the --generate-budget-ms
 * ceiling.  Its own file so the generator's plumbing stays out of jobs.c. */
#include <string.h>

#include "config.h"
#include "generate.h"
#include "jobs.h"

/* The game's generator on the body, its answer or error into j; done once. */
void jobs_generate(job *j)
{
    const gj_game *g = j->game;
    long limits[GEN_NLIMITS];
    if (g->generate == NULL) {
        gj_fail(&j->error, GJ_NOT_FOUND, "%s has no generator", g->name);
        j->done(j);
        return;
    }
    memcpy(limits, config_game_limits(j->app->cfg, g), GJ_MAX_LIMITS * sizeof limits[0]);
    limits[GEN_LIMIT_BUDGET] = j->app->cfg->generate_budget_ms;
    unsigned long long start = solve_clock_ns();
    jobs_watch(j);
    int rc = g->generate(j->body, j->len, limits, &j->answer, &j->error);
    jobs_unwatch(j);
    j->t.solve_ms = (double)(solve_clock_ns() - start) / 1e6;
    if (rc == 0 && j->answer.failed)
        rc = gj_fail_nomem(&j->error);
    if (rc == 0)
        gj_error_clear(&j->error);
    else {
        if (j->error.kind == GJ_OK)
            gj_fail(&j->error, GJ_INTERNAL, "%s: generation failed without saying why", g->name);
        buf_free(&j->answer);
    }
    j->done(j);
}

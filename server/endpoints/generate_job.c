/* generate_job.c - POST /generate/{game} (endpoints.h): the game's
 * generate() under the limits in force and the --generate-budget-ms
 * ceiling. */
#include <string.h>

#include "endpoints.h"
#include "generate.h"

/* The game's generator on the job's body: 0, or -1 with j->error. */
static int generate(job *j, void *arg)
{
    (void)arg;
    const gj_game *g = j->game;
    long limits[GEN_NLIMITS];
    memcpy(limits, jobs_limits(j, g), GJ_MAX_LIMITS * sizeof limits[0]);
    limits[GEN_LIMIT_BUDGET] = j->rt->cfg->generate_budget_ms;
    return g->generate(j->body, j->len, limits, &j->answer, &j->error);
}

void endpoint_generate(job *j)
{
    if (j->game->generate == NULL) {
        jobs_finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no generator", j->game->name));
        return;
    }
    jobs_run_step(j, "generation", generate, NULL);
}

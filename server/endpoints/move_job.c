/* move_job.c - POST /move/{game} (endpoints.h): the engine's move at a
 * level (engine.h). */
#include <stdatomic.h>
#include <stdint.h>

#include "endpoints.h"
#include "engine.h"

/* A seed for a move request without one: the clock mixed with a counter,
 * so two requests in the same nanosecond still differ; echoed to the
 * caller, who can replay the move with it. */
static uint64_t fresh_seed(void)
{
    static atomic_ullong count;
    uint64_t x = clock_ns() ^ (atomic_fetch_add(&count, 1) * 0x9e3779b97f4a7c15ULL);
    x ^= x >> 29;
    return x & (uint64_t)ENGINE_SEED_MAX;
}

/* The engine's move on the job's body (what it was read into when it was
 * read as it arrived: the game's arrays and a small tree, or a tree): 0,
 * or -1 with j->error. */
static int move(job *j, void *arg)
{
    (void)arg;
    const long *limits = jobs_limits(j, j->game);
    if (!j->body_read)
        return engine_move(j->game, j->body, j->len, limits, fresh_seed(), &j->answer, &j->error);
    analysis_body *read = jobs_take_analysis(j);
    if (read != NULL)
        return engine_move_read(j->game, read, limits, fresh_seed(), &j->answer, &j->error);
    json_t *tree = jobs_take_tree(j);
    if (tree == NULL)
        return -1;
    return engine_move_tree(j->game, tree, limits, fresh_seed(), &j->answer, &j->error);
}

void endpoint_move(job *j)
{
    if (j->game->analyze == NULL) {
        jobs_finish(j, gj_fail(&j->error, GJ_NOT_FOUND, "%s has no engine", j->game->name));
        return;
    }
    jobs_run_step(j, "engine", move, NULL);
}

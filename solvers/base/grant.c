/* grant.c - memory charged as a job's work grows (grant.h). */
#include "grant.h"

#include <stdint.h>

/* The grant this thread's work grows under; one per thread, so no lock. */
static _Thread_local gj_grant *bound;

void gj_grant_init(gj_grant *g, int (*take)(void *ctx, size_t bytes, gj_error *e), void *ctx)
{
    g->take = take;
    g->ctx = ctx;
    g->used = g->taken = 0;
}

void gj_grant_bind(gj_grant *g)
{
    bound = g;
}

int gj_grant_grow(size_t bytes, gj_error *e)
{
    gj_grant *g = bound;
    if (g == NULL)
        return 0;
    size_t used = bytes > SIZE_MAX - g->used ? SIZE_MAX : g->used + bytes;
    if (used > g->taken) {
        size_t more = used - g->taken;
        if (more < GJ_GRANT_STEP)
            more = GJ_GRANT_STEP;
        if (g->take(g->ctx, more, e) != 0)
            return -1;
        g->taken += more;
    }
    g->used = used;
    return 0;
}

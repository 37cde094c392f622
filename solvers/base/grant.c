/* grant.c - memory charged as a job's work grows (grant.h). */
#include "grant.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

/* The grant this thread's work grows under; one per thread, so no lock. */
static _Thread_local gj_grant *bound;
/* How many gj_grant_parse_begin calls on this thread are not yet ended. */
static _Thread_local int parsing;
/* Why the bound grant's hold refused, for gj_grant_parse_end on this
 * thread (kept here, not in every request's grant). */
static _Thread_local gj_error refusal;

void gj_grant_init(gj_grant *g, int (*take)(void *ctx, size_t bytes, gj_error *e),
                   int (*hold)(void *ctx, size_t held, gj_error *e), void *ctx)
{
    *g = (gj_grant){.take = take, .hold = hold, .ctx = ctx};
}

gj_grant *gj_grant_bind(gj_grant *g)
{
    gj_grant *was = bound;
    bound = g;
    return was;
}

gj_grant *gj_grant_bound(void)
{
    return bound;
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

/* The grant a jansson allocation on this thread is counted against, or NULL. */
static gj_grant *counting(void)
{
    gj_grant *g = bound;
    return parsing > 0 && g != NULL && g->hold != NULL ? g : NULL;
}

/* The heap block p takes: what malloc can hand out of it plus glibc's
 * size word, which is what malloc's own count (mallinfo2) says of it. */
static size_t block_bytes(void *p)
{
    return malloc_usable_size(p) + sizeof(size_t);
}

/* jansson's malloc: counted while a parse is, and refused (NULL, which
 * jansson reports as its own shortage) once the grant's hold refuses.
 * hold is asked before the block is taken, so that a refused block (an
 * array's table, megabytes) is never held even for a moment. */
static void *counted_malloc(size_t n)
{
    gj_grant *g = counting();
    if (g == NULL)
        return malloc(n);
    if (g->refused)
        return NULL;
    size_t next =
        n > SIZE_MAX - g->held - 2 * sizeof(size_t) ? SIZE_MAX : g->held + n + 2 * sizeof(size_t);
    if (next >= g->held_next) {
        if (g->hold(g->ctx, next, &refusal) != 0) {
            g->refused = true;
            return NULL;
        }
        g->held_next = next + GJ_GRANT_STEP;
    }
    void *p = malloc(n);
    if (p != NULL)
        g->held += block_bytes(p);
    return p;
}

/* jansson's free: while a parse is counted, what it frees is what it
 * allocated in that parse (a partial tree, the lexer's buffers). */
static void counted_free(void *p)
{
    gj_grant *g = counting();
    if (p != NULL && g != NULL) {
        size_t bytes = block_bytes(p);
        g->held -= bytes < g->held ? bytes : g->held;
    }
    free(p);
}

void gj_grant_count_jansson(void)
{
    json_set_alloc_funcs(counted_malloc, counted_free);
}

void gj_grant_parse_begin(void)
{
    parsing++;
}

int gj_grant_parse_end(gj_error *e)
{
    gj_grant *g = counting();
    parsing--;
    if (g == NULL || !g->refused)
        return 0;
    *e = refusal;
    if (parsing == 0) /* the next parse asks again */
        g->refused = false;
    return -1;
}

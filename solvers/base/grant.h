/* grant.h - memory a running job takes as it goes, charged to whoever
 * bounds it.
 *
 * Most of what a request holds is known before its work starts and charged
 * then (its body, a solve's scratch).  Some grows with what the work writes:
 * an analysis's whole "after" positions can reach ANALYSIS_AFTER_BYTES_MAX
 * (32 MiB) for a body of 1 MB.  The thread that runs a job binds a gj_grant
 * to itself (gj_grant_bind), as it binds a gj_cancel; code whose memory
 * grows asks gj_grant_grow before it keeps more.  The grant charges in steps
 * of at least GJ_GRANT_STEP through the binder's `take`, so most calls are
 * an addition.  A thread with nothing bound is granted everything (the CLI,
 * the tests): no bound was asked for. */
#ifndef GJ_GRANT_H
#define GJ_GRANT_H

#include <stddef.h>

#include "error.h"

/* The least a grant charges at once. */
#define GJ_GRANT_STEP ((size_t)1 << 20)

typedef struct gj_grant {
    /* Charge `bytes` more to ctx's bound: 0, or -1 with *e saying why not
     * (the kind is the answer's: overloaded, or too large for any bound). */
    int (*take)(void *ctx, size_t bytes, gj_error *e);
    void *ctx;
    size_t used;  /* bytes the work has asked for */
    size_t taken; /* bytes charged through take, at least used */
} gj_grant;

/* A grant of nothing yet over take and ctx. */
void gj_grant_init(gj_grant *g, int (*take)(void *ctx, size_t bytes, gj_error *e), void *ctx);
/* Make g this thread's grant (NULL: none). */
void gj_grant_bind(gj_grant *g);
/* The work on this thread is about to hold `bytes` more: 0, or -1 with *e
 * when the bound grant's take refused (nothing is then counted). */
int gj_grant_grow(size_t bytes, gj_error *e);

#endif

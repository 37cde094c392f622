/* grant.h - memory a running job takes as it goes, charged to whoever
 * bounds it.
 *
 * Most of what a request holds is known before its work starts and charged
 * then (its body, a solve's scratch).  Some grows with the work, past any
 * fixed multiple of the body:
 *   - what it writes: an analysis's whole "after" positions can reach
 *     32 MiB for a body of 1 MB.  Such code asks gj_grant_grow before it
 *     keeps more, and the grant charges in steps of at least GJ_GRANT_STEP
 *     through the binder's `take`, so most calls are an addition;
 *   - what it parses: jansson's tree of small numbers holds 24-40x its
 *     text.  Between gj_grant_parse_begin and _end, every allocation
 *     jansson makes on the thread is counted (gj_grant_count_jansson), and
 *     the binder's `hold` is told the total at each GJ_GRANT_STEP; once it
 *     refuses, jansson's allocations fail, the parse with them, and
 *     gj_grant_parse_end gives the refusal instead of jansson's error.
 * The thread that runs a job binds its gj_grant (gj_grant_bind), as it
 * binds a gj_cancel.  A thread with nothing bound is granted everything
 * (the CLI, the tests): no bound was asked for. */
#ifndef GJ_GRANT_H
#define GJ_GRANT_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* The least a grant charges at once, and how far a parse grows between
 * two calls of `hold`. */
#define GJ_GRANT_STEP ((size_t)1 << 20)

typedef struct gj_grant {
    /* Charge `bytes` more to ctx's bound: 0, or -1 with *e saying why not
     * (the kind is the answer's: overloaded, or too large for any bound). */
    int (*take)(void *ctx, size_t bytes, gj_error *e);
    /* The trees parsed so far hold `held` bytes in all: charge what the
     * body's own charge does not cover, as take does.  NULL: not counted. */
    int (*hold)(void *ctx, size_t held, gj_error *e);
    void *ctx;
    size_t used;      /* bytes the work has asked for */
    size_t taken;     /* bytes charged through take, at least used */
    size_t held;      /* heap jansson's parses hold, as counted while parsing */
    size_t held_next; /* held at which hold is told next */
    bool refused;     /* hold refused: the parse under way fails (its error is
                       * kept by the thread until gj_grant_parse_end) */
} gj_grant;

/* A grant of nothing yet over take, hold (NULL: parses not counted) and ctx. */
void gj_grant_init(gj_grant *g, int (*take)(void *ctx, size_t bytes, gj_error *e),
                   int (*hold)(void *ctx, size_t held, gj_error *e), void *ctx);
/* Make g this thread's grant (NULL: none); the grant it replaces. */
gj_grant *gj_grant_bind(gj_grant *g);
/* This thread's grant, or NULL. */
gj_grant *gj_grant_bound(void);
/* The work on this thread is about to hold `bytes` more: 0, or -1 with *e
 * when the bound grant's take refused (nothing is then counted). */
int gj_grant_grow(size_t bytes, gj_error *e);

/* Route jansson's allocations through the parse count.  jansson's
 * allocator is the process's, so this is called once, before any thread
 * that uses jansson starts; until then parses are not counted. */
void gj_grant_count_jansson(void);
/* Count this thread's jansson allocations against its bound grant until
 * the matching gj_grant_parse_end (the pairs nest). */
void gj_grant_parse_begin(void);
/* End one count: 0, or -1 with *e when the bound grant's hold refused
 * during it (jansson's allocations failed from then on). */
int gj_grant_parse_end(gj_error *e);

#endif

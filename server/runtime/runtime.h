/* runtime.h - what every request's work may use: the settings, the worker
 * pool, the result cache, the metrics, the connection tracker and the
 * puzzle store.
 *
 * The start-up layer builds one with runtime_start and hands it to the
 * HTTP front and, through each job (jobs.h), to the endpoints; nothing in
 * it knows HTTP, a quota or an endpoint.  runtime_stop frees it in the
 * reverse order, once no job can run any more.  The store is opened and
 * closed by the start-up layer around it (store.h), and watched by a thread
 * of its own (storewatch.h). */
#ifndef GJ_RUNTIME_H
#define GJ_RUNTIME_H

#include <stdatomic.h>
#include <stddef.h>

#include "cache.h"
#include "conntrack.h"
#include "error.h"
#include "metrics.h"
#include "pool.h"
#include "settings.h"
#include "store.h"
#include "storewatch.h"

typedef struct gj_runtime {
    const gj_config *cfg;
    gj_pool *pool;
    gj_cache *cache; /* NULL with --cache-bytes 0 */
    gj_metrics *metrics;
    gj_conntrack *tracker;
    const char *catalog; /* GET /games, rendered once by the start-up layer */
    size_t catalog_len;
    atomic_long in_flight; /* requests begun and not yet finished */
    atomic_int draining;   /* 1 from the stop signal on */
    const char *hold_fifo; /* the test hook below, NULL when off */
    gj_store *store;       /* the puzzle store (store.h), NULL with --store none */
    gj_storewatch *watch;  /* its health and pool sizes, NULL with none */
} gj_runtime;

/* Build the pool, the cache, the metrics (counting `statuses`, see
 * metrics_create) and the tracker; NULL with *e filled. */
gj_runtime *runtime_start(const gj_config *cfg, const int *statuses, size_t nstatuses, gj_error *e);

/* A test hook, off unless GAMEJUDGE_TEST_HOLD_FIFO names a FIFO: then a
 * solve first waits while a writer holds the FIFO open, until it writes a
 * byte or closes it.  Tests use it to keep a worker busy for exactly as
 * long as they need, instead of guessing how slow a solve is. */
void runtime_test_hold(const gj_runtime *rt);

/* Free everything (NULL is fine).  The pool must have drained. */
void runtime_stop(gj_runtime *rt);

#endif

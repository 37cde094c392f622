/* app.h - the application: what every request may use, assembled in one
 * place and torn down in one order.
 *
 * app_start builds, in this order, the worker pool, the result cache, the
 * metrics, the game catalogue and the connection tracker, then starts the
 * HTTP front (http.h) on them; app_stop drains and frees in reverse.  The
 * handlers (routes.h) read the application through their job. */
#ifndef GJ_APP_H
#define GJ_APP_H

#include <stdatomic.h>
#include <stddef.h>

#include "admission.h"
#include "cache.h"
#include "config.h"
#include "conntrack.h"
#include "error.h"
#include "metrics.h"
#include "pool.h"

typedef struct gj_http gj_http;

typedef struct gj_app {
    const gj_config *cfg;
    gj_pool *pool;
    gj_cache *cache; /* NULL with --cache-bytes 0 */
    gj_metrics *metrics;
    char *catalog; /* GET /games, rendered once */
    size_t catalog_len;
    gj_conntrack *tracker;
    gj_admission *admission; /* the memory budget and the quotas */
    gj_http *http;
    atomic_long in_flight; /* requests begun and not yet finished */
    atomic_int draining;   /* 1 from the stop signal on */
    const char *hold_fifo; /* the test hook below, NULL when off */
} gj_app;

/* Build everything and listen; NULL with *e filled (what could not be had,
 * or the address that could not be bound). */
gj_app *app_start(const gj_config *cfg, gj_error *e);

/* The bound port (useful with port 0). */
unsigned app_port(const gj_app *a);

/* The admin listener's bound port, 0 without --admin-address. */
unsigned app_admin_port(const gj_app *a);

/* A test hook, off unless GAMEJUDGE_TEST_HOLD_FIFO names a FIFO: then a
 * solve first waits while a writer holds the FIFO open, until it writes a
 * byte or closes it.  Tests use it to keep a worker busy for exactly as
 * long as they need, instead of guessing how slow a solve is. */
void app_test_hold(const gj_app *a);

/* Stop: refuse new connections, answer every request begun (up to
 * --grace, then 5 s more once the pool has drained), free everything.
 * true when every request was answered in time. */
int app_stop(gj_app *a);

#endif

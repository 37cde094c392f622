/* app.h - the application: what every request may use, assembled in one
 * place and torn down in one order.
 *
 * app_start builds, in this order, the runtime (the worker pool, the result
 * cache, the metrics, the connection tracker: runtime.h), the game
 * catalogue, the admission (quotas, API keys, memory budget) and the puzzle
 * store (--store, opened and migrated: store.h) with its watch, then
 * starts the HTTP front (http.h) on them with the route table (routes.h);
 * app_stop drains and frees in reverse, the store last.  The handlers see
 * only the runtime, through their job. */
#ifndef GJ_APP_H
#define GJ_APP_H

#include "admission.h"
#include "error.h"
#include "runtime.h"
#include "settings.h"

typedef struct gj_http gj_http;

typedef struct gj_app {
    gj_runtime *rt;          /* what the endpoints' work uses (runtime.h) */
    gj_store *store;         /* rt->store, kept here to be closed after the runtime */
    gj_admission *admission; /* the memory budget and the quotas */
    char *catalog;           /* GET /games, rendered once (rt->catalog points here) */
    gj_http *http;
} gj_app;

/* Build everything and listen; NULL with *e filled (what could not be had,
 * the store that could not be opened or whose schema is newer, or the
 * address that could not be bound). */
gj_app *app_start(const gj_config *cfg, gj_error *e);

/* The bound port (useful with port 0). */
unsigned app_port(const gj_app *a);

/* The admin listener's bound port, 0 without --admin-address. */
unsigned app_admin_port(const gj_app *a);

/* Stop: refuse new connections, answer every request begun (up to
 * --grace, then 5 s more once the pool has drained), free everything.
 * true when every request was answered in time. */
int app_stop(gj_app *a);

#endif

/* app.c - assembling and tearing down the application (app.h). */
#include "app.h"

#include <stdlib.h>

#include "catalog.h"
#include "http.h"
#include "http_error.h"
#include "routes.h"

_Static_assert(HTTP_STATUSES_MAX <= METRICS_STATUSES_MAX,
               "the metrics must have a series for every status an answer can have");

/* Render the admission's families into a /metrics scrape. */
static void render_admission(void *ctx, gj_buf *out)
{
    admission_render(ctx, out);
}

/* Free whatever of `a` exists, in the reverse of app_start's order, the
 * store last.  The HTTP front must be stopped already (no connection left
 * suspended, so no job holds the store). */
static void app_free(gj_app *a)
{
    admission_free(a->admission);
    free(a->catalog);
    if (a->rt != NULL)
        storewatch_stop(a->rt->watch);
    runtime_stop(a->rt);
    store_close(a->store);
    free(a);
}

/* Open the store --store names (none: no store) into a->store and
 * a->rt->store, watch it and add its metrics: 0, or -1 with *e (the
 * store's own sentence: unreachable, a newer schema, ...). */
static int open_store(gj_app *a, const gj_config *cfg, gj_error *e)
{
    if (store_open(cfg->store, &a->store, e) != 0)
        return -1;
    if (a->store == NULL)
        return 0;
    a->rt->store = a->store;
    a->rt->watch = storewatch_start(a->store, e);
    if (a->rt->watch == NULL)
        return -1;
    if (metrics_add_section(a->rt->metrics, storewatch_render, a->rt->watch) != 0)
        return gj_fail_nomem(e);
    return 0;
}

gj_app *app_start(const gj_config *cfg, gj_error *e)
{
    gj_app *a = calloc(1, sizeof *a);
    if (a == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    int statuses[HTTP_STATUSES_MAX];
    size_t nstatuses = http_error_statuses(statuses, HTTP_STATUSES_MAX);
    a->rt = runtime_start(cfg, statuses, nstatuses, e);
    if (a->rt == NULL) {
        app_free(a);
        return NULL;
    }
    a->catalog = catalog_render(cfg, &a->rt->catalog_len);
    a->rt->catalog = a->catalog;
    if (a->catalog == NULL) {
        gj_fail_nomem(e);
        app_free(a);
        return NULL;
    }
    a->admission = admission_create(cfg, e); /* reads --api-keys: its errors name the file */
    if (a->admission == NULL ||
        metrics_add_section(a->rt->metrics, render_admission, a->admission) != 0) {
        if (a->admission != NULL)
            gj_fail_nomem(e);
        app_free(a);
        return NULL;
    }
    /* After what the configuration alone can refuse (the key file), so a
     * refused start leaves no store file behind; before the listener, so
     * no request is served without the store it asked for. */
    if (open_store(a, cfg, e) != 0) {
        app_free(a);
        return NULL;
    }
    size_t nroutes;
    const route_row *routes = routes_table(&nroutes);
    a->http = http_start(a->rt, a->admission, routes, nroutes, e);
    if (a->http == NULL) {
        app_free(a);
        return NULL;
    }
    return a;
}

unsigned app_port(const gj_app *a)
{
    return http_port(a->http);
}

unsigned app_admin_port(const gj_app *a)
{
    return http_admin_port(a->http);
}

int app_stop(gj_app *a)
{
    atomic_store(&a->rt->draining, 1);
    http_stop_accepting(a->http);
    int idle = http_wait_idle(a->http, (double)a->rt->cfg->grace);
    pool_drain(a->rt->pool); /* every job answered, so no connection stays suspended */
    if (!idle)
        idle = http_wait_idle(a->http, 5);
    http_stop(a->http);
    app_free(a);
    return idle;
}

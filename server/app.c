/* app.c - assembling and tearing down the application (app.h). */
#include "app.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "catalog.h"
#include "http.h"
#include "log.h"

/* Free whatever of `a` exists, in the reverse of app_start's order.  The
 * HTTP front must be stopped already (no connection left suspended). */
static void app_free(gj_app *a)
{
    admission_free(a->admission);
    conntrack_stop(a->tracker);
    free(a->catalog);
    metrics_free(a->metrics);
    cache_free(a->cache);
    pool_destroy(a->pool);
    free(a);
}

gj_app *app_start(const gj_config *cfg, gj_error *e)
{
    gj_app *a = calloc(1, sizeof *a);
    if (a == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    a->cfg = cfg;
    a->pool = pool_create((int)cfg->workers, (int)cfg->queue);
    if (a->pool == NULL) {
        gj_fail(e, GJ_INTERNAL, "cannot start %ld worker threads", cfg->workers);
        app_free(a);
        return NULL;
    }
    a->cache = cfg->cache_bytes > 0 ? cache_create((size_t)cfg->cache_bytes, NULL) : NULL;
    a->metrics = metrics_create();
    a->catalog = catalog_render(cfg, &a->catalog_len);
    a->tracker = conntrack_start((double)cfg->request_timeout);
    if ((cfg->cache_bytes > 0 && a->cache == NULL) || a->metrics == NULL || a->catalog == NULL ||
        a->tracker == NULL) {
        gj_fail_nomem(e);
        app_free(a);
        return NULL;
    }
    a->admission = admission_create(cfg, e); /* reads --api-keys: its errors name the file */
    if (a->admission == NULL) {
        app_free(a);
        return NULL;
    }
    a->hold_fifo = getenv("GAMEJUDGE_TEST_HOLD_FIFO");
    if (a->hold_fifo != NULL && a->hold_fifo[0] == '\0')
        a->hold_fifo = NULL;
    if (a->hold_fifo != NULL) {
        const char *fields[] = {"fifo", a->hold_fifo, NULL};
        log_event("warn", "test hook: every solve waits on a FIFO", fields);
    }
    a->http = http_start(a, e);
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

void app_test_hold(const gj_app *a)
{
    if (a->hold_fifo == NULL)
        return;
    /* Opened without waiting for a writer; then a blocking read waits for
     * a byte while one holds it open, and returns 0 at once when none does. */
    int fd = open(a->hold_fifo, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return;
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0) {
        char byte;
        ssize_t got = read(fd, &byte, 1); /* a failed wait is as good as a release */
        (void)got;
    }
    close(fd);
}

int app_stop(gj_app *a)
{
    atomic_store(&a->draining, 1);
    http_stop_accepting(a->http);
    int idle = http_wait_idle(a->http, (double)a->cfg->grace);
    pool_drain(a->pool); /* every job answered, so no connection stays suspended */
    if (!idle)
        idle = http_wait_idle(a->http, 5);
    http_stop(a->http);
    app_free(a);
    return idle;
}

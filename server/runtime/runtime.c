/* runtime.c - building and freeing what requests' work uses (runtime.h). */
#include "runtime.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "log.h"

gj_runtime *runtime_start(const gj_config *cfg, const int *statuses, size_t nstatuses, gj_error *e)
{
    gj_runtime *rt = calloc(1, sizeof *rt);
    if (rt == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    rt->cfg = cfg;
    rt->pool = pool_create((int)cfg->workers, (int)cfg->queue);
    if (rt->pool == NULL) {
        gj_fail(e, GJ_INTERNAL, "cannot start %ld worker threads", cfg->workers);
        runtime_stop(rt);
        return NULL;
    }
    rt->cache = cfg->cache_bytes > 0 ? cache_create((size_t)cfg->cache_bytes, NULL) : NULL;
    rt->metrics = metrics_create(statuses, nstatuses);
    rt->tracker = conntrack_start((double)cfg->request_timeout);
    if ((cfg->cache_bytes > 0 && rt->cache == NULL) || rt->metrics == NULL || rt->tracker == NULL) {
        gj_fail_nomem(e);
        runtime_stop(rt);
        return NULL;
    }
    rt->hold_fifo = getenv("GAMEJUDGE_TEST_HOLD_FIFO");
    if (rt->hold_fifo != NULL && rt->hold_fifo[0] == '\0')
        rt->hold_fifo = NULL;
    if (rt->hold_fifo != NULL) {
        const char *fields[] = {"fifo", rt->hold_fifo, NULL};
        log_event("warn", "test hook: every solve waits on a FIFO", fields);
    }
    return rt;
}

void runtime_test_hold(const gj_runtime *rt)
{
    if (rt->hold_fifo == NULL)
        return;
    /* Opened without waiting for a writer; then a blocking read waits for
     * a byte while one holds it open, and returns 0 at once when none does. */
    int fd = open(rt->hold_fifo, O_RDONLY | O_NONBLOCK);
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

void runtime_stop(gj_runtime *rt)
{
    if (rt == NULL)
        return;
    conntrack_stop(rt->tracker);
    metrics_free(rt->metrics);
    cache_free(rt->cache);
    pool_destroy(rt->pool);
    free(rt);
}

/* hold.c - holding the daemon's solves on a FIFO (hold.h). */
#include "hold.h"

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "client.h"

void hold_begin(test_hold *h)
{
    snprintf(h->path, sizeof h->path, "/tmp/gj-hold-%ld-%ld", (long)getpid(), (long)time(NULL));
    unlink(h->path);
    ck_assert_int_eq(mkfifo(h->path, 0600), 0);
    /* Read and write: opening does not wait for a reader, and the daemon's
     * solves see a writer for as long as this stays open. */
    h->fd = open(h->path, O_RDWR | O_CLOEXEC); /* the daemon must not hold it too */
    ck_assert_int_ge(h->fd, 0);
    h->threaded = 0;
    h->metric = NULL;
    setenv("GAMEJUDGE_TEST_HOLD_FIFO", h->path, 1);
}

void hold_release(test_hold *h)
{
    if (h->fd >= 0)
        close(h->fd);
    h->fd = -1;
}

/* The metric's value in the daemon's exposition now, or -1. */
static double read_metric(const test_hold *h)
{
    http_call c = {"GET", h->metrics_url, NULL, NULL, 0, 0};
    http_reply r = http_do(&c);
    double v = -1;
    size_t n = strlen(h->metric);
    for (const char *p = r.body; r.status == 200 && p != NULL && *p != '\0';) {
        if (strncmp(p, h->metric, n) == 0 && p[n] == ' ')
            v = strtod(p + n + 1, NULL);
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    http_reply_free(&r);
    return v;
}

/* The release thread: wait for the delay, or for the metric within it,
 * then close. */
static void *release_later(void *arg)
{
    test_hold *h = arg;
    struct timespec tick = {0, 20 * 1000 * 1000};
    for (double waited = 0; waited < h->delay; waited += 0.02) {
        if (h->metric != NULL && read_metric(h) >= h->value)
            break;
        nanosleep(&tick, NULL);
    }
    hold_release(h);
    return NULL;
}

void hold_release_later(test_hold *h, double seconds)
{
    h->delay = seconds;
    ck_assert_int_eq(pthread_create(&h->thread, NULL, release_later, h), 0);
    h->threaded = 1;
}

void hold_release_when(test_hold *h, const char *base_url, const char *metric, double value,
                       double seconds)
{
    snprintf(h->metrics_url, sizeof h->metrics_url, "%s/metrics", base_url);
    h->metric = metric;
    h->value = value;
    hold_release_later(h, seconds);
}

void hold_end(test_hold *h)
{
    if (h->threaded)
        pthread_join(h->thread, NULL);
    h->threaded = 0;
    hold_release(h);
    unsetenv("GAMEJUDGE_TEST_HOLD_FIFO");
    unlink(h->path);
}

/* conntrack.c - a list of open connections and a reaper thread.
 *
 * One mutex guards the list; it is taken once per connection event and
 * four times a second by the reaper, never on a request's hot path.
 * shutdown() (not close()) is safe from another thread: the descriptor
 * stays owned by libmicrohttpd, which is still the one to close it, so it
 * cannot be reused under us while the connection is in the list. */
#include "conntrack.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

struct tracked {
    int fd;
    int busy;
    int reaped;
    double deadline; /* monotonic seconds */
    tracked *prev, *next;
};

struct gj_conntrack {
    pthread_mutex_t lock;
    pthread_cond_t stop_signal;
    pthread_t reaper;
    int stopping;
    double limit;
    tracked *head;
    unsigned long reaped;
};

/* Monotonic seconds, the clock of every deadline here, so a wall-clock jump neither reaps
 * nor spares a connection. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Shut down, once, each connection not busy and past its deadline.  Caller holds the lock. */
static void reap_expired(gj_conntrack *t)
{
    double now = now_seconds();
    for (tracked *c = t->head; c != NULL; c = c->next)
        if (!c->busy && !c->reaped && now > c->deadline) {
            shutdown(c->fd, SHUT_RDWR);
            c->reaped = 1;
            t->reaped++;
        }
}

/* The reaper thread: reap_expired four times a second until conntrack_stop signals. */
static void *reap(void *arg)
{
    gj_conntrack *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->stopping) {
        struct timespec wake;
        clock_gettime(CLOCK_REALTIME, &wake);
        wake.tv_nsec += 250 * 1000 * 1000;
        if (wake.tv_nsec >= 1000000000L) {
            wake.tv_sec++;
            wake.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&t->stop_signal, &t->lock, &wake);
        reap_expired(t);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

gj_conntrack *conntrack_start(double deadline_seconds)
{
    gj_conntrack *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->limit = deadline_seconds;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->stop_signal, NULL);
    if (pthread_create(&t->reaper, NULL, reap, t) != 0) {
        pthread_cond_destroy(&t->stop_signal);
        pthread_mutex_destroy(&t->lock);
        free(t);
        return NULL;
    }
    return t;
}

void conntrack_stop(gj_conntrack *t)
{
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    t->stopping = 1;
    pthread_cond_signal(&t->stop_signal);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->reaper, NULL);
    while (t->head != NULL) { /* the daemon is stopped: nothing else holds these */
        tracked *c = t->head;
        t->head = c->next;
        free(c);
    }
    pthread_cond_destroy(&t->stop_signal);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

tracked *conntrack_open(gj_conntrack *t, int fd)
{
    tracked *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL; /* untracked: only the inactivity timeout applies */
    c->fd = fd;
    pthread_mutex_lock(&t->lock);
    c->deadline = now_seconds() + t->limit;
    c->next = t->head;
    if (t->head != NULL)
        t->head->prev = c;
    t->head = c;
    pthread_mutex_unlock(&t->lock);
    return c;
}

void conntrack_close(gj_conntrack *t, tracked *c)
{
    if (c == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    if (c->prev != NULL)
        c->prev->next = c->next;
    else
        t->head = c->next;
    if (c->next != NULL)
        c->next->prev = c->prev;
    pthread_mutex_unlock(&t->lock);
    free(c);
}

void conntrack_set_busy(gj_conntrack *t, tracked *c, int busy)
{
    if (c == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    c->busy = busy;
    if (!busy)
        c->deadline = now_seconds() + t->limit;
    pthread_mutex_unlock(&t->lock);
}

unsigned long conntrack_reaped(gj_conntrack *t)
{
    pthread_mutex_lock(&t->lock);
    unsigned long n = t->reaped;
    pthread_mutex_unlock(&t->lock);
    return n;
}

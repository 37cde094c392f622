/* conntrack.c - a list of open connections and a reaper thread.
 *
 * One mutex guards the list; it is taken once per connection event, once
 * per pool job (watch and unwatch), and by the reaper four times a second
 * (a hundred times while a solve is watched), never per step of a solve.
 * shutdown() (not close()) is safe from another thread: the descriptor
 * stays owned by libmicrohttpd, which is still the one to close it, so it
 * cannot be reused under us while the connection is in the list. */
#include "conntrack.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

struct tracked {
    int fd;
    int busy;
    int reaped;
    gj_cancel *cancel; /* the running solve's flag, NULL when none */
    double deadline;   /* monotonic seconds */
    tracked *prev, *next;
};

struct gj_conntrack {
    pthread_mutex_t lock;
    pthread_cond_t stop_signal; /* conntrack_stop, or a watch began */
    pthread_t reaper;
    int stopping;
    double limit;
    tracked *head;
    unsigned long reaped;
    int watched; /* connections with a cancel flag */
    double next_reap;
};

#define WATCH_MS 10
#define REAP_MS  250

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

/* Peek without waiting: end of stream or an error (not "no data yet") means gone. */
static int peer_gone(int fd)
{
    char byte;
    ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Raise the flag of each watched solve whose client has gone.  Caller holds the lock. */
static void cancel_abandoned(gj_conntrack *t)
{
    for (tracked *c = t->head; c != NULL; c = c->next)
        if (c->cancel != NULL && peer_gone(c->fd))
            gj_cancel_raise(c->cancel, GJ_CANCEL_GONE);
}

/* The reaper thread: every WATCH_MS while a solve is watched (else every
 * REAP_MS) cancel_abandoned, and reap_expired every REAP_MS, until
 * conntrack_stop signals. */
static void *reap(void *arg)
{
    gj_conntrack *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->stopping) {
        struct timespec wake;
        clock_gettime(CLOCK_REALTIME, &wake);
        wake.tv_nsec += (t->watched > 0 ? WATCH_MS : REAP_MS) * 1000L * 1000L;
        if (wake.tv_nsec >= 1000000000L) {
            wake.tv_sec++;
            wake.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&t->stop_signal, &t->lock, &wake);
        if (t->watched > 0)
            cancel_abandoned(t);
        double now = now_seconds();
        if (now >= t->next_reap) {
            reap_expired(t);
            t->next_reap = now + REAP_MS / 1000.0;
        }
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
    if (c->cancel != NULL)
        t->watched--;
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

int conntrack_gone(const tracked *c)
{
    return c != NULL && peer_gone(c->fd);
}

void conntrack_watch(gj_conntrack *t, tracked *c, gj_cancel *cancel)
{
    if (c == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    t->watched += (cancel != NULL) - (c->cancel != NULL);
    c->cancel = cancel;
    if (cancel != NULL)
        pthread_cond_signal(&t->stop_signal); /* from the slow tick to the fast one now */
    pthread_mutex_unlock(&t->lock);
}

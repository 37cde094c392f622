/* conntrack.c - a list of open connections and a reaper thread.
 *
 * One mutex guards the list; it is taken once per connection event, once
 * per pool job (watch and unwatch), and by the reaper four times a second
 * (a hundred times while a solve is watched), never per step of a solve
 * and never per request: a connection's busy flag and deadline, which
 * every request's end sets, are atomics the reaper reads under the lock.
 * shutdown() (not close()) is safe from another thread: the descriptor
 * stays owned by libmicrohttpd, which is still the one to close it, so it
 * cannot be reused under us while the connection is in the list.
 *
 * A connection answered before its body was read (conntrack_linger) is
 * not closed at once when libmicrohttpd lets it go: closing a socket with
 * unread bytes makes the kernel reset it, and a reset can reach the client
 * before it has read the answer.  conntrack_close keeps a duplicate of its
 * descriptor on a second list, and the reaper reads and drops what the
 * client still sends until it hangs up, LINGER_BYTES were read or
 * LINGER_MS passed, then closes it: the lingering close of nginx. */
#include "conntrack.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct tracked {
    int fd;
    atomic_int busy; /* set without the lock (conntrack_set_busy) */
    int reaped;
    int linger;              /* conntrack_linger: drain before the close */
    size_t left;             /* on the lingering list: bytes still to drop */
    gj_cancel *cancel;       /* the running solve's flag, NULL when none */
    _Atomic double deadline; /* monotonic seconds; set without the lock too */
    tracked *prev, *next;
};

struct gj_conntrack {
    pthread_mutex_t lock;
    pthread_cond_t stop_signal; /* conntrack_stop, or a watch began */
    pthread_t reaper;
    int stopping;
    double limit;
    tracked *head;
    tracked *lingering; /* duplicates being drained, singly linked by next */
    int lingerers;
    unsigned long reaped;
    int watched; /* connections with a cancel flag */
    double next_reap;
};

#define WATCH_MS 10
#define REAP_MS  250

/* The lingering close's bounds, smaller than nginx's (lingering_time 30 s).
 * A client that reads its answer while it sends, as curl and browsers do,
 * stops sending once it has read it; but on a loaded machine it may not
 * run for a while, and a bound on bytes would then reset the connection
 * under an answer it has not read yet (512 KiB did, for a 4 MiB upload
 * refused at 64 KiB: curl 55 in about one run of itest_edge_holes in ten).
 * So the clock is the bound that matters: five seconds, with 64 MiB (the
 * default --max-body) as a ceiling on what one socket costs to drain.  One
 * that sends for ever is closed at either bound, one that sends nothing at
 * the clock.  LINGER_MAX bounds the descriptors held; past it a connection
 * closes at once, as without lingering. */
#define LINGER_MS    5000
#define LINGER_BYTES (64u << 20)
#define LINGER_MAX   256

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
        if (!atomic_load_explicit(&c->busy, memory_order_acquire) && !c->reaped &&
            now > atomic_load_explicit(&c->deadline, memory_order_relaxed)) {
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

/* Read and drop what is waiting on fd, at most *left bytes: 1 while the
 * client may still send, 0 once it hung up, failed or used up *left. */
static int drain(int fd, size_t *left)
{
    char sink[16384];
    while (*left > 0) {
        ssize_t n = recv(fd, sink, *left < sizeof sink ? *left : sizeof sink, MSG_DONTWAIT);
        if (n > 0) {
            *left -= (size_t)n;
            continue;
        }
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
    }
    return 0;
}

/* Drain each lingering socket, closing those done or past their deadline.
 * Caller holds the lock. */
static void drain_lingering(gj_conntrack *t)
{
    double now = now_seconds();
    tracked **at = &t->lingering;
    while (*at != NULL) {
        tracked *c = *at;
        if (drain(c->fd, &c->left) && now <= c->deadline) {
            at = &c->next;
            continue;
        }
        *at = c->next;
        close(c->fd);
        free(c);
        t->lingerers--;
    }
}

/* The reaper thread: every WATCH_MS while a solve is watched or a socket
 * lingers (else every REAP_MS) cancel_abandoned and drain_lingering, and
 * reap_expired every REAP_MS, until conntrack_stop signals. */
static void *reap(void *arg)
{
    gj_conntrack *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->stopping) {
        struct timespec wake;
        clock_gettime(CLOCK_REALTIME, &wake);
        int fast = t->watched > 0 || t->lingerers > 0;
        wake.tv_nsec += (fast ? WATCH_MS : REAP_MS) * 1000L * 1000L;
        if (wake.tv_nsec >= 1000000000L) {
            wake.tv_sec++;
            wake.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&t->stop_signal, &t->lock, &wake);
        if (t->watched > 0)
            cancel_abandoned(t);
        if (t->lingerers > 0)
            drain_lingering(t);
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
    while (t->lingering != NULL) { /* stopping: the answers were written long ago */
        tracked *c = t->lingering;
        t->lingering = c->next;
        close(c->fd);
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

/* Move c, just unlinked, to the lingering list on a duplicate of its
 * descriptor (libmicrohttpd closes its own after this call, having shut
 * the write side down): 1, or 0 when no descriptor is to be had.  Caller
 * holds the lock. */
static int keep_lingering(gj_conntrack *t, tracked *c)
{
    int fd = fcntl(c->fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        close(fd);
        return 0;
    }
    c->fd = fd;
    c->left = LINGER_BYTES;
    c->deadline = now_seconds() + LINGER_MS / 1000.0;
    c->prev = NULL;
    c->next = t->lingering;
    t->lingering = c;
    t->lingerers++;
    pthread_cond_signal(&t->stop_signal); /* from the slow tick to the fast one now */
    return 1;
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
    if (c->linger && t->lingerers < LINGER_MAX && !t->stopping && keep_lingering(t, c)) {
        pthread_mutex_unlock(&t->lock);
        return;
    }
    pthread_mutex_unlock(&t->lock);
    free(c);
}

void conntrack_linger(gj_conntrack *t, tracked *c)
{
    if (c == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    c->linger = 1;
    pthread_mutex_unlock(&t->lock);
}

void conntrack_set_busy(gj_conntrack *t, tracked *c, int busy)
{
    if (c == NULL)
        return;
    /* The deadline first: a reaper that sees the connection idle (acquire)
     * sees its new deadline too, never the one the last request began. */
    if (!busy)
        atomic_store_explicit(&c->deadline, now_seconds() + t->limit, memory_order_relaxed);
    atomic_store_explicit(&c->busy, busy, memory_order_release);
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

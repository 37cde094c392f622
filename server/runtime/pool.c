/* pool.c - worker threads and two rings of jobs under one mutex.
 *
 * One lock is enough: a job is a solve of at least microseconds, so the
 * queue is never the contended part, and a single lock keeps drain and
 * stats trivially consistent.  Two condition variables: the reserved
 * fast-lane thread must not be woken (and then find nothing it may take)
 * for a heavy job. */
#define _GNU_SOURCE /* syscall(SYS_gettid) for a thread's own priority */
#include "pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct job {
    pool_fn fn;
    void *arg;
} job;

typedef struct ring {
    job *slot;
    int head, count;
    int reserved; /* places held by pool_reserve, not yet filled */
} ring;

typedef struct worker {
    struct gj_pool *pool;
    int fast_only;
    pthread_t thread;
} worker;

struct gj_pool {
    pthread_mutex_t lock;
    pthread_cond_t has_work; /* a job of either lane was queued, or draining began */
    pthread_cond_t has_fast; /* a fast job was queued, or draining began */
    ring lane[2];            /* indexed by pool_lane */
    int capacity;
    int busy;
    int draining, drained;
    int nthreads;
    worker *threads;
};

/* Take the oldest job of lane l into *out; caller holds the lock and saw it non-empty. */
static void take(gj_pool *p, pool_lane l, job *out)
{
    ring *r = &p->lane[l];
    *out = r->slot[r->head];
    r->head = (r->head + 1) % p->capacity;
    r->count--;
}

/* True when a job this worker may take is queued. */
static int available(const gj_pool *p, const worker *w)
{
    return p->lane[POOL_FAST].count > 0 || (!w->fast_only && p->lane[POOL_HEAVY].count > 0);
}

/* True when a place this worker may have to serve is reserved but not yet filled. */
static int promised(const gj_pool *p, const worker *w)
{
    return p->lane[POOL_FAST].reserved > 0 || (!w->fast_only && p->lane[POOL_HEAVY].reserved > 0);
}

/* Lower this thread's priority (Linux: nice applies per thread id); a
 * failure only leaves it at the process's priority. */
static void lower_priority(void)
{
#ifdef SYS_gettid /* elsewhere PRIO_PROCESS would renice the whole process: leave it */
    id_t tid = (id_t)syscall(SYS_gettid);
    int now = getpriority(PRIO_PROCESS, tid);
    (void)setpriority(PRIO_PROCESS, tid, now + POOL_HEAVY_NICE);
#endif
}

/* A worker thread: run queued jobs, fast lane first, outside the lock,
 * until draining leaves nothing queued and nothing reserved. */
static void *work(void *arg)
{
    worker *w = arg;
    gj_pool *p = w->pool;
    if (!w->fast_only)
        lower_priority();
    pthread_cond_t *wake = w->fast_only ? &p->has_fast : &p->has_work;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!available(p, w) && (!p->draining || promised(p, w)))
            pthread_cond_wait(wake, &p->lock);
        job j;
        if (p->lane[POOL_FAST].count > 0)
            take(p, POOL_FAST, &j);
        else if (!w->fast_only && p->lane[POOL_HEAVY].count > 0)
            take(p, POOL_HEAVY, &j);
        else
            break; /* draining, nothing left and nothing promised */
        p->busy++;
        pthread_mutex_unlock(&p->lock);
        j.fn(j.arg);
        pthread_mutex_lock(&p->lock);
        p->busy--;
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

gj_pool *pool_create(int workers, int capacity)
{
    if (workers < 1 || capacity < 1)
        return NULL;
    gj_pool *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->lane[POOL_FAST].slot = calloc((size_t)capacity, sizeof(job));
    p->lane[POOL_HEAVY].slot = calloc((size_t)capacity, sizeof(job));
    p->threads = calloc((size_t)workers + 1, sizeof *p->threads);
    p->capacity = capacity;
    if (p->lane[POOL_FAST].slot == NULL || p->lane[POOL_HEAVY].slot == NULL || p->threads == NULL ||
        pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p->lane[POOL_FAST].slot);
        free(p->lane[POOL_HEAVY].slot);
        free(p->threads);
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->has_work, NULL);
    pthread_cond_init(&p->has_fast, NULL);
    for (; p->nthreads <= workers; p->nthreads++) {
        worker *w = &p->threads[p->nthreads];
        w->pool = p;
        w->fast_only = p->nthreads == workers; /* the last one is the fast lane's */
        if (pthread_create(&w->thread, NULL, work, w) != 0) {
            pool_destroy(p);
            return NULL;
        }
    }
    return p;
}

/* Append a job to lane l and wake who may take it.  Caller holds the lock
 * and has made sure there is room. */
static void enqueue(gj_pool *p, pool_lane l, pool_fn fn, void *arg)
{
    ring *r = &p->lane[l];
    r->slot[(r->head + r->count) % p->capacity] = (job){fn, arg};
    r->count++;
    if (l == POOL_FAST)
        pthread_cond_signal(&p->has_fast);
    pthread_cond_signal(&p->has_work);
}

/* True when lane l has a free place and the pool takes work.  Caller holds the lock. */
static int has_room(const gj_pool *p, pool_lane l)
{
    return !p->draining && p->lane[l].count + p->lane[l].reserved < p->capacity;
}

int pool_submit(gj_pool *p, pool_fn fn, void *arg)
{
    int rc = -1;
    pthread_mutex_lock(&p->lock);
    if (has_room(p, POOL_HEAVY)) {
        enqueue(p, POOL_HEAVY, fn, arg);
        rc = 0;
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int pool_reserve(gj_pool *p, pool_lane lane)
{
    int rc = -1;
    pthread_mutex_lock(&p->lock);
    if (has_room(p, lane)) {
        p->lane[lane].reserved++;
        rc = 0;
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

void pool_submit_reserved(gj_pool *p, pool_lane lane, pool_fn fn, void *arg)
{
    pthread_mutex_lock(&p->lock);
    p->lane[lane].reserved--;
    enqueue(p, lane, fn, arg);
    pthread_mutex_unlock(&p->lock);
}

void pool_stats(gj_pool *p, int *queued, int *busy)
{
    pthread_mutex_lock(&p->lock);
    *queued = p->lane[POOL_FAST].count + p->lane[POOL_HEAVY].count;
    *busy = p->busy;
    pthread_mutex_unlock(&p->lock);
}

void pool_drain(gj_pool *p)
{
    pthread_mutex_lock(&p->lock);
    int already = p->drained;
    p->draining = 1;
    p->drained = 1;
    pthread_cond_broadcast(&p->has_work);
    pthread_cond_broadcast(&p->has_fast);
    pthread_mutex_unlock(&p->lock);
    if (already)
        return;
    for (int i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i].thread, NULL);
}

void pool_destroy(gj_pool *p)
{
    if (p == NULL)
        return;
    pool_drain(p);
    pthread_cond_destroy(&p->has_work);
    pthread_cond_destroy(&p->has_fast);
    pthread_mutex_destroy(&p->lock);
    free(p->threads);
    free(p->lane[POOL_FAST].slot);
    free(p->lane[POOL_HEAVY].slot);
    free(p);
}

/* pool.c - worker threads and a ring buffer of jobs under one mutex.
 *
 * One lock is enough: a job is a solve of at least microseconds, so the
 * queue is never the contended part, and a single lock keeps drain and
 * stats trivially consistent. */
#include "pool.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct job {
    pool_fn fn;
    void *arg;
} job;

struct gj_pool {
    pthread_mutex_t lock;
    pthread_cond_t has_work; /* a job was queued, or draining began */
    job *ring;
    int capacity, head, count;
    int reserved; /* places held by pool_reserve, not yet filled */
    int busy;
    int draining, drained;
    int nthreads;
    pthread_t *threads;
};

/* A worker thread: run queued jobs in order, outside the lock, until draining leaves nothing
 * queued and nothing reserved. */
static void *work(void *arg)
{
    gj_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->count == 0 && (!p->draining || p->reserved > 0))
            pthread_cond_wait(&p->has_work, &p->lock);
        if (p->count == 0)
            break; /* draining, nothing left and nothing promised */
        job j = p->ring[p->head];
        p->head = (p->head + 1) % p->capacity;
        p->count--;
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
    p->ring = calloc((size_t)capacity, sizeof *p->ring);
    p->threads = calloc((size_t)workers, sizeof *p->threads);
    p->capacity = capacity;
    if (p->ring == NULL || p->threads == NULL || pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p->ring);
        free(p->threads);
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->has_work, NULL);
    for (; p->nthreads < workers; p->nthreads++)
        if (pthread_create(&p->threads[p->nthreads], NULL, work, p) != 0) {
            pool_destroy(p);
            return NULL;
        }
    return p;
}

/* Append a job to the ring and wake one worker.  Caller holds the lock and has made sure there
 * is room. */
static void enqueue(gj_pool *p, pool_fn fn, void *arg)
{
    p->ring[(p->head + p->count) % p->capacity] = (job){fn, arg};
    p->count++;
    pthread_cond_signal(&p->has_work);
}

int pool_submit(gj_pool *p, pool_fn fn, void *arg)
{
    int rc = -1;
    pthread_mutex_lock(&p->lock);
    if (!p->draining && p->count + p->reserved < p->capacity) {
        enqueue(p, fn, arg);
        rc = 0;
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int pool_reserve(gj_pool *p)
{
    int rc = -1;
    pthread_mutex_lock(&p->lock);
    if (!p->draining && p->count + p->reserved < p->capacity) {
        p->reserved++;
        rc = 0;
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

void pool_submit_reserved(gj_pool *p, pool_fn fn, void *arg)
{
    pthread_mutex_lock(&p->lock);
    p->reserved--;
    enqueue(p, fn, arg);
    pthread_mutex_unlock(&p->lock);
}

void pool_stats(gj_pool *p, int *queued, int *busy)
{
    pthread_mutex_lock(&p->lock);
    *queued = p->count;
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
    pthread_mutex_unlock(&p->lock);
    if (already)
        return;
    for (int i = 0; i < p->nthreads; i++)
        pthread_join(p->threads[i], NULL);
}

void pool_destroy(gj_pool *p)
{
    if (p == NULL)
        return;
    pool_drain(p);
    pthread_cond_destroy(&p->has_work);
    pthread_mutex_destroy(&p->lock);
    free(p->threads);
    free(p->ring);
    free(p);
}

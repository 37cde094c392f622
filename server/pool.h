/* pool.h - a fixed set of worker threads fed by a bounded queue.
 *
 * pool_submit never blocks: when the queue is full it refuses at once, so
 * the caller can answer 503 instead of piling up work.  pool_drain stops
 * taking jobs, lets every queued and running job finish, and joins the
 * threads.  Jobs run in FIFO order. */
#ifndef GJ_POOL_H
#define GJ_POOL_H

typedef void (*pool_fn)(void *arg);
typedef struct gj_pool gj_pool;

/* NULL when a thread or the memory cannot be had. */
gj_pool *pool_create(int workers, int capacity);

/* 0 when queued; -1 when the queue is full or the pool is draining. */
int pool_submit(gj_pool *p, pool_fn fn, void *arg);

/* Two steps for callers that must act between deciding and queueing (the
 * HTTP layer suspends its connection only once a place is sure, so a
 * refusal is answered without a suspend/resume round trip):
 * pool_reserve holds a place in the queue (0) or refuses (-1), and
 * pool_submit_reserved fills it; it cannot fail, even while draining. */
int pool_reserve(gj_pool *p);
void pool_submit_reserved(gj_pool *p, pool_fn fn, void *arg);

/* Jobs waiting, and jobs running now. */
void pool_stats(gj_pool *p, int *queued, int *busy);

/* Refuse new jobs, finish all accepted ones, join the workers. */
void pool_drain(gj_pool *p);

/* Drain if needed, then free. */
void pool_destroy(gj_pool *p);

#endif

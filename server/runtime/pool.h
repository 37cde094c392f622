/* pool.h - worker threads fed by two bounded queues: a fast lane and a
 * heavy lane.
 *
 * pool_create starts `workers` general threads and one more reserved for
 * the fast lane.  A general thread takes a fast job first, then a heavy
 * one; the reserved thread takes fast jobs only, so a fast job never waits
 * behind a heavy solve, only behind other fast jobs (each short: the caller
 * decides what is fast).  General threads run at a lower priority (nice
 * POOL_HEAVY_NICE, Linux) so that on a small machine the I/O thread and the
 * fast lane keep their CPU while heavy solves run.  Each lane has its own
 * `capacity` places; submitting never blocks: a full lane refuses at once,
 * so the caller can answer 503 instead of piling up work.  pool_drain stops
 * taking jobs, lets every queued and running job finish, and joins the
 * threads.  Within a lane jobs run in FIFO order. */
#ifndef GJ_POOL_H
#define GJ_POOL_H

typedef void (*pool_fn)(void *arg);
typedef struct gj_pool gj_pool;

typedef enum pool_lane { POOL_FAST, POOL_HEAVY } pool_lane;

/* How much nicer the general threads run than the process: the most, so a
 * heavy solve takes only the CPU the I/O thread leaves (all of it on an idle
 * machine).  On 2 cores under four heavy clients, nice 5 left the samples'
 * p99 at 9.4-16.6 ms, nice 19 at 6.4-10.4 ms (bench table 3b, by hand). */
#define POOL_HEAVY_NICE 19

/* NULL when a thread or the memory cannot be had. */
gj_pool *pool_create(int workers, int capacity);

/* Queue on the heavy lane: 0, or -1 when it is full or the pool is draining. */
int pool_submit(gj_pool *p, pool_fn fn, void *arg);

/* Two steps for callers that must act between deciding and queueing (the
 * HTTP layer suspends its connection only once a place is sure, so a
 * refusal is answered without a suspend/resume round trip):
 * pool_reserve holds a place in the lane (0) or refuses (-1), and
 * pool_submit_reserved fills it; it cannot fail, even while draining. */
int pool_reserve(gj_pool *p, pool_lane lane);
void pool_submit_reserved(gj_pool *p, pool_lane lane, pool_fn fn, void *arg);

/* Jobs waiting (both lanes), and jobs running now. */
void pool_stats(gj_pool *p, int *queued, int *busy);

/* Refuse new jobs, finish all accepted ones, join the workers. */
void pool_drain(gj_pool *p);

/* Drain if needed, then free. */
void pool_destroy(gj_pool *p);

#endif

/* test_pool.c - the worker pool: every accepted job runs exactly once, a
 * full queue refuses at once, drain finishes what was accepted. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "harness.h"
#include "pool.h"

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void count_job(void *arg)
{
    atomic_fetch_add((atomic_int *)arg, 1);
}

START_TEST(test_runs_every_job_once)
{
    atomic_int counter = 0;
    gj_pool *p = pool_create(4, 1000);
    ck_assert_ptr_nonnull(p);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(pool_submit(p, count_job, &counter), 0);
    pool_drain(p);
    ck_assert_int_eq(atomic_load(&counter), 1000);
    pool_destroy(p);
}
END_TEST

/* A job that waits until the test opens the gate. */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t opened;
    int open;
    atomic_int ran;
} gate;

static void gated_job(void *arg)
{
    gate *g = arg;
    pthread_mutex_lock(&g->lock);
    while (!g->open)
        pthread_cond_wait(&g->opened, &g->lock);
    pthread_mutex_unlock(&g->lock);
    atomic_fetch_add(&g->ran, 1);
}

static void open_gate(gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->open = 1;
    pthread_cond_broadcast(&g->opened);
    pthread_mutex_unlock(&g->lock);
}

static void wait_busy(gj_pool *p, int want)
{
    int queued, busy;
    for (int i = 0; i < 5000; i++) {
        pool_stats(p, &queued, &busy);
        if (busy == want)
            return;
        sleep_ms(1);
    }
    ck_abort_msg("pool never had %d busy workers", want);
}

START_TEST(test_full_queue_refuses)
{
    gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
    gj_pool *p = pool_create(1, 2);
    ck_assert_int_eq(pool_submit(p, gated_job, &g), 0);
    wait_busy(p, 1);
    ck_assert_int_eq(pool_submit(p, gated_job, &g), 0);
    ck_assert_int_eq(pool_submit(p, gated_job, &g), 0);
    ck_assert_int_eq(pool_submit(p, gated_job, &g), -1); /* 1 running + 2 queued */

    int queued, busy;
    pool_stats(p, &queued, &busy);
    ck_assert_int_eq(queued, 2);
    ck_assert_int_eq(busy, 1);

    open_gate(&g);
    pool_drain(p);
    ck_assert_int_eq(atomic_load(&g.ran), 3);
    pool_destroy(p);
}
END_TEST

typedef struct ordered {
    int seen[16];
    int n;
} ordered;

typedef struct order_job {
    ordered *log;
    int id;
} order_job;

static void record_job(void *arg)
{
    order_job *j = arg;
    sleep_ms(2);
    j->log->seen[j->log->n++] = j->id; /* one worker: no race */
}

START_TEST(test_fifo_and_drain_finishes_queue)
{
    ordered log = {{0}, 0};
    order_job jobs[8];
    gj_pool *p = pool_create(1, 8);
    for (int i = 0; i < 8; i++) {
        jobs[i] = (order_job){&log, i};
        ck_assert_int_eq(pool_submit(p, record_job, &jobs[i]), 0);
    }
    pool_drain(p); /* must wait for all 8, not just the running one */
    ck_assert_int_eq(log.n, 8);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(log.seen[i], i);
    ck_assert_int_eq(pool_submit(p, record_job, &jobs[0]), -1); /* drained: refuses */
    pool_drain(p);                                              /* twice is harmless */
    pool_destroy(p);
}
END_TEST

START_TEST(test_bad_sizes)
{
    ck_assert_ptr_null(pool_create(0, 4));
    ck_assert_ptr_null(pool_create(2, 0));
    pool_destroy(NULL);
}
END_TEST

/* The one general worker is held by a heavy job, with another heavy one
 * queued: a fast job still runs (on the reserved fast-lane thread), and a
 * fast place is refused only when the fast lane itself is full. */
START_TEST(test_fast_lane_passes_heavy)
{
    gate heavy = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
    atomic_int fast = 0;
    gj_pool *p = pool_create(1, 2);
    ck_assert_int_eq(pool_submit(p, gated_job, &heavy), 0);
    wait_busy(p, 1);
    ck_assert_int_eq(pool_submit(p, gated_job, &heavy), 0);
    ck_assert_int_eq(pool_reserve(p, POOL_FAST), 0);
    pool_submit_reserved(p, POOL_FAST, count_job, &fast);
    for (int i = 0; i < 5000 && atomic_load(&fast) == 0; i++)
        sleep_ms(1);
    ck_assert_int_eq(atomic_load(&fast), 1);      /* ran while the heavy ones wait */
    ck_assert_int_eq(atomic_load(&heavy.ran), 0); /* the gate is still shut */
    ck_assert_int_eq(pool_reserve(p, POOL_HEAVY), 0);
    ck_assert_int_eq(pool_reserve(p, POOL_HEAVY), -1); /* heavy lane: 1 queued + 1 held */
    pool_submit_reserved(p, POOL_HEAVY, count_job, &fast);
    open_gate(&heavy);
    pool_drain(p);
    ck_assert_int_eq(atomic_load(&heavy.ran), 2);
    ck_assert_int_eq(atomic_load(&fast), 2);
    pool_destroy(p);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *pool_suite(void)
{
    const harness_case cases[] = {
        {"pool", test_runs_every_job_once},           {"pool", test_full_queue_refuses},
        {"pool", test_fifo_and_drain_finishes_queue}, {"pool", test_bad_sizes},
        {"pool", test_fast_lane_passes_heavy},
    };
    return harness_suite("pool", cases, sizeof cases / sizeof cases[0], 60);
}

int main(void)
{
    return harness_main(pool_suite());
}

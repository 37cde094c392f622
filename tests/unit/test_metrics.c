/* test_metrics.c - the counters as /metrics renders them: every request,
 * byte, timing and scheduling event counted by any number of threads at
 * once (more than the shards they are spread over) is rendered exactly
 * once, and each histogram's buckets add up to its count. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "metrics.h"

#define THREADS 13 /* more than the shards: some threads share one */
#define ROUNDS  5000

static gj_metrics *counted;

/* One thread's share: ROUNDS requests of game (void *) answered 200, each
 * 3 bytes in and 5 out, one timed solve (10 us parse, 2 ms solve), one job on the
 * I/O lane; every seventh answered 418, a status the series do not list. */
static void *count(void *arg)
{
    const gj_game *g = arg;
    for (int i = 0; i < ROUNDS; i++) {
        metrics_request(counted, g, i % 7 ? 200 : 418, 3, 5);
        metrics_solve_times(counted, g, 0.01, 2.0);
        metrics_job_event(counted, JOB_LANE_IO);
    }
    return NULL;
}

/* The value of the sample `series` (name and labels, exactly) in text. */
static double sample(const char *text, const char *series)
{
    char want[256];
    snprintf(want, sizeof want, "\n%s ", series);
    const char *at = strstr(text, want);
    ck_assert_msg(at != NULL, "no %s in:\n%s", series, text);
    return strtod(at + strlen(want), NULL);
}

START_TEST(test_threads_counted_once)
{
    const int statuses[] = {200, 400, 503};
    counted = metrics_create(statuses, 3);
    ck_assert_ptr_nonnull(counted);
    const gj_game *g = harness_game(1);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, count, (void *)g), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    metrics_request(counted, NULL, 503, 0, 0); /* not a solve, from this thread */
    gj_buf out;
    buf_init(&out);
    metrics_gauges gauges = {0};
    metrics_render(counted, &gauges, &out);
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    const char *text = out.data;
    double n = (double)THREADS * ROUNDS, other = (double)THREADS * ((ROUNDS + 6) / 7);
    char series[160];
    snprintf(series, sizeof series, "gamejudge_requests_total{game=\"%s\",status=\"200\"}",
             g->name);
    ck_assert_double_eq(sample(text, series), n - other);
    snprintf(series, sizeof series, "gamejudge_requests_total{game=\"%s\",status=\"other\"}",
             g->name);
    ck_assert_double_eq(sample(text, series), other);
    ck_assert_double_eq(sample(text, "gamejudge_requests_total{game=\"none\",status=\"503\"}"), 1);
    ck_assert_double_eq(sample(text, "gamejudge_rejected_total"), 1);
    ck_assert_double_eq(sample(text, "gamejudge_received_bytes_total"), 3 * n);
    ck_assert_double_eq(sample(text, "gamejudge_sent_bytes_total"), 5 * n);
    ck_assert_double_eq(sample(text, "gamejudge_jobs_lane_total{lane=\"io\"}"), n);
    ck_assert_double_eq(sample(text, "gamejudge_jobs_lane_total{lane=\"fast\"}"), 0);
    /* Each solve in its bucket once: 2 ms is past 1 ms, within 2.5 ms. */
    snprintf(series, sizeof series, "gamejudge_solve_seconds_bucket{game=\"%s\",le=\"0.001\"}",
             g->name);
    ck_assert_double_eq(sample(text, series), 0);
    snprintf(series, sizeof series, "gamejudge_solve_seconds_bucket{game=\"%s\",le=\"0.0025\"}",
             g->name);
    ck_assert_double_eq(sample(text, series), n);
    snprintf(series, sizeof series, "gamejudge_solve_seconds_bucket{game=\"%s\",le=\"+Inf\"}",
             g->name);
    ck_assert_double_eq(sample(text, series), n);
    snprintf(series, sizeof series, "gamejudge_solve_seconds_count{game=\"%s\"}", g->name);
    ck_assert_double_eq(sample(text, series), n);
    snprintf(series, sizeof series, "gamejudge_solve_seconds_sum{game=\"%s\"}", g->name);
    ck_assert_double_eq_tol(sample(text, series), n * 0.002, 1e-6);
    snprintf(series, sizeof series, "gamejudge_parse_seconds_bucket{game=\"%s\",le=\"0.0001\"}",
             g->name);
    ck_assert_double_eq(sample(text, series), n);
    buf_free(&out);
    metrics_free(counted);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *metrics_suite(void)
{
    const harness_case cases[] = {
        {"metrics", test_threads_counted_once},
    };
    return harness_suite("metrics", cases, sizeof cases / sizeof cases[0], 0);
}

int main(void)
{
    return harness_main(metrics_suite());
}

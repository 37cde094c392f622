/* test_jobs.c - a job's life (jobs.h) and a route's own state on it: what
 * a route's estimate keeps is ended exactly once however the job ends
 * (refused before it starts, dropped at its start, answered), the
 * estimate's time is counted as work, a cacheable route's tag state is
 * reset at the start, and the solve route's parse ahead is taken by its
 * handler (solve_job.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "endpoints.h"
#include "games.h"
#include "harness.h"
#include "jobs.h"

/* A route state that counts how often it was ended. */
typedef struct counted {
    int *ended;
} counted;

static int ended_count;
static int done_count;

/* route_free of a counted state. */
static void counted_free(job *j)
{
    counted *c = j->route_state;
    (*c->ended)++;
    free(c);
    j->route_state = NULL;
}

/* An estimate that keeps a counted state, takes about 2 ms, and sends the
 * job to the heavy lane. */
static job_lane keep_state(job *j)
{
    counted *c = malloc(sizeof *c);
    ck_assert_ptr_nonnull(c);
    c->ended = &ended_count;
    j->route_state = c;
    j->route_free = counted_free;
    struct timespec t = {0, 2000000L};
    nanosleep(&t, NULL);
    return JOB_HEAVY;
}

/* A handler that answers without touching the route's state. */
static void answer_ok(job *j)
{
    buf_puts(&j->answer, "ok");
    jobs_finish(j, 0);
}

/* The caller's done: counts its calls. */
static void count_done(job *j)
{
    (void)j;
    done_count++;
}

static gj_config cfg;
static gj_runtime rt;

/* A runtime with the default settings and metrics, nothing else. */
static void setup(void)
{
    config_defaults(&cfg);
    memset(&rt, 0, sizeof rt);
    rt.cfg = &cfg;
    static const int statuses[] = {200, 400, 503};
    rt.metrics = metrics_create(statuses, 3);
    ck_assert_ptr_nonnull(rt.metrics);
    ended_count = 0;
    done_count = 0;
}

/* Free what setup made. */
static void teardown(void)
{
    metrics_free(rt.metrics);
}

/* A job of `game` on `body`, with the test's done. */
static job make_job(const char *game, const char *body, job_tag *tag)
{
    return (job){.rt = &rt,
                 .game = games_find(game, strlen(game)),
                 .input = MEDIA_TEXT,
                 .output = MEDIA_TEXT,
                 .body = body,
                 .len = strlen(body),
                 .arg = "",
                 .tag = tag,
                 .done = count_done};
}

START_TEST(test_refused_job_ends_the_route_state_once)
{
    setup();
    job j = make_job("nim-shortcuts", "1 1\n0 0\n1 1\n", NULL);
    ck_assert_int_eq(jobs_triage(&j, keep_state), JOB_HEAVY);
    ck_assert_ptr_nonnull(j.route_state);
    jobs_release(&j); /* as the front does when the lane is full */
    jobs_release(&j); /* twice is harmless */
    ck_assert_int_eq(ended_count, 1);
    ck_assert_ptr_null(j.route_state);
    teardown();
}
END_TEST

START_TEST(test_dropped_job_ends_the_route_state_and_is_done_once)
{
    setup();
    cfg.request_timeout = 0;
    job j = make_job("nim-shortcuts", "1 1\n0 0\n1 1\n", NULL);
    jobs_triage(&j, keep_state);
    j.queued_ns = 1; /* queued long ago: past --request-timeout */
    jobs_start(&j, answer_ok);
    ck_assert_int_eq(j.error.kind, GJ_OVERLOADED);
    ck_assert_int_eq(done_count, 1);
    ck_assert_int_eq(ended_count, 1);
    ck_assert_ptr_null(j.route_state);
    teardown();
}
END_TEST

START_TEST(test_answered_job_ends_its_route_state_and_counts_the_estimate)
{
    setup();
    job j = make_job("nim-shortcuts", "1 1\n0 0\n1 1\n", NULL);
    jobs_triage(&j, keep_state);
    ck_assert_msg(j.estimate_ms >= 1.5, "the 2 ms estimate was counted as %.3f ms", j.estimate_ms);
    jobs_start(&j, answer_ok); /* a handler that leaves the state alone */
    ck_assert_int_eq(j.error.kind, GJ_OK);
    ck_assert_int_eq(done_count, 1);
    ck_assert_int_eq(ended_count, 1);
    ck_assert_msg(j.work_ms >= j.estimate_ms, "work %.3f ms left out the estimate's %.3f ms",
                  j.work_ms, j.estimate_ms);
    buf_free(&j.answer);
    teardown();
}
END_TEST

START_TEST(test_start_resets_the_tag_state)
{
    setup();
    job_tag tag = {
        .if_none_match = "\"x\"", .etag = "\"old\"", .not_modified = true, .cache_seconds = 0};
    job j = make_job("nim-shortcuts", "1 1\n0 0\n1 1\n", &tag);
    jobs_start(&j, answer_ok);
    ck_assert_str_eq(tag.etag, "");
    ck_assert(!tag.not_modified);
    ck_assert_int_eq(tag.cache_seconds, -1);
    ck_assert_str_eq(tag.if_none_match, "\"x\"");
    buf_free(&j.answer);
    teardown();
}
END_TEST

START_TEST(test_solve_takes_the_position_parsed_ahead)
{
    setup();
    job_tag tag = {.cache_seconds = -1};
    /* One shortcut, (0, 0), and two queries. */
    const char *body = "1 2\n0 0\n1 1\n2 0\n";
    job j = make_job("nim-shortcuts", body, &tag);
    job_lane lane = jobs_triage(&j, solve_estimate);
    ck_assert_ptr_nonnull(j.route_state);
    ck_assert_int_ne(lane, JOB_HEAVY); /* a 3-line position is cheap */
    jobs_start(&j, endpoint_solve);
    ck_assert_int_eq(j.error.kind, GJ_OK);
    ck_assert_ptr_null(j.route_state);
    ck_assert(j.t.parse_ms > 0);
    /* The same answer as a solve without the parse ahead. */
    gj_error e;
    char *want = harness_run(j.game, IN_TEXT, body, strlen(body), OUT_TEXT, NULL, &e);
    ck_assert_ptr_nonnull(want);
    ck_assert_int_eq(j.answer.len, strlen(want));
    ck_assert(memcmp(j.answer.data, want, j.answer.len) == 0);
    ck_assert(tag.etag[0] != '\0');
    free(want);
    buf_free(&j.answer);
    teardown();
}
END_TEST

START_TEST(test_solve_parse_error_ahead_names_its_line)
{
    setup();
    job_tag tag = {.cache_seconds = -1};
    job j = make_job("nim-shortcuts", "1 1\n0 0\n1 x\n", &tag);
    ck_assert_int_eq(jobs_triage(&j, solve_estimate), JOB_HERE);
    jobs_start(&j, endpoint_solve);
    ck_assert_int_eq(j.error.kind, GJ_BAD_INPUT);
    ck_assert_int_eq(j.error.line, 3);
    ck_assert_ptr_null(j.route_state);
    ck_assert_str_eq(tag.etag, "");
    teardown();
}
END_TEST

START_TEST(test_solve_refused_after_its_estimate_frees_the_position)
{
    setup();
    job_tag tag = {.cache_seconds = -1};
    job j = make_job("nim-shortcuts", "1 1\n0 0\n1 1\n", &tag);
    jobs_triage(&j, solve_estimate);
    ck_assert_ptr_nonnull(j.route_state);
    jobs_release(&j); /* a full lane: LeakSanitizer sees a position not freed */
    ck_assert_ptr_null(j.route_state);
    teardown();
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"refused", test_refused_job_ends_the_route_state_once},
        {"dropped", test_dropped_job_ends_the_route_state_and_is_done_once},
        {"answered", test_answered_job_ends_its_route_state_and_counts_the_estimate},
        {"tag reset", test_start_resets_the_tag_state},
        {"solve ahead", test_solve_takes_the_position_parsed_ahead},
        {"solve parse error", test_solve_parse_error_ahead_names_its_line},
        {"solve refused", test_solve_refused_after_its_estimate_frees_the_position},
    };
    return harness_main(harness_suite("jobs", cases, sizeof cases / sizeof cases[0], 0));
}

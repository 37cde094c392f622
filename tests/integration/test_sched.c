/* test_sched.c - scheduling under load (issue 15, items 1 and 2): cheap
 * solves are answered without waiting for heavy ones, a queued job whose
 * client has gone is dropped, a running solve stops when its client
 * leaves or its deadline passes, and the daemon answers afterwards; a
 * puzzle the result cache holds is answered while the pool is full.
 *
 * No assertion is timed: the tests wait for states the metrics show
 * (a worker busy, jobs queued, jobs dropped), bounded only by generous
 * limits that fail the test when the daemon never gets there. */
#include <arpa/inet.h>
#include <check.h>
#include <jansson.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "daemon.h"
#include "hold.h"

/* 14 x 14: C(28, 14) = 40 million states, about 1.25 s a solve here. */
#define HEAVY_LIMITS "staircase-chess.rows=14,staircase-chess.cols=14,staircase-chess.size=28"

/* Sleep ms milliseconds. */
static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Wait (at most 30 s, polling) until `series` reaches `want`; fails the test otherwise. */
static void wait_metric(const test_daemon *d, const char *series, double want)
{
    for (int i = 0; i < 3000; i++) {
        if (daemon_metric(d, series) >= want)
            return;
        sleep_ms(10);
    }
    ck_abort_msg("%s never reached %g (now %g)", series, want, daemon_metric(d, series));
}

/* Wait (at most 30 s, polling) until no worker is busy and nothing waits; fails the test
 * otherwise. */
static void wait_idle(const test_daemon *d)
{
    double left = 1;
    for (int i = 0; i < 3000 && left > 0; i++) {
        left =
            daemon_metric(d, "gamejudge_workers_busy") + daemon_metric(d, "gamejudge_queue_depth");
        if (left > 0)
            sleep_ms(10);
    }
    ck_assert_msg(left == 0, "the workers never went idle");
}

/* A 14 x 14 staircase-chess position (fixed values), as judge text. */
static char *heavy_body(size_t *len)
{
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    n += (size_t)snprintf(b + n, cap - n, "14 14\n");
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 14; i++)
            for (int j = 0; j < 14; j++)
                n += (size_t)snprintf(b + n, cap - n, "%d%c", (i * 31 + j * 17 + k * 7) % 1000,
                                      j == 13 ? '\n' : ' ');
    *len = n;
    return b;
}

/* Connect to the daemon and send `head`; the socket, open. */
static int send_raw(const test_daemon *d, const char *head, size_t len)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)d->port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert(send(fd, head, len, MSG_NOSIGNAL) == (ssize_t)len);
    return fd;
}

/* Connect to the daemon and send a whole POST of body to `path`; the socket, open. */
static int post_raw(const test_daemon *d, const char *path, const char *body, size_t len)
{
    char head[256];
    int h = snprintf(head, sizeof head,
                     "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     "Content-Length: %zu\r\n\r\n",
                     path, len);
    int fd = send_raw(d, head, (size_t)h);
    ck_assert(send(fd, body, len, MSG_NOSIGNAL) == (ssize_t)len);
    return fd;
}

/* Connect to the daemon and send a GET of `path`; the socket, open. */
static int get_raw(const test_daemon *d, const char *path)
{
    char head[512];
    int h = snprintf(head, sizeof head, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
    return send_raw(d, head, (size_t)h);
}

/* POST the game's own example as text; the reply. */
static http_reply post_sample(const test_daemon *d, const char *game, const char *body)
{
    char url[256];
    snprintf(url, sizeof url, "%s/solve/%s?format=text", d->base, game);
    http_call c = {"POST", url, NULL, body, strlen(body), 0};
    return http_do(&c);
}

/* The sample's answer from `gamejudge solve`, the oracle the daemon must match. */
static char *cli_answer(const char *game, const char *body)
{
    const char *args[] = {"solve", game, NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_cli(args, body, strlen(body), &out, &err), 0);
    free(err);
    return out;
}

static const char sample[] = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n";

/* The scenario: one worker, eight clients post a 14 x 14 board and
 * hang up (once all eight are in: one solving, seven queued, and at least
 * 0.3 s on), then a sample position.  The sample is answered (on the I/O
 * thread: it is cheap), at most one heavy solve ran (stopped when its
 * client left) and the seven others were dropped unstarted; the access log
 * says end=abandoned, and the daemon answers afterwards. */
START_TEST(test_abandoned_heavy_solves)
{
    enum { N = 8 };
    test_daemon d;
    const char *flags[] = {"--workers", "1", "--cache-bytes", "0", "--limit", HEAVY_LIMITS, NULL};
    daemon_start(&d, flags);
    size_t len;
    char *body = heavy_body(&len);
    int fd[N];
    for (int i = 0; i < N; i++)
        fd[i] = post_raw(&d, "/solve/staircase-chess", body, len);
    wait_metric(&d, "gamejudge_workers_busy", 1);
    wait_metric(&d, "gamejudge_queue_depth", N - 1);
    sleep_ms(300);
    for (int i = 0; i < N; i++)
        close(fd[i]);

    char *want = cli_answer("staircase-chess", sample);
    http_reply r = post_sample(&d, "staircase-chess", sample);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, want);
    http_reply_free(&r);

    /* Every heavy job ends: dropped before it started, or stopped. */
    for (int i = 0; i < 3000; i++) {
        double ended = daemon_metric(&d, "gamejudge_jobs_dropped_total{reason=\"abandoned\"}") +
                       daemon_metric(&d, "gamejudge_jobs_cancelled_total{reason=\"gone\"}");
        if (ended >= N)
            break;
        sleep_ms(10);
    }
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_jobs_cancelled_total{reason=\"gone\"}"), 1);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_jobs_dropped_total{reason=\"abandoned\"}"),
                        N - 1);
    /* Solves timed: the one heavy solve that started, and the sample. */
    ck_assert_double_eq(
        daemon_metric(&d, "gamejudge_solve_seconds_count{game=\"staircase-chess\"}"), 2);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"io\"}"), 1);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"heavy\"}"), N);
    char *log = daemon_wait_log(&d, "end=abandoned");
    ck_assert_ptr_nonnull(log);
    free(log);

    r = post_sample(&d, "staircase-chess", sample);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, want);
    http_reply_free(&r);
    free(want);
    free(body);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A solve that runs past its deadline stops: the hold hook keeps the only
 * worker's job waiting 1.5 s inside the solve with --request-timeout 1, so
 * the solve starts after its deadline whatever the machine's speed, and
 * its first check stops it.  The client gets 503 overloaded and the
 * metrics count a deadline cancel. */
START_TEST(test_deadline_stops_running_solve)
{
    test_hold hold = {.fd = -1};
    hold_begin(&hold);
    test_daemon d;
    const char *flags[] = {"--workers", "1",          "--request-timeout", "1",
                           "--limit",   HEAVY_LIMITS, "--cache-bytes",     "0",
                           NULL};
    daemon_start(&d, flags);
    hold_release_later(&hold, 1.5);
    size_t len;
    char *body = heavy_body(&len);
    char url[256];
    snprintf(url, sizeof url, "%s/solve/staircase-chess?format=text", d.base);
    http_call c = {"POST", url, NULL, body, len, 0};
    http_reply r = http_do(&c);
    ck_assert_int_eq(r.status, 503);
    ck_assert_ptr_nonnull(strstr(r.body, "\"overloaded\""));
    ck_assert_ptr_nonnull(strstr(r.body, "deadline"));
    http_reply_free(&r);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_jobs_cancelled_total{reason=\"deadline\"}"),
                        1);
    hold_end(&hold);
    free(body);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A cheap-but-not-tiny solve (8 x 8: about a millisecond, estimated above
 * the I/O thread's bound) goes to the fast lane and is answered while the
 * only general worker solves a heavy board and another heavy one waits:
 * when its answer arrives, the queued heavy job has not started. */
START_TEST(test_fast_lane_passes_heavy)
{
    test_daemon d;
    const char *flags[] = {"--workers", "1", "--cache-bytes", "0", "--limit", HEAVY_LIMITS, NULL};
    daemon_start(&d, flags);
    size_t len;
    char *body = heavy_body(&len);
    int fd[2];
    for (int i = 0; i < 2; i++)
        fd[i] = post_raw(&d, "/solve/staircase-chess", body, len);
    wait_metric(&d, "gamejudge_workers_busy", 1);
    wait_metric(&d, "gamejudge_queue_depth", 1);

    char medium[1024];
    size_t n = (size_t)snprintf(medium, sizeof medium, "8 8\n");
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                n += (size_t)snprintf(medium + n, sizeof medium - n, "%d%c",
                                      (i * 13 + j * 5 + k) % 97, j == 7 ? '\n' : ' ');
    char *want = cli_answer("staircase-chess", medium);
    http_reply r = post_sample(&d, "staircase-chess", medium);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, want);
    http_reply_free(&r);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_queue_depth"),
                        1); /* the heavy one still waits */
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"fast\"}"), 1);
    for (int i = 0; i < 2; i++)
        close(fd[i]); /* the heavy clients leave: their jobs stop or are dropped */
    wait_metric(&d, "gamejudge_workers_busy", 0);
    free(want);
    free(body);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A puzzle search that always runs to its budget: a 2 x 2 staircase-chess
 * board (four stones) ends before three solving moves and their two
 * replies, so every candidate is dropped
 * and the search goes on until its client leaves. */
#define ENDLESS_SEARCH "/puzzle/staircase-chess?rows=2&cols=2&depth=3&budget_ms=600000"

/* GET d's path with an optional header line; the reply. */
static http_reply get_path(const test_daemon *d, const char *path, const char *header)
{
    char url[2048];
    snprintf(url, sizeof url, "%s%s", d->base, path);
    const char *const headers[] = {header, NULL};
    http_call c = {"GET", url, header != NULL ? headers : NULL, NULL, 0, 0};
    return http_do(&c);
}

/* A 200 with the bytes and the tag of `want`; the reply's Cache-Control. */
static char *expect_same(const test_daemon *d, const char *path, const http_reply *want,
                         const char *etag)
{
    http_reply r = get_path(d, path, NULL);
    ck_assert_msg(r.status == 200, "%s: %ld %s", path, r.status, r.body);
    ck_assert_str_eq(r.body, want->body);
    char *tag = http_header(&r, "ETag");
    ck_assert_ptr_nonnull(tag);
    ck_assert_str_eq(tag, etag);
    char *control = http_header(&r, "Cache-Control");
    ck_assert_ptr_nonnull(control);
    free(tag);
    http_reply_free(&r);
    return control;
}

/* The daily puzzle is the busiest request: once its answer is in the
 * result cache it is served on the I/O thread, never queued.  One worker
 * and four places: five endless searches fill them (one running, four
 * queued); then today's daily puzzle, asked with and without its date,
 * and its id, all cached, are 200 with the bytes and the tag they had,
 * a 304 to their tag, and a malformed one a 400, all on the I/O lane;
 * a daily puzzle not cached yet is a 503, and the searches still hold
 * the pool. */
START_TEST(test_cached_daily_passes_full_pool)
{
    enum { FILL = 5 };
    test_daemon d;
    const char *flags[] = {
        "--workers",         "1",   "--queue", "4", "--generate-budget-ms", "600000",
        "--request-timeout", "600", NULL};
    daemon_start(&d, flags);
    char today[16], dated[64], other[64], by_id[1536];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(today, sizeof today, "%Y-%m-%d", &tm);
    snprintf(dated, sizeof dated, "/puzzle/nim-shortcuts/daily?date=%s", today);
    snprintf(other, sizeof other, "/puzzle/nim-shortcuts/daily?date=%s",
             strcmp(today, "2026-01-01") != 0 ? "2026-01-01" : "2026-01-02");

    /* Warm the cache: the daily puzzle (today's, so its dated form too)
     * and its id. */
    http_reply daily = get_path(&d, "/puzzle/nim-shortcuts/daily", NULL);
    ck_assert_msg(daily.status == 200, "daily: %ld %s", daily.status, daily.body);
    char *etag = http_header(&daily, "ETag");
    ck_assert_ptr_nonnull(etag);
    json_t *shown = json_loads(daily.body, 0, NULL);
    ck_assert_ptr_nonnull(shown);
    snprintf(by_id, sizeof by_id, "/puzzle/nim-shortcuts/%s",
             json_string_value(json_object_get(shown, "id")));
    json_decref(shown);
    http_reply warm = get_path(&d, by_id, NULL);
    ck_assert_int_eq(warm.status, 200);
    http_reply_free(&warm);

    int fd[FILL];
    /* The warm-ups' worker is idle again (it counts as busy a moment after
     * its answer); then one search at a time, so that the first is running
     * (busy) before the others take the four places. */
    wait_idle(&d);
    fd[0] = get_raw(&d, ENDLESS_SEARCH);
    wait_metric(&d, "gamejudge_workers_busy", 1);
    for (int i = 1; i < FILL; i++) {
        fd[i] = get_raw(&d, ENDLESS_SEARCH);
        wait_metric(&d, "gamejudge_queue_depth", i);
    }
    double io = daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"io\"}");
    double hits = daemon_metric(&d, "gamejudge_cache_hits_total");

    char *control = expect_same(&d, "/puzzle/nim-shortcuts/daily", &daily, etag);
    long age = -1;
    ck_assert_int_eq(sscanf(control, "public, max-age=%ld", &age), 1);
    ck_assert(age >= 1 && age <= 86400); /* until midnight UTC */
    free(control);
    control = expect_same(&d, dated, &daily, etag);
    ck_assert_str_eq(control, "public, max-age=86400");
    free(control);
    control = expect_same(&d, by_id, &daily, etag);
    ck_assert_str_eq(control, "public, max-age=86400");
    free(control);
    char inm[160];
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    http_reply r = get_path(&d, "/puzzle/nim-shortcuts/daily", inm);
    ck_assert_int_eq(r.status, 304);
    http_reply_free(&r);
    r = get_path(&d, "/puzzle/nim-shortcuts/daily?when=today", NULL);
    ck_assert_msg(r.status == 400, "malformed: %ld %s", r.status, r.body);
    http_reply_free(&r);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"io\"}"), io + 5);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_cache_hits_total"), hits + 4);

    r = get_path(&d, other, NULL);
    ck_assert_msg(r.status == 503, "%s: %ld %s", other, r.status, r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "busy"));
    http_reply_free(&r);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_queue_depth"), FILL - 1);

    for (int i = 0; i < FILL; i++)
        close(fd[i]); /* the searches' clients leave: their jobs stop or are dropped */
    wait_idle(&d);
    free(etag);
    http_reply_free(&daily);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *sched_suite(void)
{
    Suite *s = suite_create("sched");
    const struct {
        const char *name;
        const TTest *test;
    } cases[] = {
        {"abandoned", test_abandoned_heavy_solves},
        {"deadline", test_deadline_stops_running_solve},
        {"fast_lane", test_fast_lane_passes_heavy},
        {"cached_daily", test_cached_daily_passes_full_pool},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_set_timeout(tc, 120);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void)
{
    return run_suite(sched_suite());
}

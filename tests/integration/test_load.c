/* test_load.c - sustained load and bursts, loopback only, bounded in time.
 *
 * 256 connections post the public test data of all five games for 30 s
 * (GJ_LOAD_SECONDS overrides); every answer must be the expected one or a
 * 503 by design, and the server's resident memory must stay flat after
 * warm-up.  Then a burst far above the queue must get quick 503s with
 * Retry-After and never hang. */
#include <check.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"
#include "daemon.h"
#include "hold.h"

#define CONNECTIONS 256

/* Every game of solvers/registry/games.def, each with its first public sample. */
static const char *const games[] = {
#define GAME(ident, name) name,
#include "games.def"
#undef GAME
};
#define NGAMES (sizeof games / sizeof games[0])

typedef struct job {
    CURL *curl;
    int game;
    char *reply;
    size_t len, cap;
} job;

static char *inputs[NGAMES], *answers[NGAMES];
static size_t input_len[NGAMES];

static size_t collect(char *p, size_t size, size_t n, void *arg)
{
    job *j = arg;
    size_t bytes = size * n;
    if (j->len + bytes + 1 > j->cap) {
        j->cap = (j->len + bytes + 1) * 2;
        j->reply = realloc(j->reply, j->cap);
    }
    memcpy(j->reply + j->len, p, bytes);
    j->len += bytes;
    j->reply[j->len] = '\0';
    return bytes;
}

static void aim(job *j, const test_daemon *d, int game)
{
    char url[256];
    snprintf(url, sizeof url, "%s/solve/%s?format=text", d->base, games[game]);
    j->game = game;
    j->len = 0;
    curl_easy_setopt(j->curl, CURLOPT_URL, url);
    curl_easy_setopt(j->curl, CURLOPT_POSTFIELDS, inputs[game]);
    curl_easy_setopt(j->curl, CURLOPT_POSTFIELDSIZE, (long)input_len[game]);
}

static long rss_kib(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = atol(line + 6);
    if (f)
        fclose(f);
    return kib;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void load_data(void)
{
    for (size_t g = 0; g < NGAMES; g++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/%s/01.in", games[g]);
        inputs[g] = read_file_or_fail(path, &input_len[g]);
        snprintf(path, sizeof path, "tests/data/%s/01.out", games[g]);
        answers[g] = read_file_or_fail(path, NULL);
    }
}

START_TEST(test_sustained_load)
{
    const char *env = getenv("GJ_LOAD_SECONDS");
    double duration = env ? atof(env) : 30;
    test_daemon d;
    const char *flags[] = {"--max-connections-per-ip", "0", "--queue", "512", NULL};
    daemon_start(&d, flags);
    load_data();

    CURLM *multi = curl_multi_init();
    job *jobs = calloc(CONNECTIONS, sizeof *jobs);
    for (int i = 0; i < CONNECTIONS; i++) {
        jobs[i].curl = curl_easy_init();
        curl_easy_setopt(jobs[i].curl, CURLOPT_NOPROXY, "*");
        curl_easy_setopt(jobs[i].curl, CURLOPT_WRITEFUNCTION, collect);
        curl_easy_setopt(jobs[i].curl, CURLOPT_WRITEDATA, &jobs[i]);
        curl_easy_setopt(jobs[i].curl, CURLOPT_PRIVATE, (char *)&jobs[i]);
        curl_easy_setopt(jobs[i].curl, CURLOPT_TIMEOUT, 30L);
        aim(&jobs[i], &d, i % (int)NGAMES);
        curl_multi_add_handle(multi, jobs[i].curl);
    }
    long answered = 0, refused = 0, wrong = 0, rss_warm = -1, rss_peak = 0;
    double start = seconds_now();
    int running = CONNECTIONS;
    while (running > 0) {
        curl_multi_perform(multi, &running);
        CURLMsg *m;
        int left;
        while ((m = curl_multi_info_read(multi, &left)) != NULL) {
            if (m->msg != CURLMSG_DONE)
                continue;
            char *priv;
            long status = 0;
            curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
            curl_easy_getinfo(m->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            job *j = (job *)(void *)priv;
            if (m->data.result == CURLE_OK && status == 200 && j->reply &&
                strcmp(j->reply, answers[j->game]) == 0)
                answered++;
            else if (m->data.result == CURLE_OK && status == 503)
                refused++;
            else if (wrong++ < 5)
                fprintf(stderr, "load: %s: curl %d, status %ld, %.100s\n", games[j->game],
                        m->data.result, status, j->reply ? j->reply : "");
            curl_multi_remove_handle(multi, j->curl);
            if (seconds_now() - start < duration) {
                aim(j, &d, (j->game + 1) % (int)NGAMES);
                curl_multi_add_handle(multi, j->curl);
                running++;
            }
        }
        double t = seconds_now() - start;
        long rss = rss_kib(d.pid);
        if (rss_warm < 0 && t > duration / 3)
            rss_warm = rss;
        if (rss_warm >= 0 && rss > rss_peak)
            rss_peak = rss;
        if (running > 0)
            curl_multi_poll(multi, NULL, 0, 50, NULL);
    }
    fprintf(stderr,
            "load: %ld answered right, %ld refused (503), %ld wrong in %.0f s; "
            "RSS after warm-up %ld KiB, peak %ld KiB\n",
            answered, refused, wrong, duration, rss_warm, rss_peak);
    ck_assert_int_eq(wrong, 0);
    ck_assert_int_gt(answered, 0);
    /* Flat: the peak after warm-up stays within 25% (+8 MiB of slack). */
    ck_assert_msg(rss_peak <= rss_warm + rss_warm / 4 + 8192, "RSS grew from %ld to %ld KiB",
                  rss_warm, rss_peak);
    for (int i = 0; i < CONNECTIONS; i++) {
        curl_easy_cleanup(jobs[i].curl);
        free(jobs[i].reply);
    }
    free(jobs);
    curl_multi_cleanup(multi);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A fresh daemon, 256 tiny requests at once, every one of which must be
 * answered.  Half are solves cheap enough for the I/O thread; the other
 * half are one-item batches, which always go to a worker, so each is
 * suspended and resumed within microseconds: that once lost resumptions in
 * libmicrohttpd's epoll loop (all requests hung), and the heavy lane's
 * count shows the burst took that path.  A 503 needs a full queue, and
 * the first job finds it empty, so at least one of each kind is answered
 * 200 however the requests interleave: a server refusing them all fails. */
START_TEST(test_fresh_burst)
{
    enum { N = 256 };
    static const char batch[] = "{\"items\":[{\"game\":\"prime-chocolate\","
                                "\"position\":{\"grid\":[\"-\"]}}]}";
    static const char *const json[] = {"Content-Type: application/json", NULL};
    for (int round = 0; round < 3; round++) {
        test_daemon d;
        const char *flags[] = {"--max-connections-per-ip", "0", NULL};
        daemon_start(&d, flags);
        char solve_url[256], batch_url[256];
        snprintf(solve_url, sizeof solve_url, "%s/solve/prime-chocolate?format=text", d.base);
        snprintf(batch_url, sizeof batch_url, "%s/batch", d.base);
        http_call *calls = calloc(N, sizeof *calls);
        http_reply *replies = calloc(N, sizeof *replies);
        for (int i = 0; i < N; i++)
            calls[i] = i % 2 == 0
                           ? (http_call){"POST", solve_url, NULL, "1\n-\n", 4, 0}
                           : (http_call){"POST", batch_url, json, batch, sizeof batch - 1, 0};
        http_do_parallel(calls, replies, N);
        int ok[2] = {0, 0};
        for (int i = 0; i < N; i++) {
            ck_assert_msg(replies[i].status == 200 || replies[i].status == 503,
                          "round %d, request %d: status %ld (curl %d)", round, i, replies[i].status,
                          replies[i].curl_error);
            if (replies[i].status == 200) {
                if (i % 2 == 0)
                    ck_assert_str_eq(replies[i].body, "RUBY\n");
                else
                    ck_assert_msg(strstr(replies[i].body, "\"winner\":\"RUBY\"") != NULL &&
                                      strstr(replies[i].body, "\"succeeded\":1") != NULL,
                                  "round %d, batch %d: %s", round, i, replies[i].body);
                ok[i % 2]++;
            }
            http_reply_free(&replies[i]);
        }
        ck_assert_msg(ok[0] >= 1 && ok[1] >= 1, "round %d: %d solves and %d batches answered",
                      round, ok[0], ok[1]);
        ck_assert_double_eq(daemon_metric(&d, "gamejudge_jobs_lane_total{lane=\"heavy\"}"), N / 2);
        free(calls);
        free(replies);
        ck_assert_int_eq(daemon_stop(&d), 0);
    }
}
END_TEST

/* 200 solves at once against 1 worker, held busy (hold.h), and a queue of
 * 4: 5 are taken (4 when the burst fills the queue before the worker has
 * taken its first job out), every other one refused at once with
 * Retry-After, and those taken answered once the hold is released (when
 * /metrics has counted the refusals).  Whatever the solver's speed. */
START_TEST(test_burst_over_queue)
{
    enum { N = 200, TAKEN = 1 + 4 };
    test_hold hold = {.fd = -1};
    hold_begin(&hold);
    test_daemon d;
    const char *flags[] = {"--workers", "1", "--queue", "4", "--max-connections-per-ip", "0", NULL};
    daemon_start(&d, flags);
    hold_release_when(&hold, d.direct, "gamejudge_rejected_total", N - TAKEN, 60);
    static const char body[] = "2\n--\n--\n";
    char url[256];
    snprintf(url, sizeof url, "%s/solve/prime-chocolate", d.base);
    http_call *calls = calloc(N, sizeof *calls);
    http_reply *replies = calloc(N, sizeof *replies);
    for (int i = 0; i < N; i++)
        calls[i] = (http_call){"POST", url, NULL, body, sizeof body - 1, 0};
    http_do_parallel(calls, replies, N);
    int ok = 0, refused = 0;
    for (int i = 0; i < N; i++) {
        if (replies[i].status == 503) {
            char *retry = http_header(&replies[i], "Retry-After");
            ck_assert_ptr_nonnull(retry);
            free(retry);
            refused++;
        } else {
            ck_assert_msg(replies[i].status == 200, "reply %d: status %ld (curl %d)", i,
                          replies[i].status, replies[i].curl_error);
            ok++;
        }
        http_reply_free(&replies[i]);
    }
    /* With several I/O threads the burst may fill the queue before the one
     * worker has taken its first job out of it: then one fewer is taken. */
    ck_assert_msg(ok == TAKEN || ok == TAKEN - 1, "%d taken", ok);
    ck_assert_int_eq(refused, N - ok);
    free(calls);
    free(replies);
    hold_end(&hold);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("load");
    TCase *tc = tcase_create("load");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_fresh_burst);
    tcase_add_test(tc, test_sustained_load);
    tcase_add_test(tc, test_burst_over_queue);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

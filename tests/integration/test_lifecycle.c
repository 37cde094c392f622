/* test_lifecycle.c - overload and shutdown against the real daemon.
 *
 * A slow job is a staircase-chess board of 13 x 13 (about 10^7 profiles)
 * with the size limits raised by configuration: a tiny body, a solve of a
 * sizeable fraction of a second, and a known answer (the CLI's). */
#include <check.h>
#include <curl/curl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "daemon.h"

#define SLOW_LIMITS "staircase-chess.rows=13,staircase-chess.cols=13,staircase-chess.size=26"

static char *slow_body;
static char *slow_answer;

/* A 13 x 13 board with values from a fixed linear congruential sequence. */
static char *make_slow_body(void)
{
    size_t cap = 4096;
    char *s = malloc(cap);
    size_t n = (size_t)snprintf(s, cap, "13 13\n");
    unsigned x = 12345;
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 13; i++)
            for (int j = 0; j < 13; j++) {
                x = x * 1103515245u + 12345u;
                n += (size_t)snprintf(s + n, cap - n, "%u%c", (x >> 8) % 100001,
                                      j == 12 ? '\n' : ' ');
            }
    return s;
}

static void prepare(void)
{
    slow_body = make_slow_body();
    const char *args[] = {"solve", "staircase-chess", "--limit", SLOW_LIMITS, NULL};
    char *err;
    int rc = run_cli(args, slow_body, strlen(slow_body), &slow_answer, &err);
    ck_assert_msg(rc == 0, "cli: %s", err);
    free(err);
}

static void cleanup(void)
{
    free(slow_body);
    free(slow_answer);
}

static http_call slow_call(const test_daemon *d, char *url_buf, size_t cap)
{
    snprintf(url_buf, cap, "%s/solve/staircase-chess?format=text", d->base);
    return (http_call){"POST", url_buf, NULL, slow_body, strlen(slow_body), 0};
}

/* 1 worker, queue 1, a burst of 8 slow jobs: the ones that do not fit are
 * refused at once with 503 and Retry-After; the rest are answered right;
 * the daemon serves afterwards. */
START_TEST(test_overload)
{
    enum { N = 8 };
    test_daemon d;
    const char *flags[] = {"--workers", "1", "--queue", "1", "--limit", SLOW_LIMITS, NULL};
    daemon_start(&d, flags);
    char urls[N][128];
    http_call calls[N];
    http_reply replies[N];
    for (int i = 0; i < N; i++)
        calls[i] = slow_call(&d, urls[i], sizeof urls[i]);
    http_do_parallel(calls, replies, N);

    int ok = 0, refused = 0;
    for (int i = 0; i < N; i++) {
        if (replies[i].status == 503) {
            refused++;
            char *retry = http_header(&replies[i], "Retry-After");
            ck_assert_msg(retry != NULL, "503 without Retry-After");
            ck_assert_int_ge(atoi(retry), 1);
            free(retry);
            ck_assert_ptr_nonnull(strstr(replies[i].body, "\"code\":\"overloaded\""));
        } else {
            ck_assert_msg(replies[i].status == 200, "reply %d: %ld %s", i, replies[i].status,
                          replies[i].body);
            ck_assert_str_eq(replies[i].body, slow_answer);
            ok++;
        }
        http_reply_free(&replies[i]);
    }
    ck_assert_int_ge(refused, 1);
    ck_assert_int_ge(ok, 1);
    ck_assert_int_eq(ok + refused, N);

    /* Alive and correct afterwards. */
    http_call again = slow_call(&d, urls[0], sizeof urls[0]);
    http_reply r = http_do(&again);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, slow_answer);
    http_reply_free(&r);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

typedef struct stopper {
    test_daemon *d;
    long delay_ms;
    int refused_after_signal; /* a new connection after SIGTERM was refused */
} stopper;

static void *send_sigterm(void *arg)
{
    stopper *s = arg;
    struct timespec t = {s->delay_ms / 1000, (s->delay_ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
    kill(s->d->pid, SIGTERM);
    t = (struct timespec){0, 100 * 1000000L};
    nanosleep(&t, NULL);
    char u[128];
    snprintf(u, sizeof u, "%s/healthz", s->d->base);
    http_call c = {"GET", u, NULL, NULL, 0, 0};
    http_reply r = http_do(&c);
    s->refused_after_signal = r.curl_error == CURLE_COULDNT_CONNECT;
    http_reply_free(&r);
    return NULL;
}

/* SIGTERM while 4 slow solves are queued or running: every one is answered
 * correctly, new connections are refused, and the daemon exits 0. */
START_TEST(test_sigterm_drains)
{
    enum { N = 4 };
    test_daemon d;
    const char *flags[] = {"--workers", "1", "--queue", "8", "--limit", SLOW_LIMITS, NULL};
    daemon_start(&d, flags);
    char urls[N][128];
    http_call calls[N];
    http_reply replies[N];
    for (int i = 0; i < N; i++)
        calls[i] = slow_call(&d, urls[i], sizeof urls[i]);

    stopper s = {&d, 300, 0};
    pthread_t t;
    pthread_create(&t, NULL, send_sigterm, &s);
    http_do_parallel(calls, replies, N);
    pthread_join(t, NULL);

    for (int i = 0; i < N; i++) {
        ck_assert_msg(replies[i].status == 200, "reply %d: %ld (curl %d) %s", i, replies[i].status,
                      replies[i].curl_error, replies[i].body);
        ck_assert_str_eq(replies[i].body, slow_answer);
        http_reply_free(&replies[i]);
    }
    ck_assert_msg(s.refused_after_signal, "a new connection was accepted while draining");
    int status;
    ck_assert_int_eq(waitpid(d.pid, &status, 0), d.pid);
    d.pid = 0;
    unlink(d.log);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

/* The number of times needle occurs in s. */
static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* The access log is buffered (log.h, as nginx's buffer= flush=1s): a
 * request's line reaches the log within about a second though no request
 * follows it, and after N quick requests and an immediate SIGTERM every one
 * of the N lines is in the log. */
START_TEST(test_access_log_flushed)
{
    enum { N = 300 };
    test_daemon d;
    daemon_start(&d, NULL);
    char u[128];
    snprintf(u, sizeof u, "%s/healthz", d.direct);
    const char *first_id[] = {"X-Request-Id: lone-request", NULL};
    http_call c = {"GET", u, first_id, NULL, 0, 0};
    http_reply r = http_do(&c);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *log = daemon_wait_log(&d, "id=lone-request ");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double waited = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    ck_assert_msg(log != NULL, "the line never came");
    ck_assert_msg(waited < 3.0, "the line came after %.2f s (flush=1s)", waited);
    free(log);

    for (int i = 0; i < N; i++) {
        char id[64];
        snprintf(id, sizeof id, "X-Request-Id: burst-%d", i);
        const char *headers[] = {id, NULL};
        c.headers = headers;
        r = http_do(&c);
        ck_assert_int_eq(r.status, 200);
        http_reply_free(&r);
    }
    kill(d.pid, SIGTERM);
    int status;
    ck_assert_int_eq(waitpid(d.pid, &status, 0), d.pid);
    d.pid = 0;
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    log = daemon_log(&d);
    ck_assert_int_eq(count_of(log, " id=burst-"), N);
    ck_assert_msg(strstr(log, "gamejudge: stopped") != NULL, "no stopped event");
    free(log);
    unlink(d.log);
    daemon_stop(&d); /* only the contract proxy, when there is one */
}
END_TEST

/* Port already in use: a clear message and exit status 1. */
START_TEST(test_port_in_use)
{
    test_daemon d;
    daemon_start(&d, NULL);
    char port[16];
    snprintf(port, sizeof port, "%u", d.port);
    const char *args[] = {"serve", "--host", "127.0.0.1", "--port", port, "--store", "none", NULL};
    char *out, *err;
    ck_assert_int_eq(run_cli(args, "", 0, &out, &err), 1);
    ck_assert_msg(strstr(err, "cannot listen on 127.0.0.1 port") != NULL, "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("lifecycle");
    TCase *tc = tcase_create("lifecycle");
    tcase_set_timeout(tc, 300);
    tcase_add_unchecked_fixture(tc, prepare, cleanup);
    tcase_add_test(tc, test_overload);
    tcase_add_test(tc, test_sigterm_drains);
    tcase_add_test(tc, test_port_in_use);
    tcase_add_test(tc, test_access_log_flushed);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

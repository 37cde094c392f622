/* test_slow_clients.c - clients that trickle, vanish or crowd in.
 *
 * - 200 slowloris connections (headers, or a body, one byte at a time, so
 *   the inactivity timeout never fires) do not stop normal clients, and the
 *   total request deadline closes every one of them;
 * - a solve that waits in the queue past the deadline is answered 503;
 * - a client that disconnects while its solve is queued harms nothing;
 * - the per-address connection limit holds, and frees up again.
 * The time bounds here are liveness bounds (generous multiples of the
 * configured deadline), not performance assertions. */
#include <arpa/inet.h>
#include <check.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "daemon.h"
#include "hold.h"

#define SLOW_LIMITS "staircase-chess.rows=13,staircase-chess.cols=13,staircase-chess.size=26"

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static int connect_to(const test_daemon *d)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)d->port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

/* Has the server closed fd (EOF or reset)?  Non-blocking. */
static int closed_by_server(int fd)
{
    char b[256];
    ssize_t n = recv(fd, b, sizeof b, 0);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

static http_reply solve(const test_daemon *d, const char *game, const char *body)
{
    char url[256];
    snprintf(url, sizeof url, "%s/solve/%s?format=text", d->base, game);
    http_call c = {"POST", url, NULL, body, strlen(body), 0};
    return http_do(&c);
}

/* Trickle `prefix` one byte per tick on each of n sockets until the server
 * closes them all, while normal requests go through; returns ticks taken. */
static int trickle(const test_daemon *d, int n, const char *prefix)
{
    int *fd = calloc((size_t)n, sizeof *fd);
    int *open = calloc((size_t)n, sizeof *open);
    for (int i = 0; i < n; i++) {
        fd[i] = connect_to(d);
        open[i] = 1;
    }
    size_t len = strlen(prefix);
    int ticks = 0, still = n;
    for (; still > 0 && ticks < 100; ticks++) { /* 100 ticks of 100 ms: 10 s */
        for (int i = 0; i < n; i++) {
            if (!open[i])
                continue;
            if (closed_by_server(fd[i]) ||
                send(fd[i], prefix + (size_t)ticks % len, 1, MSG_NOSIGNAL) < 0) {
                open[i] = 0;
                still--;
                close(fd[i]);
            }
        }
        if (ticks % 5 == 0) { /* a normal client, meanwhile */
            http_reply r = solve(d, "prime-chocolate", "1\n-\n");
            ck_assert_msg(r.status == 200, "a normal request failed among slow clients: %ld",
                          r.status);
            ck_assert_str_eq(r.body, "RUBY\n");
            http_reply_free(&r);
        }
        sleep_ms(100);
    }
    ck_assert_msg(still == 0, "%d of %d trickling connections still open after 10 s", still, n);
    free(fd);
    free(open);
    return ticks;
}

START_TEST(test_slowloris_headers)
{
    test_daemon d;
    const char *flags[] = {"--request-timeout",        "2", "--timeout", "30",
                           "--max-connections-per-ip", "0", NULL};
    daemon_start(&d, flags);
    /* A header line that never ends: each byte arrives well within the
     * inactivity timeout, so only the total deadline can end it. */
    trickle(&d, 200,
            "GET /healthz HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    ck_assert(daemon_metric(&d, "gamejudge_deadline_closed_total") >= 200);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

START_TEST(test_slowloris_body)
{
    test_daemon d;
    const char *flags[] = {"--request-timeout",        "2", "--timeout", "30",
                           "--max-connections-per-ip", "0", NULL};
    daemon_start(&d, flags);
    /* Complete headers, then a body far slower than its Content-Length. */
    char head[] = "POST /solve/grid-walk HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n";
    int n = 50, *fd = calloc((size_t)n, sizeof *fd);
    for (int i = 0; i < n; i++) {
        fd[i] = connect_to(&d);
        ck_assert_int_eq(send(fd[i], head, sizeof head - 1, MSG_NOSIGNAL),
                         (ssize_t)sizeof head - 1);
    }
    trickle(&d, 1, "x"); /* keep time passing with the same checks */
    int still = 0;
    for (int t = 0; t < 100; t++) {
        still = 0;
        for (int i = 0; i < n; i++) {
            if (fd[i] < 0)
                continue;
            if (closed_by_server(fd[i]) || send(fd[i], "1", 1, MSG_NOSIGNAL) < 0) {
                close(fd[i]);
                fd[i] = -1;
            } else {
                still++;
            }
        }
        if (still == 0)
            break;
        sleep_ms(100);
    }
    ck_assert_msg(still == 0, "%d slow bodies still open", still);
    free(fd);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

static char *slow_body(void)
{
    char *s = malloc(4096);
    int n = snprintf(s, 4096, "13 13\n");
    for (int i = 0; i < 338; i++)
        n += snprintf(s + n, 4096 - (size_t)n, "%d ", (i * 7919) % 100001);
    return s;
}

/* One worker, held busy (hold.h) for 2.5 s, and a 1 s deadline: the five
 * solves queued behind it have waited past the deadline when the worker
 * comes free, and are answered 503 (not left hanging); the held one is
 * answered normally.  Exact, whatever the solver's speed.  The cache is
 * off, or the copies would be answered from the first. */
START_TEST(test_queue_deadline)
{
    enum { N = 6 };
    test_hold hold = {.fd = -1};
    hold_begin(&hold);
    test_daemon d;
    const char *flags[] = {"--workers",     "1", "--queue", "16", "--request-timeout", "1",
                           "--cache-bytes", "0", NULL};
    daemon_start(&d, flags);
    hold_release_later(&hold, 2.5);
    static const char body[] = "2\n--\n--\n";
    char url[256];
    snprintf(url, sizeof url, "%s/solve/prime-chocolate?format=text", d.base);
    http_call calls[N];
    http_reply replies[N];
    for (int i = 0; i < N; i++)
        calls[i] = (http_call){"POST", url, NULL, body, sizeof body - 1, 0};
    http_do_parallel(calls, replies, N);
    int ok = 0, late = 0;
    for (int i = 0; i < N; i++) {
        if (replies[i].status == 200 && strcmp(replies[i].body, "RUBY\n") == 0)
            ok++;
        else if (replies[i].status == 503 && strstr(replies[i].body, "waited") != NULL &&
                 strstr(replies[i].body, "\"overloaded\"") != NULL)
            late++;
        else
            ck_abort_msg("reply %d: %ld %s", i, replies[i].status, replies[i].body);
        http_reply_free(&replies[i]);
    }
    ck_assert_int_eq(ok, 1);
    ck_assert_int_eq(late, N - 1);
    hold_end(&hold);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* Clients that send a slow solve and hang up at once, while the only
 * worker is busy: their jobs run (or not) without harm, the next client is
 * answered, and the daemon stops cleanly (ASan and LSan watch it). */
START_TEST(test_disconnect_while_queued)
{
    test_daemon d;
    const char *flags[] = {"--workers", "1", "--limit", SLOW_LIMITS, NULL};
    daemon_start(&d, flags);
    char *body = slow_body(), head[256];
    int h =
        snprintf(head, sizeof head,
                 "POST /solve/staircase-chess HTTP/1.1\r\nHost: t\r\nContent-Length: %zu\r\n\r\n",
                 strlen(body));
    for (int i = 0; i < 5; i++) {
        int fd = connect_to(&d);
        ck_assert_int_eq(send(fd, head, (size_t)h, MSG_NOSIGNAL), h);
        ck_assert_int_eq(send(fd, body, strlen(body), MSG_NOSIGNAL), (ssize_t)strlen(body));
        sleep_ms(20);
        close(fd);
    }
    http_reply r = solve(&d, "grid-walk", "1 1\n.\n");
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "WIN\n1 1\n");
    http_reply_free(&r);
    free(body);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* d still answers a solve right, then stops cleanly. */
static void serves_then_stops(test_daemon *d)
{
    http_reply r = solve(d, "prime-chocolate", "1\nX\n");
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "DIA\n");
    http_reply_free(&r);
    ck_assert_int_eq(daemon_stop(d), 0);
}

/* --max-connections-per-ip 4: a fifth connection is closed at once; when
 * the four go, new connections are served again. */
START_TEST(test_per_ip_limit)
{
    test_daemon d;
    const char *flags[] = {"--max-connections-per-ip", "4", NULL};
    daemon_start(&d, flags);
    int held[4];
    for (int i = 0; i < 4; i++)
        held[i] = connect_to(&d);
    sleep_ms(100);
    int extra = connect_to(&d);
    int refused = 0;
    for (int t = 0; t < 50 && !refused; t++) {
        refused = closed_by_server(extra);
        sleep_ms(20);
    }
    ck_assert_msg(refused, "a fifth connection from one address was kept");
    close(extra);
    for (int i = 0; i < 4; i++)
        close(held[i]);
    sleep_ms(200);
    serves_then_stops(&d);
}
END_TEST

/* --max-connections 8: every connection past the eighth is closed at once
 * (before any timeout could close it) and counted in /metrics; when the
 * eight go, new connections are served again. */
START_TEST(test_connection_limit)
{
    test_daemon d;
    const char *flags[] = {"--max-connections",
                           "8",
                           "--max-connections-per-ip",
                           "0",
                           "--timeout",
                           "600",
                           "--admin-address",
                           "127.0.0.1:0",
                           NULL};
    daemon_start(&d, flags);
    int held[8];
    for (int i = 0; i < 8; i++)
        held[i] = connect_to(&d);
    /* The eight are counted once libmicrohttpd has started each. */
    for (int t = 0; t < 500 && daemon_metric(&d, "gamejudge_connections_open") < 8; t++)
        sleep_ms(20);
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_connections_open"), 8);
    enum { EXTRA = 24 };
    for (int i = 0; i < EXTRA; i++) {
        int extra = connect_to(&d);
        int refused = 0;
        /* --timeout 600: a close within these 10 s is the limit's, not the
         * idle timeout's. */
        for (int t = 0; t < 500 && !refused; t++) {
            refused = closed_by_server(extra);
            if (!refused)
                sleep_ms(20);
        }
        ck_assert_msg(refused, "connection %d past the limit was kept open", i + 1);
        close(extra);
    }
    ck_assert_double_eq(daemon_metric(&d, "gamejudge_connections_refused_total"), EXTRA);
    for (int i = 0; i < 8; i++)
        close(held[i]);
    for (int t = 0; t < 500 && daemon_metric(&d, "gamejudge_connections_open") > 0; t++)
        sleep_ms(20);
    serves_then_stops(&d);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("slow clients");
    TCase *tc = tcase_create("slow clients");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_slowloris_headers);
    tcase_add_test(tc, test_slowloris_body);
    tcase_add_test(tc, test_queue_deadline);
    tcase_add_test(tc, test_disconnect_while_queued);
    tcase_add_test(tc, test_per_ip_limit);
    tcase_add_test(tc, test_connection_limit);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

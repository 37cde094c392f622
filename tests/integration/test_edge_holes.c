/* test_edge_holes.c - the edge against an attacker and a careless client,
 * each hole found in it held shut against the real daemon:
 *
 *   - a client that hangs up still pays for the work done for it, and the
 *     parse of a /batch or /judge envelope is work too (quotas by worker
 *     time: the next request from that client is a 429)
 *   - a chunked body past --max-body is answered 413 as it crosses the
 *     bound and no more of it is read
 *   - a client that goes on sending the body it was refused (413 at the
 *     head or mid-body) still reads the whole answer: the close lingers
 *     instead of resetting the connection
 *   - with --cors-origins, a preflight from a listed origin is answered on
 *     any path, so the page reads the real request's 404; the admin
 *     listener sends no CORS header at all
 *   - `format` without '=' or with a NUL is refused as `format=` is; a GET
 *     form's Content-Type describes no body and is not read
 *   - forwarded hops with ports and the RFC 7239 Forwarded header name the
 *     client, not the proxy
 *   - start-up: a --trusted-proxies that trusts everyone is warned about,
 *     an admin port equal to --port is named as the clash
 *
 * Distinct clients are distinct loopback addresses (127.0.0.2, ...). */
/* TCP_CORK is Linux's (netinet/tcp.h shows it with the default features). */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "daemon.h"
#include "hold.h"

/* The first public matrix-game case, its answer, and a heavy position. */
static char *sample, *sample_out;
static size_t sample_len;

/* Load the sample once per test process. */
static void load_sample(void)
{
    if (sample == NULL) {
        sample = read_file_or_fail("tests/data/matrix-game/01.in", &sample_len);
        sample_out = read_file_or_fail("tests/data/matrix-game/01.out", NULL);
    }
}

/* An n x n matrix-game position (a fixed permutation of 1..n^2, k 1):
 * malloc'd text, its length in *len.  At n = 1000 its parse alone takes
 * far more than the 5 ms quota bursts used here. */
static char *matrix(int n, size_t *len)
{
    size_t cells = (size_t)n * (size_t)n;
    char *s = malloc(cells * 9 + 32);
    ck_assert_ptr_nonnull(s);
    size_t o = (size_t)sprintf(s, "%d 1\n", n);
    for (size_t i = 0; i < cells; i++) /* 7919 is prime to n^2: a permutation */
        o += (size_t)sprintf(s + o, "%zu%c", (i * 7919) % cells + 1,
                             (i + 1) % (size_t)n ? ' ' : '\n');
    *len = o;
    return s;
}

/* POST body as `type` to path on d, from address `from`, with the extra headers. */
static http_reply post_from(const test_daemon *d, const char *from, const char *path,
                            const char *type, const char *body, size_t len,
                            const char *const *extra)
{
    char url[160], content[80];
    const char *headers[8] = {content};
    snprintf(url, sizeof url, "%s%s", d->direct, path);
    snprintf(content, sizeof content, "Content-Type: %s", type);
    for (size_t i = 0; extra != NULL && extra[i] != NULL && i < 6; i++)
        headers[i + 1] = extra[i];
    http_call c = {"POST", url, headers, body, len, 0};
    return http_do_from(&c, from);
}

/* The sample solve from `from` (with headers): its status. */
static long sample_status(const test_daemon *d, const char *from, const char *const *headers)
{
    http_reply r = post_from(d, from, "/solve/matrix-game?format=text", "text/plain", sample,
                             sample_len, headers);
    long status = r.status;
    if (status == 200)
        ck_assert_str_eq(r.body, sample_out);
    http_reply_free(&r);
    return status;
}

/* Send the whole request from address `from` to d without reading the
 * answer: the socket, for the caller to close (a client that gives up).
 * `corked`: the bytes wait (TCP_CORK) until the caller's shutdown sends
 * them with the FIN, so the daemon sees the request and the end together. */
static int send_from(const test_daemon *d, const char *from, const char *req, size_t len,
                     const char *body, size_t body_len, int corked)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    if (corked) /* held until shutdown: the request and its FIN leave together */
        ck_assert_int_eq(setsockopt(fd, IPPROTO_TCP, TCP_CORK, &corked, sizeof corked), 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    inet_pton(AF_INET, from, &a.sin_addr);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    a.sin_port = htons((uint16_t)d->port);
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    const char *parts[] = {req, body};
    size_t sizes[] = {len, body_len};
    for (int k = 0; k < 2; k++)
        for (size_t sent = 0; sent < sizes[k];) {
            ssize_t n = send(fd, parts[k] + sent, sizes[k] - sent, MSG_NOSIGNAL);
            ck_assert_int_gt(n, 0);
            sent += (size_t)n;
        }
    return fd;
}

/* The daemon's log once it holds `needle` (the request is logged when it
 * ends); fails the test when it never does. */
static char *log_with(const test_daemon *d, const char *needle)
{
    char *log = daemon_wait_log(d, needle);
    ck_assert_msg(log != NULL, "the log never showed %s", needle);
    return log;
}

/* ---- quotas: work is charged however a job ends ------------------------ */

/* The client hangs up while its job runs (held by the test hook until the
 * hang-up, so the order is certain): the parse and the solve it started
 * are charged when the request ends, whether the daemon sees the hang-up
 * before the solve ends (end "abandoned") or only once it has written an
 * answer nobody reads: a fast machine can solve the matrix before the
 * connection's watcher looks.  The request's access line is written once
 * its charge is taken (http.c), so the next request sees it. */
START_TEST(test_hanging_up_does_not_dodge_the_quota)
{
    test_daemon d;
    test_hold hold = {.fd = -1};
    hold_begin(&hold);
    const char *flags[] = {"--workers",
                           "1",
                           "--quota-rate",
                           "1",
                           "--quota-burst",
                           "5",
                           "--cache-bytes",
                           "0",
                           "--log-format",
                           "json",
                           NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = matrix(1000, &len);
    char head[256];
    int n = snprintf(head, sizeof head,
                     "POST /solve/matrix-game HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     "Content-Length: %zu\r\n\r\n",
                     len);
    int fd = send_from(&d, "127.0.0.2", head, (size_t)n, big, len, 0);
    for (int i = 0; i < 500 && daemon_metric(&d, "gamejudge_workers_busy") < 1; i++)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    ck_assert(daemon_metric(&d, "gamejudge_workers_busy") == 1); /* the job has begun */
    close(fd);
    hold_release(&hold);
    free(log_with(&d, "\"path\":\"/solve/matrix-game\""));
    hold_end(&hold);
    /* The work done before the hang-up was taken from 127.0.0.2's 5 ms. */
    ck_assert_int_eq(sample_status(&d, "127.0.0.2", NULL), 429);
    ck_assert_int_eq(sample_status(&d, "127.0.0.3", NULL), 200);
    free(big);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A /batch item naming no game, with a large position: the envelope's
 * parse is the work, answered 200 with a per-item error. */
static char *batch_body(size_t pairs, size_t *len)
{
    char *s = malloc(pairs * 16 + 128);
    ck_assert_ptr_nonnull(s);
    size_t o = (size_t)sprintf(s, "{\"items\":[{\"game\":\"nope\",\"position\":{\"a\":[");
    for (size_t i = 0; i < pairs; i++)
        o += (size_t)sprintf(s + o, "%s[%zu,%zu]", i ? "," : "", i % 1000, i % 997);
    o += (size_t)sprintf(s + o, "]}}]}");
    *len = o;
    return s;
}

START_TEST(test_envelope_parse_is_charged)
{
    test_daemon d;
    const char *flags[] = {"--quota-rate", "1", "--quota-burst", "5", NULL};
    daemon_start(&d, flags);
    size_t len;
    char *body = batch_body(300000, &len);
    http_reply r = post_from(&d, "127.0.0.2", "/batch", "application/json", body, len, NULL);
    ck_assert_msg(r.status == 200, "%ld %s", r.status, r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "\"unknown_game\""));
    http_reply_free(&r);
    ck_assert_int_eq(sample_status(&d, "127.0.0.2", NULL), 429);

    /* /judge: a test set over --judge-max-cases (1200 cases of 4 KB) is
     * refused only after its parse, which is charged all the same. */
    size_t cases = 1200, o = 0, pad = 4096;
    char *set = malloc(cases * (pad + 64) + 32);
    ck_assert_ptr_nonnull(set);
    o += (size_t)sprintf(set, "{\"cases\":[");
    for (size_t i = 0; i < cases; i++) {
        o += (size_t)sprintf(set + o, "%s{\"input\":\"1 1\\n.\\n", i ? "," : "");
        memset(set + o, ' ', pad);
        o += pad;
        o += (size_t)sprintf(set + o, "\",\"output\":\"x\"}");
    }
    o += (size_t)sprintf(set + o, "]}");
    r = post_from(&d, "127.0.0.3", "/judge/grid-walk", "application/json", set, o, NULL);
    ck_assert_msg(r.status == 400 && strstr(r.body, "--judge-max-cases"), "%ld %.200s", r.status,
                  r.body);
    http_reply_free(&r);
    ck_assert_int_eq(sample_status(&d, "127.0.0.3", NULL), 429);
    free(set);
    free(body);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* A client that half-closes after its request (shutdown(SHUT_WR)) is
 * gone, whatever its job costs (the cheap request is corked, so its FIN is
 * there when it is read; a heavy one's job starts long after its FIN): the cheap solve the I/O
 * thread would answer at once and the heavy one a worker would take both end with the connection
 * closed unanswered, logged end=abandoned. */
START_TEST(test_half_close_is_one_rule)
{
    test_daemon d;
    const char *flags[] = {"--workers", "1", "--log-format", "json", NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = matrix(1000, &len);
    const char *bodies[] = {sample, big};
    size_t sizes[] = {sample_len, len};
    for (int k = 0; k < 2; k++) {
        char head[256];
        int n = snprintf(head, sizeof head,
                         "POST /solve/matrix-game HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         "text/plain\r\nContent-Length: %zu\r\n\r\n",
                         sizes[k]);
        int fd = send_from(&d, "127.0.0.1", head, (size_t)n, bodies[k], sizes[k], k == 0);
        shutdown(fd, SHUT_WR);
        struct timeval tv = {30, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        char got[256];
        ssize_t r = recv(fd, got, sizeof got, 0);
        ck_assert_msg(r == 0, "%s solve: %zd bytes of an answer to a gone client",
                      k ? "heavy" : "cheap", r);
        close(fd);
    }
    /* Each is logged as its connection closes: wait for both lines. */
    int abandoned = 0;
    for (int tries = 0; tries < 100 && abandoned < 2; tries++) {
        nanosleep(&(struct timespec){0, 50000000}, NULL);
        char *log = daemon_log(&d);
        abandoned = 0;
        for (const char *p = log; (p = strstr(p, "\"end\":\"abandoned\"")) != NULL; p++)
            abandoned++;
        free(log);
    }
    ck_assert_int_eq(abandoned, 2);
    free(big);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* ---- bodies past the bound --------------------------------------------- */

/* Send `rounds` times a body of `size` bytes that the daemon refuses
 * before its end (chunked or with its Content-Length): libcurl reads an
 * answer that comes while it uploads, so each round must be `status` with
 * the JSON error naming `names`, never a send failure (curl 55) from a
 * reset that overtook the answer. */
static void refused_whole(const test_daemon *d, size_t size, int chunked, int rounds, int status,
                          const char *names)
{
    char *big = malloc(size);
    ck_assert_ptr_nonnull(big);
    memset(big, '.', size);
    char url[128];
    snprintf(url, sizeof url, "%s/solve/grid-walk", d->direct);
    const char *const type[] = {"Content-Type: text/plain", NULL};
    for (int i = 0; i < rounds; i++) {
        http_call c = {"POST", url, type, big, size, chunked};
        http_reply r = http_do(&c);
        ck_assert_msg(r.status == status && strstr(r.body, names) != NULL,
                      "round %d (%s): %ld, curl %d %s", i, chunked ? "chunked" : "Content-Length",
                      r.status, r.curl_error, r.body ? r.body : "");
        ck_assert_ptr_nonnull(strstr(r.body, "\"too_large\""));
        http_reply_free(&r);
    }
    free(big);
}

START_TEST(test_refused_body_still_reads_its_answer)
{
    test_daemon d;
    const char *flags[] = {"--max-body", "64K", NULL};
    daemon_start(&d, flags);
    /* Past --max-body mid-stream, then announced past it in the head. */
    refused_whole(&d, 4u << 20, 1, 300, 413, "--max-body");
    refused_whole(&d, 4u << 20, 0, 300, 413, "--max-body");
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

START_TEST(test_chunked_body_cut_at_the_bound)
{
    test_daemon d;
    const char *flags[] = {"--max-body", "1M", "--log-format", "json", NULL};
    daemon_start(&d, flags);
    size_t len = 8u << 20;
    char *big = malloc(len);
    ck_assert_ptr_nonnull(big);
    memset(big, '.', len);
    char url[128];
    snprintf(url, sizeof url, "%s/solve/grid-walk", d.direct);
    const char *const type[] = {"Content-Type: text/plain", NULL};
    http_call c = {"POST", url, type, big, len, 1};
    http_reply r = http_do(&c);
    ck_assert_msg(r.status == 413, "%ld %s", r.status, r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "--max-body"));
    http_reply_free(&r);
    char *log = log_with(&d, "\"end\":\"cut\"");
    const char *at = strstr(log, "\"bytes_in\":");
    ck_assert_ptr_nonnull(at);
    long in = atol(at + 11);
    /* Read up to the bound and what was in flight, never the 8 MiB. */
    ck_assert_msg(in > (1 << 20) && in < (4 << 20), "read %ld bytes of the body", in);
    free(log);
    /* The daemon serves on. */
    load_sample();
    ck_assert_int_eq(sample_status(&d, "127.0.0.1", NULL), 200);
    free(big);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* ---- CORS ------------------------------------------------------------- */

/* method on base+path with headers: the reply. */
static http_reply call(const char *method, const char *base, const char *path,
                       const char *const *headers)
{
    char url[320];
    snprintf(url, sizeof url, "%s%s", base, path);
    http_call c = {method, url, headers, NULL, 0, 0};
    return http_do(&c);
}

START_TEST(test_preflight_on_any_path)
{
    test_daemon d;
    const char *flags[] = {"--cors-origins", "https://site.example", "--admin-address",
                           "127.0.0.1:0", NULL};
    daemon_start(&d, flags);
    const char *const listed[] = {"Origin: https://site.example",
                                  "Access-Control-Request-Method: POST", NULL};
    const char *const other[] = {"Origin: https://evil.example",
                                 "Access-Control-Request-Method: POST", NULL};
    static const char *const paths[] = {"/solve/chess", "/nowhere", "/analyze/"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        http_reply r = call("OPTIONS", d.direct, paths[i], listed);
        ck_assert_msg(r.status == 204, "%s: %ld", paths[i], r.status);
        char *origin = http_header(&r, "Access-Control-Allow-Origin");
        char *methods = http_header(&r, "Access-Control-Allow-Methods");
        ck_assert_str_eq(origin, "https://site.example");
        ck_assert_ptr_nonnull(strstr(methods, "POST"));
        free(origin);
        free(methods);
        http_reply_free(&r);
        /* An origin not listed learns nothing new: the 404 as before. */
        r = call("OPTIONS", d.direct, paths[i], other);
        ck_assert_msg(r.status == 404, "%s: %ld", paths[i], r.status);
        ck_assert_ptr_null(http_header(&r, "Access-Control-Allow-Origin"));
        http_reply_free(&r);
    }
    /* The real request then carries its error, readable by the page. */
    const char *const origin[] = {"Origin: https://site.example", NULL};
    http_reply r = post_from(&d, "127.0.0.1", "/solve/chess", "text/plain", "1", 1, origin);
    ck_assert_int_eq(r.status, 404);
    ck_assert_ptr_nonnull(strstr(r.body, "\"unknown_game\""));
    char *allowed = http_header(&r, "Access-Control-Allow-Origin");
    ck_assert_str_eq(allowed, "https://site.example");
    free(allowed);
    http_reply_free(&r);
    /* The admin listener: no CORS header on /metrics, no preflight. */
    r = call("GET", d.admin, "/metrics", origin);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_null(http_header(&r, "Access-Control-Allow-Origin"));
    ck_assert_ptr_null(http_header(&r, "Vary"));
    http_reply_free(&r);
    r = call("OPTIONS", d.admin, "/metrics", listed);
    ck_assert_int_ne(r.status, 204);
    ck_assert_ptr_null(http_header(&r, "Access-Control-Allow-Origin"));
    http_reply_free(&r);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* ---- the query and headers a careless client sends --------------------- */

START_TEST(test_format_and_bodiless_types)
{
    test_daemon d;
    daemon_start(&d, NULL);
    const char *q = "/solve/matrix-game?input=3+1%0A1+2+4%0A6+8+3%0A5+7+9%0A";
    char path[192];
    static const char *const bad[] = {"&format", "&format=text%00", "&format=", "&format=xml"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "%s%s", q, bad[i]);
        http_reply r = call("GET", d.direct, path, NULL);
        ck_assert_msg(r.status == 400 && strstr(r.body, "format"), "%s: %ld %s", bad[i], r.status,
                      r.body);
        http_reply_free(&r);
    }
    /* POST forms read the same rule. */
    load_sample();
    http_reply p = post_from(&d, "127.0.0.1", "/solve/matrix-game?format", "text/plain", sample,
                             sample_len, NULL);
    ck_assert_int_eq(p.status, 400);
    http_reply_free(&p);
    /* A GET has no body: its Content-Type is not read. */
    const char *const png[] = {"Content-Type: image/png", NULL};
    http_reply r = call("GET", d.direct, q, png);
    ck_assert_msg(r.status == 200, "%ld %s", r.status, r.body);
    http_reply_free(&r);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

START_TEST(test_forwarded_forms_name_the_client)
{
    test_daemon d;
    const char *flags[] = {"--quota-rate",
                           "1",
                           "--quota-burst",
                           "5",
                           "--trusted-proxies",
                           "127.0.0.5",
                           "--cache-bytes",
                           "0",
                           NULL};
    daemon_start(&d, flags);
    size_t len;
    char *big = matrix(1000, &len);
    static const struct {
        const char *heavy, *same, *other;
    } forms[] = {
        {"X-Forwarded-For: 198.51.100.7:4711", "X-Forwarded-For: 198.51.100.7",
         "X-Forwarded-For: 198.51.100.8:4711"},
        {"X-Forwarded-For: [2001:db8::7]:443", "X-Forwarded-For: 2001:db8::7",
         "X-Forwarded-For: [2001:db8::8]:443"},
        {"Forwarded: for=\"[2001:db8::9]:443\";proto=https", "X-Forwarded-For: 2001:db8::9",
         "Forwarded: for=198.51.100.9"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        const char *const heavy[] = {forms[i].heavy, NULL};
        const char *const same[] = {forms[i].same, NULL};
        const char *const other[] = {forms[i].other, NULL};
        http_reply r =
            post_from(&d, "127.0.0.5", "/solve/matrix-game", "text/plain", big, len, heavy);
        ck_assert_int_eq(r.status, 200);
        http_reply_free(&r);
        ck_assert_msg(sample_status(&d, "127.0.0.5", same) == 429, "%s", forms[i].same);
        ck_assert_msg(sample_status(&d, "127.0.0.5", other) == 200, "%s", forms[i].other);
    }
    ck_assert_int_eq(sample_status(&d, "127.0.0.5", NULL), 200); /* the proxy's own bucket */
    free(big);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* ---- start-up ----------------------------------------------------------- */

START_TEST(test_startup_names_what_is_risky_or_clashes)
{
    test_daemon d;
    const char *flags[] = {"--trusted-proxies", "10.0.0.0/8,0.0.0.0/0", NULL};
    daemon_start(&d, flags);
    char *log = daemon_log(&d);
    ck_assert_msg(strstr(log, "--trusted-proxies trusts every address") != NULL, "log: %s", log);
    free(log);
    ck_assert_int_eq(daemon_stop(&d), 0);

    /* A port taken by --admin-address: the clash is named. */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    socklen_t alen = sizeof a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
    char port[16], admin[48];
    snprintf(port, sizeof port, "%u", (unsigned)ntohs(a.sin_port));
    snprintf(admin, sizeof admin, "127.0.0.1:%s", port);
    close(fd); /* free again: the daemon's admin listener takes it */
    const char *args[] = {"serve",   "--host", "127.0.0.1",       "--port", port,
                          "--store", "none",   "--admin-address", admin,    NULL};
    char *out = NULL, *err = NULL;
    int rc = run_cli(args, "", 0, &out, &err);
    ck_assert_int_ne(rc, 0);
    ck_assert_msg(strstr(err, "--admin-address") != NULL && strstr(err, port) != NULL, "stderr: %s",
                  err);
    free(out);
    free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("edge holes");
    TCase *tc = tcase_create("edge holes");
    tcase_add_unchecked_fixture(tc, load_sample, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hanging_up_does_not_dodge_the_quota);
    tcase_add_test(tc, test_envelope_parse_is_charged);
    tcase_add_test(tc, test_half_close_is_one_rule);
    tcase_add_test(tc, test_chunked_body_cut_at_the_bound);
    tcase_add_test(tc, test_refused_body_still_reads_its_answer);
    tcase_add_test(tc, test_preflight_on_any_path);
    tcase_add_test(tc, test_format_and_bodiless_types);
    tcase_add_test(tc, test_forwarded_forms_name_the_client);
    tcase_add_test(tc, test_startup_names_what_is_risky_or_clashes);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

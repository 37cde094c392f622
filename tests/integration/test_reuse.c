/* test_reuse.c - a request answered on a connection that served others
 * first is answered as if it were the daemon's very first: the I/O thread
 * reuses a finished request's block and body buffer (http.c's spares), so
 * nothing of one request may show in the next.
 *
 * The oracle for each request of a fixed set (every game's sample, matrix
 * bodies of seeded sizes on both sides of the kept buffer's 64 KiB, bad
 * input, errors of the HTTP layer, answers without a solve) is a daemon
 * started for that request alone.  Then one daemon with a single I/O thread
 * gets seeded sequences of those requests pipelined on one keep-alive
 * connection, and on fresh connections one after another; every answer
 * must match its oracle: status, body, and each header but the Date and the
 * Connection (the last request of a sequence closes it); Server-Timing by
 * name only, since it holds times.  Every request names its X-Request-Id,
 * which error bodies repeat. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client.h"
#include "daemon.h"
#include "rawhttp.h"

#define NREQ     24
#define SEQ_LEN  60
#define MAX_HEAD 40

/* One request as sent, without its Connection header. */
typedef struct req_text {
    char *head; /* request line and headers, each ending CRLF, no blank line */
    char *body;
    size_t len;
} req_text;

/* One response split from what the daemon sent. */
typedef struct resp {
    int status;
    char *lines[MAX_HEAD]; /* the headers kept for comparison, in order */
    int nlines;
    char *body;
    size_t len;
} resp;

static req_text reqs[NREQ];
static resp oracle[NREQ];
static unsigned long long seed = 0x5eed1234abcdull;

/* The next value of a fixed-seed generator. */
static unsigned long long next_rand(void)
{
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
}

/* An n x n matrix-game text body, a seeded permutation of 1..n^2 (k 1):
 * malloc'd, *len its size. */
static char *matrix_body(int n, size_t *len)
{
    size_t cells = (size_t)n * (size_t)n, cap = cells * 8 + 64, at = 0;
    unsigned *v = malloc(cells * sizeof *v);
    char *s = malloc(cap);
    ck_assert(v != NULL && s != NULL);
    for (size_t c = 0; c < cells; c++)
        v[c] = (unsigned)c + 1;
    for (size_t c = cells - 1; c > 0; c--) {
        size_t o = (size_t)(next_rand() % (c + 1));
        unsigned t = v[c];
        v[c] = v[o];
        v[o] = t;
    }
    at += (size_t)snprintf(s, cap, "%d 1\n", n);
    for (size_t c = 0; c < cells; c++)
        at += (size_t)snprintf(s + at, cap - at, "%u%c", v[c], (c + 1) % (size_t)n ? ' ' : '\n');
    free(v);
    *len = at;
    return s;
}

/* Make request i: a POST of body[len] (taken) to target, with extra headers. */
static void make_post(int i, const char *target, const char *extra, char *body, size_t len)
{
    char head[512];
    snprintf(head, sizeof head,
             "POST %s HTTP/1.1\r\nHost: x\r\nX-Request-Id: r%d\r\nContent-Type: "
             "text/plain\r\nContent-Length: %zu\r\n%s",
             target, i, len, extra);
    reqs[i] = (req_text){strdup(head), body, len};
}

/* Make request i: a GET of target with extra headers. */
static void make_get(int i, const char *target, const char *extra)
{
    char head[512];
    snprintf(head, sizeof head, "GET %s HTTP/1.1\r\nHost: x\r\nX-Request-Id: r%d\r\n%s", target, i,
             extra);
    reqs[i] = (req_text){strdup(head), strdup(""), 0};
}

/* The fixed request set. */
static void make_requests(void)
{
    static const char *games[] = {"matrix-game", "grid-walk", "nim-shortcuts", "prime-chocolate",
                                  "staircase-chess"};
    int i = 0;
    for (int g = 0; g < 5; g++) {
        char path[128], target[160];
        size_t len;
        snprintf(path, sizeof path, "tests/data/%s/01.in", games[g]);
        char *body = read_file_or_fail(path, &len);
        snprintf(target, sizeof target, "/solve/%s", games[g]);
        make_post(i++, target, "", body, len);
        snprintf(target, sizeof target, "/solve/%s?format=json", games[g]);
        make_post(i++, target, "Accept: application/json\r\n", strdup(body), len);
    }
    /* Matrices of seeded sizes: from a few bytes to past the kept 64 KiB. */
    for (int k = 0; k < 6; k++) {
        size_t len;
        int n = 2 + (int)(next_rand() % (k < 3 ? 20 : 160));
        char *body = matrix_body(n, &len);
        make_post(i++, "/solve/matrix-game", "", body, len);
    }
    make_post(i++, "/solve/nim-shortcuts", "", strdup("2 1\nx y\n"), 8);
    make_post(i++, "/solve/matrix-game", "", strdup(""), 0);
    make_post(i++, "/solve/no-such-game", "", strdup("1 1\n5\n"), 6);
    make_post(i++, "/solve/grid-walk", "Content-Type: image/png\r\n", strdup("1 1\n.\n"), 6);
    make_get(i++, "/healthz", "");
    make_get(i++, "/games", "");
    make_get(i++, "/nowhere", "");
    make_get(i++, "/readyz", "");
    ck_assert_int_eq(i, NREQ);
}

/* Keep a header line for comparison, or not (Date, Connection); Server-Timing
 * keeps only its name. */
static void keep_line(resp *r, const char *line, size_t n)
{
    if ((n >= 5 && strncasecmp(line, "Date:", 5) == 0) ||
        (n >= 11 && strncasecmp(line, "Connection:", 11) == 0))
        return;
    if (n >= 14 && strncasecmp(line, "Server-Timing:", 14) == 0)
        n = 14;
    ck_assert_int_lt(r->nlines, MAX_HEAD);
    r->lines[r->nlines] = malloc(n + 1);
    ck_assert_ptr_nonnull(r->lines[r->nlines]);
    memcpy(r->lines[r->nlines], line, n);
    r->lines[r->nlines++][n] = '\0';
}

/* Split the response at *p (its end `end`); *p moves past it. */
static resp split_one(const char **p, const char *end)
{
    resp r = {0};
    const char *blank = strstr(*p, "\r\n\r\n");
    ck_assert_msg(blank != NULL && strncmp(*p, "HTTP/1.1 ", 9) == 0, "no response at %.40s", *p);
    r.status = atoi(*p + 9);
    size_t body_len = 0;
    int has_length = 0;
    const char *line = strstr(*p, "\r\n") + 2;
    while (line < blank + 2) {
        const char *eol = strstr(line, "\r\n");
        if (strncasecmp(line, "Content-Length:", 15) == 0) {
            body_len = strtoul(line + 15, NULL, 10);
            has_length = 1;
        }
        keep_line(&r, line, (size_t)(eol - line));
        line = eol + 2;
    }
    ck_assert_msg(has_length, "a response without Content-Length");
    const char *body = blank + 4;
    ck_assert_msg(body + body_len <= end, "a short response body");
    r.body = malloc(body_len + 1);
    ck_assert_ptr_nonnull(r.body);
    memcpy(r.body, body, body_len);
    r.body[body_len] = '\0';
    r.len = body_len;
    *p = body + body_len;
    return r;
}

/* Free what split_one made. */
static void resp_free(resp *r)
{
    for (int i = 0; i < r->nlines; i++)
        free(r->lines[i]);
    free(r->body);
}

/* Append request i to s (a growing buffer), closing the connection or not. */
static void append_request(char **s, size_t *len, size_t *cap, int i, int close)
{
    const req_text *q = &reqs[i];
    const char *conn = close ? "Connection: close\r\n\r\n" : "\r\n";
    size_t need = strlen(q->head) + strlen(conn) + q->len;
    while (*len + need + 1 > *cap) {
        *cap = *cap ? *cap * 2 : 4096;
        *s = realloc(*s, *cap);
        ck_assert_ptr_nonnull(*s);
    }
    memcpy(*s + *len, q->head, strlen(q->head));
    *len += strlen(q->head);
    memcpy(*s + *len, conn, strlen(conn));
    *len += strlen(conn);
    memcpy(*s + *len, q->body, q->len);
    *len += q->len;
    (*s)[*len] = '\0';
}

/* Request i's response on a connection of its own to port. */
static resp alone(unsigned port, int i)
{
    char *s = NULL;
    size_t len = 0, cap = 0;
    append_request(&s, &len, &cap, i, 1);
    raw_reply r = raw_exchange(port, s, len);
    free(s);
    ck_assert_msg(r.status != 0, "request %d: no answer", i);
    size_t hl = strlen(r.head);
    char *all = malloc(hl + 2 + r.len + 1);
    ck_assert_ptr_nonnull(all);
    memcpy(all, r.head, hl);
    memcpy(all + hl, "\r\n", 2);
    memcpy(all + hl + 2, r.body, r.len);
    all[hl + 2 + r.len] = '\0';
    const char *p = all;
    resp out = split_one(&p, all + hl + 2 + r.len);
    free(all);
    raw_reply_free(&r);
    return out;
}

/* Fail unless got, the answer to request i at step `step`, is its oracle's. */
static void check_same(const resp *got, int i, int step)
{
    const resp *want = &oracle[i];
    ck_assert_msg(got->status == want->status, "step %d request %d: status %d, alone %d", step, i,
                  got->status, want->status);
    ck_assert_msg(got->len == want->len && memcmp(got->body, want->body, got->len) == 0,
                  "step %d request %d: body '%.300s' differs from its answer alone '%.300s'", step,
                  i, got->body, want->body);
    ck_assert_msg(got->nlines == want->nlines, "step %d request %d: %d headers, alone %d", step, i,
                  got->nlines, want->nlines);
    for (int k = 0; k < got->nlines; k++)
        ck_assert_msg(strcmp(got->lines[k], want->lines[k]) == 0,
                      "step %d request %d: header '%s', alone '%s'", step, i, got->lines[k],
                      want->lines[k]);
}

static const char *const args[] = {"--cache-bytes", "0", "--io-threads", "1", NULL};

/* The requests, and each one's oracle: a daemon that serves it alone
 * (once per test process: Check runs each test in a child of its own). */
static void make_oracles(void)
{
    static int made;
    if (made++)
        return;
    make_requests();
    for (int i = 0; i < NREQ; i++) {
        test_daemon d;
        daemon_start(&d, args);
        oracle[i] = alone(d.port, i);
        daemon_stop(&d);
    }
}

/* Seeded sequences pipelined on one keep-alive connection. */
START_TEST(test_pipelined_sequences)
{
    make_oracles();
    test_daemon d;
    daemon_start(&d, args);
    for (int round = 0; round < 3; round++) {
        int seq[SEQ_LEN];
        char *s = NULL;
        size_t len = 0, cap = 0;
        for (int k = 0; k < SEQ_LEN; k++) {
            seq[k] = (int)(next_rand() % NREQ);
            /* An error of the HTTP layer may close the connection: last only. */
            while (k + 1 < SEQ_LEN && seq[k] >= 16 && seq[k] <= 19)
                seq[k] = (int)(next_rand() % NREQ);
            append_request(&s, &len, &cap, seq[k], k + 1 == SEQ_LEN);
        }
        raw_reply r = raw_exchange(d.port, s, len);
        free(s);
        ck_assert_int_ne(r.status, 0);
        size_t hl = strlen(r.head);
        char *all = malloc(hl + 2 + r.len + 1);
        ck_assert_ptr_nonnull(all);
        memcpy(all, r.head, hl);
        memcpy(all + hl, "\r\n", 2);
        memcpy(all + hl + 2, r.body, r.len);
        all[hl + 2 + r.len] = '\0';
        const char *p = all, *end = all + hl + 2 + r.len;
        for (int k = 0; k < SEQ_LEN; k++) {
            resp got = split_one(&p, end);
            check_same(&got, seq[k], k);
            resp_free(&got);
        }
        ck_assert_msg(p == end, "bytes after the last answer");
        free(all);
        raw_reply_free(&r);
    }
    daemon_stop(&d);
}
END_TEST

/* Seeded sequences, each request on a fresh connection: the blocks pass
 * from one connection to the next on the one I/O thread. */
START_TEST(test_fresh_connections)
{
    make_oracles();
    test_daemon d;
    daemon_start(&d, args);
    for (int k = 0; k < SEQ_LEN; k++) {
        int i = (int)(next_rand() % NREQ);
        resp got = alone(d.port, i);
        check_same(&got, i, k);
        resp_free(&got);
    }
    daemon_stop(&d);
}
END_TEST

/* The suite: the requests and their oracles made once. */
static Suite *reuse_suite(void)
{
    Suite *s = suite_create("reuse");
    TCase *tc = tcase_create("reuse");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_pipelined_sequences);
    tcase_add_test(tc, test_fresh_connections);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(reuse_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

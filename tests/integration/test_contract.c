/* test_contract.c - the contract check itself, and what the API suite's
 * contract run cannot reach.
 *
 * 1. The check must be able to fail: a fake server in this file answers
 *    with the spec's mistakes a change could make (a renamed JSON field, a
 *    dropped header, an undocumented status), behind the same validating
 *    proxy, and contract_check must report each.
 * 2. 503 overloaded, which needs a daemon with one worker and slow jobs,
 *    passes the proxy without a violation.
 *
 * Needs the pinned prism (node_modules; `make deps`). */
#include <check.h>
#include <curl/curl.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "daemon.h"

/* ---- a server that breaks the spec on purpose ---------------------- */

typedef struct wrong_answer {
    const char *path;
    unsigned status;
    const char *body;
    int with_request_id;
} wrong_answer;

static const wrong_answer wrong[] = {
    /* the field "verdict" renamed */
    {"/solve/grid-walk", 200, "{\"game\":\"grid-walk\",\"verdikt\":\"LOSE\",\"winning_cells\":[]}",
     1},
    /* X-Request-Id dropped */
    {"/solve/prime-chocolate", 200, "{\"game\":\"prime-chocolate\",\"winner\":\"DIA\"}", 0},
    /* a status the document does not list */
    {"/solve/staircase-chess", 418, "{\"error\":{\"code\":\"teapot\",\"message\":\"no\"}}", 1},
};

static enum MHD_Result answer_wrongly(void *cls, struct MHD_Connection *conn, const char *url,
                                      const char *method, const char *version, const char *upload,
                                      size_t *upload_size, void **state)
{
    (void)cls, (void)method, (void)version, (void)upload;
    if (*state == NULL) { /* first call: headers only */
        *state = conn;
        return MHD_YES;
    }
    if (*upload_size > 0) {
        *upload_size = 0;
        return MHD_YES;
    }
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        if (strcmp(url, wrong[i].path) != 0)
            continue;
        struct MHD_Response *r = MHD_create_response_from_buffer(
            strlen(wrong[i].body), (void *)wrong[i].body, MHD_RESPMEM_PERSISTENT);
        MHD_add_response_header(r, "Content-Type", "application/json");
        MHD_add_response_header(
            r, "Server-Timing",
            "queue;dur=0.001, parse;dur=0.001, solve;dur=0.001, write;dur=0.001");
        if (wrong[i].with_request_id)
            MHD_add_response_header(r, "X-Request-Id", "fake");
        enum MHD_Result rc = MHD_queue_response(conn, wrong[i].status, r);
        MHD_destroy_response(r);
        return rc;
    }
    return MHD_NO;
}

START_TEST(test_check_catches_breakage)
{
    struct MHD_Daemon *fake = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL,
                                               answer_wrongly, NULL, MHD_OPTION_END);
    ck_assert_ptr_nonnull(fake);
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(fake, MHD_DAEMON_INFO_BIND_PORT);

    /* Put the proxy in front of the fake by posing as a started daemon. */
    test_daemon d;
    memset(&d, 0, sizeof d);
    d.port = info->port;
    snprintf(d.log, sizeof d.log, "/tmp/gj-contract-XXXXXX");
    close(mkstemp(d.log));
    daemon_start_proxy(&d);

    static const char *const bodies[] = {"1 1\n.\n", "1\n-\n", "1 1\n1\n1\n"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        char url[256], why[2048];
        snprintf(url, sizeof url, "%s%s", d.base, wrong[i].path);
        const char *type[] = {"Content-Type: text/plain", NULL};
        http_call c = {"POST", url, type, bodies[i], strlen(bodies[i]), 0};
        /* Not http_do: it would fail this test on the very violation wanted. */
        unsetenv("GJ_CONTRACT");
        http_reply r = http_do(&c);
        setenv("GJ_CONTRACT", "1", 1);
        ck_assert_msg(r.status == (long)wrong[i].status, "%s: status %ld", wrong[i].path, r.status);
        ck_assert_msg(contract_check(&c, &r, why, sizeof why) > 0,
                      "%s: the contract check missed a broken answer", wrong[i].path);
        http_reply_free(&r);
    }
    daemon_stop(&d); /* stops the proxy; there is no daemon process */
    unlink(d.log);
    MHD_stop_daemon(fake);
}
END_TEST

/* ---- 503 through the proxy ------------------------------------------- */

START_TEST(test_overloaded_matches_spec)
{
    enum { N = 6 };
    test_daemon d;
    const char *flags[] = {
        "--workers", "1",
        "--queue",   "1",
        "--limit",   "staircase-chess.rows=12,staircase-chess.cols=12,staircase-chess.size=24",
        NULL};
    daemon_start(&d, flags); /* GJ_CONTRACT=1: behind the proxy */
    char body[2048];
    size_t n = (size_t)snprintf(body, sizeof body, "12 12\n");
    for (int i = 0; i < 288; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "%d%c", (i * 7919) % 100001,
                              i % 12 == 11 ? '\n' : ' ');
    char url[128];
    snprintf(url, sizeof url, "%s/solve/staircase-chess", d.base);
    const char *type[] = {"Content-Type: text/plain", NULL};
    http_call calls[N];
    http_reply replies[N];
    for (int i = 0; i < N; i++)
        calls[i] = (http_call){"POST", url, type, body, n, 0};
    http_do_parallel(calls, replies, N); /* each reply is contract-checked */
    int refused = 0;
    for (int i = 0; i < N; i++) {
        refused += replies[i].status == 503;
        ck_assert(replies[i].status == 200 || replies[i].status == 503);
        http_reply_free(&replies[i]);
    }
    ck_assert_int_ge(refused, 1);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    setenv("GJ_CONTRACT", "1", 1);
    Suite *s = suite_create("contract");
    TCase *tc = tcase_create("contract");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_check_catches_breakage);
    tcase_add_test(tc, test_overloaded_matches_spec);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

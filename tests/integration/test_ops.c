/* test_ops.c - what an operator relies on: /metrics in the Prometheus text
 * format (checked by promtool) with counters that move, /readyz turning
 * 503 once a stop begins, JSON log lines with every promised field, a text
 * log a client cannot forge lines into, and the quota's client logged
 * beside the proxy that forwarded it. */
#include <arpa/inet.h>
#include <check.h>
#include <curl/curl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "daemon.h"

static http_reply fetch(const test_daemon *d, const char *method, const char *path,
                        const char *body)
{
    char url[256];
    snprintf(url, sizeof url, "%s%s", d->base, path);
    http_call c = {method, url, NULL, body, body ? strlen(body) : 0, 0};
    return http_do(&c);
}

/* The value of one sample line "name{labels} value" in an exposition. */
static double sample(const char *text, const char *series)
{
    const char *at = text;
    size_t n = strlen(series);
    while ((at = strstr(at, series)) != NULL) {
        if ((at == text || at[-1] == '\n') && at[n] == ' ')
            return strtod(at + n + 1, NULL);
        at += n;
    }
    ck_abort_msg("no sample %s", series);
    return 0;
}

static int promtool_accepts(const char *text, char *report, size_t cap)
{
    char path[] = "/tmp/gj-metrics-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "promtool check metrics < %s 2>&1", path);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t got = fread(report, 1, cap - 1, p);
    report[got] = '\0';
    int status = pclose(p);
    unlink(path);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

START_TEST(test_metrics)
{
    test_daemon d;
    daemon_start(&d, NULL);
    http_reply before = fetch(&d, "GET", "/metrics", NULL);
    ck_assert_int_eq(before.status, 200);
    char *type = http_header(&before, "Content-Type");
    ck_assert_str_eq(type, "text/plain; version=0.0.4; charset=utf-8");
    free(type);
    char report[4096];
    ck_assert_msg(promtool_accepts(before.body, report, sizeof report), "promtool: %s", report);

    /* Two solves, one bad input, one 404; then the counters must have moved. */
    http_reply r = fetch(&d, "POST", "/solve/prime-chocolate", "1\n-\n");
    http_reply_free(&r);
    r = fetch(&d, "POST", "/solve/prime-chocolate", "1\nX\n");
    http_reply_free(&r);
    r = fetch(&d, "POST", "/solve/grid-walk", "1 1\n?\n");
    http_reply_free(&r);
    r = fetch(&d, "GET", "/nowhere", NULL);
    http_reply_free(&r);
    /* A request is counted once its connection's libmicrohttpd thread
     * has finished with it, which may be just after the client has its
     * answer: wait for the last one's count (bounded), then hold every
     * series to its exact delta. */
    http_reply after = fetch(&d, "GET", "/metrics", NULL);
    const char *last = "gamejudge_requests_total{game=\"none\",status=\"404\"}";
    for (int i = 0; i < 500 && sample(after.body, last) == sample(before.body, last); i++) {
        http_reply_free(&after);
        nanosleep(&(struct timespec){0, 10000000}, NULL);
        after = fetch(&d, "GET", "/metrics", NULL);
    }
    ck_assert_msg(promtool_accepts(after.body, report, sizeof report), "promtool: %s", report);

    static const struct {
        const char *series;
        double delta;
    } moved[] = {
        {"gamejudge_requests_total{game=\"prime-chocolate\",status=\"200\"}", 2},
        {"gamejudge_requests_total{game=\"grid-walk\",status=\"400\"}", 1},
        {"gamejudge_requests_total{game=\"none\",status=\"404\"}", 1},
        {"gamejudge_parse_seconds_count{game=\"prime-chocolate\"}", 2},
        {"gamejudge_solve_seconds_count{game=\"prime-chocolate\"}", 2},
        {"gamejudge_parse_seconds_bucket{game=\"grid-walk\",le=\"+Inf\"}", 1},
        {"gamejudge_received_bytes_total", 4 + 4 + 6},
    };
    for (size_t i = 0; i < sizeof moved / sizeof moved[0]; i++)
        ck_assert_msg(sample(after.body, moved[i].series) - sample(before.body, moved[i].series) ==
                          moved[i].delta,
                      "%s did not move by %g", moved[i].series, moved[i].delta);
    ck_assert(sample(after.body, "gamejudge_sent_bytes_total") >
              sample(before.body, "gamejudge_sent_bytes_total"));
    ck_assert(sample(after.body, "gamejudge_build_info{version=\"0.1.0\"}") == 1);
    ck_assert(sample(after.body, "gamejudge_ready") == 1);
    ck_assert(sample(after.body, "gamejudge_workers") >= 1);
    http_reply_free(&before);
    http_reply_free(&after);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* Send one request on an open socket and read the status line and body. */
static long raw_get(int fd, const char *path, char *reply, size_t cap)
{
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: test\r\n\r\n", path);
    ck_assert_int_eq(write(fd, req, (size_t)n), n);
    size_t got = 0;
    while (got < cap - 1) {
        ssize_t k = read(fd, reply + got, cap - 1 - got);
        if (k <= 0)
            break;
        got += (size_t)k;
        reply[got] = '\0';
        const char *end = strstr(reply, "\r\n\r\n");
        const char *len = strstr(reply, "Content-Length: ");
        if (end && len && got >= (size_t)(end + 4 - reply) + (size_t)atol(len + 16))
            break;
    }
    reply[got] = '\0';
    return strncmp(reply, "HTTP/1.1 ", 9) == 0 ? atol(reply + 9) : -1;
}

/* /readyz is 200 while serving and 503 {"status":"draining"} from the
 * moment SIGTERM arrives (seen on a connection opened before it), while a
 * slow solve still finishes. */
START_TEST(test_readiness_flips_on_sigterm)
{
    test_daemon d;
    const char *flags[] = {
        "--workers", "1", "--limit",
        "staircase-chess.rows=13,staircase-chess.cols=13,staircase-chess.size=26", NULL};
    daemon_start(&d, flags);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)d.port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    char reply[4096];
    ck_assert_int_eq(raw_get(fd, "/readyz", reply, sizeof reply), 200);
    ck_assert_ptr_nonnull(strstr(reply, "{\"status\":\"ready\"}"));

    /* A slow solve keeps the daemon draining while we look. */
    int slow = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_eq(connect(slow, (struct sockaddr *)&a, sizeof a), 0);
    char body[4096];
    int n = snprintf(body, sizeof body, "13 13\n");
    for (int i = 0; i < 338; i++)
        n += snprintf(body + n, sizeof body - (size_t)n, "%d ", (i * 7919) % 100001);
    char head[256];
    int h = snprintf(
        head, sizeof head,
        "POST /solve/staircase-chess HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n", n);
    ck_assert_int_eq(write(slow, head, (size_t)h), h);
    ck_assert_int_eq(write(slow, body, (size_t)n), n);
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);

    kill(d.pid, SIGTERM);
    nanosleep(&pause, NULL);
    ck_assert_int_eq(raw_get(fd, "/readyz", reply, sizeof reply), 503);
    ck_assert_ptr_nonnull(strstr(reply, "{\"status\":\"draining\"}"));
    ck_assert_ptr_nonnull(strstr(reply, "Connection: close"));
    close(fd);

    /* The slow solve is still answered, and the daemon exits 0. */
    char answer[4096];
    size_t got = 0;
    ssize_t k;
    while (got < sizeof answer - 1 && (k = read(slow, answer + got, sizeof answer - 1 - got)) > 0)
        got += (size_t)k;
    answer[got] = '\0';
    ck_assert_msg(strncmp(answer, "HTTP/1.1 200", 12) == 0, "slow solve: %s", answer);
    close(slow);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* --log-format json: one JSON object per line with the promised fields. */
START_TEST(test_json_log)
{
    test_daemon d;
    const char *flags[] = {"--log-format", "json", NULL};
    daemon_start(&d, flags);
    const char *id[] = {"X-Request-Id: json-log-1", NULL};
    char url[256];
    snprintf(url, sizeof url, "%s/solve/grid-walk", d.base);
    http_call c = {"POST", url, id, "1 1\n.\n", 6, 0};
    http_reply r = http_do(&c);
    ck_assert_int_eq(r.status, 200);
    http_reply_free(&r);

    char *log = daemon_wait_log(&d, "json-log-1");
    ck_assert_ptr_nonnull(log);
    int saw_config = 0, saw_request = 0;
    for (char *line = strtok(log, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        json_t *j = json_loads(line, 0, NULL);
        ck_assert_msg(j != NULL, "not a JSON line: %s", line);
        const char *msg = json_string_value(json_object_get(j, "msg"));
        ck_assert_ptr_nonnull(json_string_value(json_object_get(j, "time")));
        ck_assert_ptr_nonnull(json_string_value(json_object_get(j, "level")));
        if (msg && strcmp(msg, "configuration") == 0) {
            saw_config = 1;
            ck_assert_str_eq(json_string_value(json_object_get(j, "log_format")), "json");
            ck_assert_ptr_nonnull(json_object_get(j, "workers"));
            ck_assert_ptr_nonnull(json_object_get(j, "limits"));
        }
        const char *rid = json_string_value(json_object_get(j, "request_id"));
        if (msg && strcmp(msg, "request") == 0 && rid && strcmp(rid, "json-log-1") == 0) {
            saw_request = 1;
            static const char *const fields[] = {"method",      "path",      "game",     "status",
                                                 "duration_us", "queue_ms",  "parse_ms", "solve_ms",
                                                 "bytes_in",    "bytes_out", "client",   "end"};
            for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
                ck_assert_msg(json_object_get(j, fields[i]) != NULL, "no %s in %s", fields[i],
                              line);
            ck_assert_str_eq(json_string_value(json_object_get(j, "game")), "grid-walk");
            ck_assert_str_eq(json_string_value(json_object_get(j, "client")), "127.0.0.1");
            ck_assert_int_eq(json_integer_value(json_object_get(j, "status")), 200);
            ck_assert_int_eq(json_integer_value(json_object_get(j, "bytes_in")), 6);
        }
        json_decref(j);
    }
    ck_assert(saw_config && saw_request);
    free(log);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

/* The status of GET path (sent as written, percent-encoded) on the daemon
 * itself, with X-Request-Id `id` and one more header line (or NULL). */
static long get_direct(const test_daemon *d, const char *path, const char *id, const char *extra)
{
    char url[256], id_header[96];
    snprintf(url, sizeof url, "%s%s", d->direct, path);
    snprintf(id_header, sizeof id_header, "X-Request-Id: %s", id);
    const char *headers[] = {id_header, extra, NULL};
    http_call c = {"GET", url, headers, NULL, 0, 0};
    http_reply r = http_do(&c);
    long status = r.status;
    http_reply_free(&r);
    return status;
}

/* The number of lines of log holding needle. */
static int lines_with(const char *log, const char *needle)
{
    int n = 0;
    size_t len = strlen(needle);
    for (const char *line = log; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t line_len = end != NULL ? (size_t)(end - line) : strlen(line);
        const char *at = strstr(line, needle);
        if (at != NULL && at + len <= line + line_len)
            n++;
        line += line_len + (end != NULL);
    }
    return n;
}

/* The text access log: a path that decodes to a line feed, terminal escapes,
 * a space or a backslash leaves exactly one line for its request, each such
 * byte written \xHH, and nothing a reader's terminal would act on. */
START_TEST(test_text_log_cannot_be_forged)
{
    test_daemon d;
    daemon_start(&d, NULL);
    ck_assert_int_eq(get_direct(&d, "/x%0aFORGED", "forge-1", NULL), 404);
    ck_assert_int_eq(
        get_direct(&d, "/x%0d%0a2026-12-01T00:00:00.000Z%20GET%20/admin%20200", "forge-2", NULL),
        404);
    ck_assert_int_eq(get_direct(&d, "/x%1b%5b31mred%20path%5cz%c3%a9", "forge-3", NULL), 404);
    char *log = daemon_wait_log(&d, "id=forge-3 ");
    ck_assert_ptr_nonnull(log);
    ck_assert_msg(lines_with(log, "FORGED") == 1, "FORGED on %d lines:\n%s",
                  lines_with(log, "FORGED"), log);
    ck_assert_msg(strstr(log, " GET /x\\x0AFORGED 404 ") != NULL, "%s", log);
    ck_assert_int_eq(lines_with(log, "/admin"), 1);
    ck_assert_msg(strstr(log, " GET /x\\x0D\\x0A2026-12-01T00:00:00.000Z\\x20GET\\x20/admin"
                              "\\x20200 404 ") != NULL,
                  "%s", log);
    ck_assert_msg(strstr(log, " GET /x\\x1B[31mred\\x20path\\x5Cz\\xC3\\xA9 404 ") != NULL, "%s",
                  log);
    for (const char *at = log; *at != '\0'; at++) /* only printable ASCII and line ends */
        ck_assert_msg((*at >= 0x20 && *at < 0x7f) || *at == '\n', "byte 0x%02x in the log",
                      (unsigned char)*at);
    free(log);
    ck_assert_int_eq(daemon_stop(&d), 0);
}
END_TEST

#define LOG_KEY "log-key-0123456789abcdef"

/* The JSON access line of the request whose id is `id` in log, parsed, or
 * NULL when there is none. */
static json_t *request_line(const char *log, const char *id)
{
    char needle[96];
    snprintf(needle, sizeof needle, "\"request_id\":\"%s\"", id);
    const char *at = strstr(log, needle);
    if (at == NULL)
        return NULL;
    while (at > log && at[-1] != '\n')
        at--;
    const char *end = strchr(at, '\n');
    json_error_t err;
    json_t *j = json_loadb(at, end ? (size_t)(end - at) : strlen(at), 0, &err);
    ck_assert_msg(j != NULL, "not JSON: %s", err.text);
    return j;
}

/* Behind a trusted proxy, `client` is the proxy and `quota_client` the
 * client the quota charged: the forwarded address, or key#N for an API key
 * (never the key); an unmetered request has no quota_client. */
START_TEST(test_log_names_the_quota_client)
{
    char path[] = "/tmp/gj-keys-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char keys[] = LOG_KEY " 1000 100000\n";
    ck_assert_int_eq(write(fd, keys, sizeof keys - 1), (ssize_t)(sizeof keys - 1));
    close(fd);
    test_daemon d;
    const char *flags[] = {"--log-format",
                           "json",
                           "--quota-rate",
                           "1000",
                           "--quota-burst",
                           "100000",
                           "--trusted-proxies",
                           "127.0.0.1",
                           "--api-keys",
                           path,
                           NULL};
    daemon_start(&d, flags);
    const char *sample = "/solve/grid-walk?input=1%201%0A.%0A";
    ck_assert_int_eq(get_direct(&d, sample, "quota-xff", "X-Forwarded-For: 198.51.100.7"), 200);
    ck_assert_int_eq(get_direct(&d, sample, "quota-key", "X-Api-Key: " LOG_KEY), 200);
    ck_assert_int_eq(get_direct(&d, sample, "quota-peer", NULL), 200);
    ck_assert_int_eq(get_direct(&d, "/healthz", "quota-none", NULL), 200);
    ck_assert_int_eq(get_direct(&d, "/healthz", "proxied-none", "X-Forwarded-For: 198.51.100.9"),
                     200);
    char *log = daemon_wait_log(&d, "proxied-none");
    ck_assert_ptr_nonnull(log);
    /* From the trusted proxy the client is the one it names (itself when
     * it names none), with or without a quota, and peer the proxy. */
    static const struct {
        const char *id, *quota_client, *client, *peer;
    } want[] = {{"quota-xff", "198.51.100.7", "198.51.100.7", "127.0.0.1"},
                {"quota-key", "key#1", "127.0.0.1", "127.0.0.1"},
                {"quota-peer", "127.0.0.1", "127.0.0.1", "127.0.0.1"},
                {"quota-none", NULL, "127.0.0.1", "127.0.0.1"},
                {"proxied-none", NULL, "198.51.100.9", "127.0.0.1"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        json_t *j = request_line(log, want[i].id);
        ck_assert_msg(j != NULL, "no line for %s", want[i].id);
        ck_assert_str_eq(json_string_value(json_object_get(j, "client")), want[i].client);
        json_t *peer = json_object_get(j, "peer");
        if (want[i].peer == NULL)
            ck_assert_msg(peer == NULL, "%s: a peer without a proxied client", want[i].id);
        else
            ck_assert_msg(peer != NULL && strcmp(json_string_value(peer), want[i].peer) == 0,
                          "%s: peer %s", want[i].id, peer ? json_string_value(peer) : "(none)");
        json_t *q = json_object_get(j, "quota_client");
        if (want[i].quota_client == NULL)
            ck_assert_msg(q == NULL, "%s: quota_client without a quota", want[i].id);
        else
            ck_assert_msg(q != NULL && strcmp(json_string_value(q), want[i].quota_client) == 0,
                          "%s: quota_client %s", want[i].id, q ? json_string_value(q) : "missing");
        json_decref(j);
    }
    ck_assert_ptr_null(strstr(log, LOG_KEY));
    free(log);
    ck_assert_int_eq(daemon_stop(&d), 0);
    unlink(path);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("ops");
    TCase *tc = tcase_create("ops");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_metrics);
    tcase_add_test(tc, test_readiness_flips_on_sigterm);
    tcase_add_test(tc, test_json_log);
    tcase_add_test(tc, test_text_log_cannot_be_forged);
    tcase_add_test(tc, test_log_names_the_quota_client);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

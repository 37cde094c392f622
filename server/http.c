/* http.c - libmicrohttpd access handler, body reading and suspend/resume.
 *
 * A request moves through these states (one struct request per request):
 *
 *   READING    headers checked, body arriving into req->body
 *   DISCARDING the body passed --max-body and libmicrohttpd would not take
 *              the 413 early: the rest is read and dropped, 413 at the end
 *   QUEUED     the connection is suspended and a worker owns the request
 *   ANSWERED   the worker stored the answer and resumed the connection
 *   RESPONDED  a response is queued; nothing more to do but log and free
 *
 * The worker touches the request only between pool_submit and
 * MHD_resume_connection, and the I/O thread touches it only outside that
 * window, so the request needs no lock of its own. */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "catalog.h"
#include "conntrack.h"
#include "errors.h"
#include "games.h"
#include "jobs.h"
#include "log.h"
#include "media.h"
#include "metrics.h"
#include "route.h"
#include "solve.h"
#include "spec.h"

#define RETRY_AFTER_SECONDS "1"

struct gj_http {
    struct MHD_Daemon *daemon;
    const gj_config *cfg;
    gj_pool *pool;
    gj_metrics *metrics;
    gj_conntrack *tracker;
    gj_cache *cache; /* NULL with --cache-bytes 0 */
    char *catalog;
    size_t catalog_len;
    unsigned port;
    uint64_t id_base;
    atomic_ulong next_id;
    atomic_long in_flight;
    atomic_int draining;
};

typedef enum req_state { READING, DISCARDING, QUEUED, ANSWERED, RESPONDED } req_state;

typedef struct request {
    gj_http *http;
    struct MHD_Connection *conn;
    tracked *track; /* the connection's deadline (conntrack.h) */
    req_state state;
    route route;
    media_kind input, output;
    char method[16];
    char path[256];
    char id[129];
    char client[64];
    unsigned long long started_ns;

    char *body; /* the upload, at most cfg->max_body bytes */
    size_t len, cap;
    size_t received; /* body bytes read, kept or not */

    /* The worker's: filled before it resumes the connection. */
    unsigned long long queued_ns; /* when the job was queued */
    unsigned long long wait_ns;   /* how long it waited for a worker */
    job job;
    char timing[160];
    double queue_ms, parse_ms, solve_ms; /* -1 until a worker measured them */

    /* For the access log. */
    int sent_status;
    size_t sent_bytes;
} request;

/* ---- responses ----------------------------------------------------- */

static enum MHD_Result send_response(request *req, int status, const char *type, char *body,
                                     size_t len, int body_is_static)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        len, body, body_is_static ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_FREE);
    if (resp == NULL) {
        if (!body_is_static)
            free(body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(resp, "X-Request-Id", req->id);
    if (req->timing[0] != '\0')
        MHD_add_response_header(resp, "Server-Timing", req->timing);
    if (req->route.kind == ROUTE_PLAYGROUND && status == MHD_HTTP_OK)
        /* The page is whole in itself: nothing loads from elsewhere. */
        MHD_add_response_header(resp, "Content-Security-Policy",
                                "default-src 'none'; script-src 'unsafe-inline'; "
                                "style-src 'unsafe-inline'; img-src data:; connect-src 'self'; "
                                "base-uri 'none'; form-action 'none'");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED && req->route.allow != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, req->route.allow);
    if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, RETRY_AFTER_SECONDS);
    if (req->state == ANSWERED && req->job.how != SOLVE_UNCACHED)
        MHD_add_response_header(resp, "X-Cache", req->job.how == SOLVE_HIT ? "hit" : "miss");
    if (atomic_load(&req->http->draining))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result rc = MHD_queue_response(req->conn, (unsigned)status, resp);
    MHD_destroy_response(resp);
    if (rc == MHD_YES) {
        req->state = RESPONDED;
        req->sent_status = status;
        req->sent_bytes = len;
    }
    return rc;
}

/* Answer the error e: its status and JSON body, from server/errors.c. */
static enum MHD_Result send_error(request *req, const gj_error *e)
{
    size_t len = 0;
    char *body = errors_render(e, req->id, &len);
    if (body == NULL)
        return MHD_NO;
    return send_response(req, errors_status(e->kind), "application/json", body, len, 0);
}

static enum MHD_Result send_errorf(request *req, gj_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Answer an error of `kind` whose message is formatted printf-style. */
static enum MHD_Result send_errorf(request *req, gj_error_kind kind, const char *fmt, ...)
{
    gj_error e;
    va_list ap;
    gj_error_clear(&e);
    e.kind = kind;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    return send_error(req, &e);
}

/* ---- the cheap routes, answered on the I/O thread ------------------ */

/* Ready while accepting work; 503 from the moment a stop signal arrives,
 * so a load balancer stops sending before the listening socket closes. */
static enum MHD_Result answer_ready(request *req)
{
    static char ready[] = "{\"status\":\"ready\"}";
    static char draining[] = "{\"status\":\"draining\"}";
    if (atomic_load(&req->http->draining))
        return send_response(req, MHD_HTTP_SERVICE_UNAVAILABLE, "application/json", draining,
                             sizeof draining - 1, 1);
    return send_response(req, MHD_HTTP_OK, "application/json", ready, sizeof ready - 1, 1);
}

static enum MHD_Result answer_metrics(request *req)
{
    gj_http *h = req->http;
    metrics_gauges g = {
        .workers = (int)h->cfg->workers,
        .queue_capacity = (int)h->cfg->queue,
        .in_flight = atomic_load(&h->in_flight),
        .ready = !atomic_load(&h->draining),
        .reaped = conntrack_reaped(h->tracker),
    };
    pool_stats(h->pool, &g.queued, &g.busy);
    cache_stats cs;
    if (h->cache != NULL) {
        cache_get_stats(h->cache, &cs);
        g.cache = &cs;
    }
    gj_buf out;
    buf_init(&out);
    metrics_render(h->metrics, &g, &out);
    if (out.failed) {
        buf_free(&out);
        return send_errorf(req, GJ_INTERNAL, "out of memory while rendering metrics");
    }
    size_t len;
    char *body = buf_take(&out, &len);
    return send_response(req, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8", body, len,
                         0);
}

static enum MHD_Result answer_get(request *req)
{
    gj_http *h = req->http;
    switch (req->route.kind) {
    case ROUTE_GAMES:
        return send_response(req, MHD_HTTP_OK, "application/json", h->catalog, h->catalog_len, 1);
    case ROUTE_HEALTH: {
        static char ok[] = "{\"status\":\"ok\"}";
        return send_response(req, MHD_HTTP_OK, "application/json", ok, sizeof ok - 1, 1);
    }
    case ROUTE_SPEC:
        return send_response(req, MHD_HTTP_OK, "application/yaml", (char *)gj_openapi_yaml,
                             gj_openapi_yaml_len, 1);
    case ROUTE_DOCS:
        return send_response(req, MHD_HTTP_OK, "text/html; charset=utf-8", (char *)gj_docs_html,
                             gj_docs_html_len, 1);
    case ROUTE_READY:
        return answer_ready(req);
    case ROUTE_METRICS:
        return answer_metrics(req);
    case ROUTE_PLAYGROUND:
        return send_response(req, MHD_HTTP_OK, "text/html; charset=utf-8",
                             (char *)gj_playground_html, gj_playground_html_len, 1);
    default:
        return send_errorf(req, GJ_INTERNAL, "no handler for this route");
    }
}

static enum MHD_Result answer_route_error(request *req)
{
    char names[256];
    switch (req->route.kind) {
    case ROUTE_UNKNOWN_GAME:
        games_list(names, sizeof names);
        return send_errorf(req, GJ_UNKNOWN_GAME, "unknown game '%.60s'; the games are %s",
                           strrchr(req->path, '/') + 1, names);
    case ROUTE_BAD_METHOD:
        return send_errorf(req, GJ_BAD_METHOD, "%s is not allowed on %s; use %s", req->method,
                           req->path, req->route.allow);
    default:
        return send_errorf(req, GJ_NOT_FOUND,
                           "no such path: %s (try GET / for the playground, POST /solve/<game>, "
                           "POST /analyze/<game>, "
                           "POST /judge/<game>, POST /batch, GET /games, GET /healthz, "
                           "GET /readyz, GET /metrics, GET /openapi.yaml or GET /docs)",
                           req->path);
    }
}

/* ---- jobs (solve, analyze, judge, batch): headers, body, hand-off -- */

/* Check what can be checked before a byte of the body is read. */
static enum MHD_Result begin_job(request *req)
{
    gj_http *h = req->http;
    const char *type =
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (media_input(type, &req->input) != 0)
        return send_errorf(req, GJ_UNSUPPORTED, "content type '%.80s' is not accepted; send %s",
                           type, media_accepted_inputs);

    gj_error e;
    const char *format = MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, "format");
    const char *accept =
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    if (media_output(format, accept, &req->output, &e) != 0)
        return send_error(req, &e);
    if (req->route.kind != ROUTE_SOLVE) {
        /* Only a solve has a judge-text answer; the others are JSON. */
        if (format != NULL && strcmp(format, "json") != 0)
            return send_errorf(req, GJ_BAD_INPUT,
                               "format=%.20s: only POST /solve answers judge text; this "
                               "endpoint answers JSON",
                               format);
        req->output = MEDIA_JSON;
    }

    const char *length =
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (length != NULL) {
        unsigned long long n = strtoull(length, NULL, 10);
        if (n > (unsigned long long)h->cfg->max_body)
            return send_errorf(req, GJ_TOO_LARGE,
                               "the body is %llu bytes; the limit is %ld bytes (--max-body)", n,
                               h->cfg->max_body);
        /* Reserve what is announced only up to 1 MiB; beyond, the buffer
         * grows as bytes really arrive, so a client cannot make us hold
         * --max-body for a body it never sends. */
        req->cap = n < (1u << 20) ? (size_t)n : (size_t)1 << 20;
        req->body = malloc(req->cap + 1);
        if (req->body == NULL)
            return send_errorf(req, GJ_INTERNAL, "out of memory for a %llu-byte body", n);
    }
    req->state = READING;
    return MHD_YES;
}

static int grow_body(request *req, size_t need)
{
    size_t cap = req->cap ? req->cap : 4096;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    if (cap > (size_t)req->http->cfg->max_body)
        cap = (size_t)req->http->cfg->max_body;
    char *p = realloc(req->body, cap + 1);
    if (p == NULL)
        return -1;
    req->body = p;
    req->cap = cap;
    return 0;
}

static enum MHD_Result take_upload(request *req, const char *data, size_t *size)
{
    size_t n = *size;
    *size = 0;
    req->received += n;
    if (req->state == DISCARDING)
        return MHD_YES;
    size_t max = (size_t)req->http->cfg->max_body;
    if (n > max - req->len) {
        free(req->body);
        req->body = NULL;
        req->len = req->cap = 0;
        /* Answer at once when libmicrohttpd lets us; otherwise drop the rest
         * of the body and answer when it ends. */
        if (send_errorf(req, GJ_TOO_LARGE, "the body exceeds the limit of %zu bytes (--max-body)",
                        max) != MHD_YES)
            req->state = DISCARDING;
        return MHD_YES;
    }
    if (!route_is_job(req->route.kind)) {
        req->len += n; /* no other route reads a body: count it, drop it */
        return MHD_YES;
    }
    if (req->len + n > req->cap && grow_body(req, req->len + n) != 0)
        return send_errorf(req, GJ_INTERNAL, "out of memory while reading the body");
    memcpy(req->body + req->len, data, n);
    req->len += n;
    return MHD_YES;
}

static void format_timing(request *req, unsigned long long wait_ns)
{
    const solve_timing *t = &req->job.t;
    snprintf(req->timing, sizeof req->timing,
             "queue;dur=%.3f, parse;dur=%.3f, solve;dur=%.3f, write;dur=%.3f",
             (double)wait_ns / 1e6, t->parse_ms, t->solve_ms, t->write_ms);
}

/* The job's end, on the worker that finished it. */
static void finish_job(job *j)
{
    request *req = j->ctx;
    unsigned long long wait_ns = req->wait_ns;
    format_timing(req, wait_ns);
    req->queue_ms = (double)wait_ns / 1e6;
    req->parse_ms = j->t.parse_ms;
    req->solve_ms = j->t.solve_ms;
    free(req->body);
    req->body = NULL;
    req->state = ANSWERED;
    MHD_resume_connection(req->conn);
}

/* Runs on a worker thread.  A request that waited in the queue past
 * --request-timeout gets 503: nobody should wait for so late an answer. */
static void run_job(void *arg)
{
    request *req = arg;
    gj_http *h = req->http;
    job *j = &req->job;
    unsigned long long wait_ns = solve_clock_ns() - req->queued_ns;
    req->wait_ns = wait_ns;
    *j = (job){.cfg = h->cfg,
               .pool = h->pool,
               .cache = h->cache,
               .metrics = h->metrics,
               .kind = req->route.kind,
               .game = req->route.game,
               .input = req->input,
               .output = req->output,
               .body = req->body,
               .len = req->len,
               .done = finish_job,
               .ctx = req};
    if ((double)wait_ns / 1e9 > (double)h->cfg->request_timeout) {
        buf_init(&j->answer);
        gj_error_clear(&j->error);
        j->error.kind = GJ_OVERLOADED;
        snprintf(j->error.message, sizeof j->error.message,
                 "the request waited %.1f s for a worker, past the %ld s limit "
                 "(--request-timeout); retry shortly",
                 (double)wait_ns / 1e9, h->cfg->request_timeout);
        finish_job(j);
        return;
    }
    jobs_run(j);
}

static enum MHD_Result dispatch(request *req)
{
    if (req->state == DISCARDING)
        return send_errorf(req, GJ_TOO_LARGE,
                           "the body exceeds the limit of %ld bytes (--max-body)",
                           req->http->cfg->max_body);
    if (req->body == NULL && grow_body(req, 1) != 0)
        return send_errorf(req, GJ_INTERNAL, "out of memory");
    req->body[req->len] = '\0'; /* a guard for parsers; never part of the input */
    /* Hold a place first: a refusal is answered right here, and a
     * connection is suspended only when its job is sure to run. */
    if (pool_reserve(req->http->pool) != 0) {
        return send_errorf(req, GJ_OVERLOADED,
                           "all %ld workers are busy and %ld requests are waiting; retry shortly",
                           req->http->cfg->workers, req->http->cfg->queue);
    }
    req->state = QUEUED;
    req->queued_ns = solve_clock_ns();
    conntrack_set_busy(req->http->tracker, req->track, 1);
    MHD_suspend_connection(req->conn);
    pool_submit_reserved(req->http->pool, run_job, req);
    return MHD_YES;
}

static enum MHD_Result send_answer(request *req)
{
    if (req->job.error.kind != GJ_OK)
        return send_error(req, &req->job.error);
    size_t len;
    char *body = buf_take(&req->job.answer, &len);
    if (body == NULL) {
        body = malloc(1); /* an empty answer still needs a buffer to free */
        if (body == NULL)
            return MHD_NO;
    }
    const char *type = req->output == MEDIA_JSON ? "application/json" : "text/plain; charset=utf-8";
    return send_response(req, MHD_HTTP_OK, type, body, len, 0);
}

/* ---- libmicrohttpd callbacks ---------------------------------------- */

static int valid_request_id(const char *id)
{
    size_t n = 0;
    for (; id[n] != '\0'; n++)
        if (n >= 128 || id[n] < 0x21 || id[n] > 0x7e)
            return 0;
    return n > 0;
}

static void describe_client(struct MHD_Connection *conn, char *out, size_t cap)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(out, cap, "-");
    if (info == NULL || info->client_addr == NULL)
        return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out,
                  (socklen_t)cap);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out,
                  (socklen_t)cap);
}

static request *new_request(gj_http *h, struct MHD_Connection *conn, const char *method,
                            const char *url)
{
    request *req = calloc(1, sizeof *req);
    if (req == NULL)
        return NULL;
    req->http = h;
    req->conn = conn;
    req->started_ns = solve_clock_ns();
    snprintf(req->method, sizeof req->method, "%s", method);
    snprintf(req->path, sizeof req->path, "%s", url);
    const char *given = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id");
    if (given != NULL && valid_request_id(given))
        snprintf(req->id, sizeof req->id, "%s", given);
    else
        snprintf(req->id, sizeof req->id, "%016llx",
                 (unsigned long long)(h->id_base + atomic_fetch_add(&h->next_id, 1)));
    req->route = route_match(method, url);
    req->queue_ms = req->parse_ms = req->solve_ms = -1;
    describe_client(conn, req->client, sizeof req->client);
    const union MHD_ConnectionInfo *ctx =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    req->track = ctx ? ctx->socket_context : NULL;
    atomic_fetch_add(&h->in_flight, 1);
    return req;
}

/* Only solves look at headers before the body; every other route answers
 * once the request is complete, so the connection can stay alive.  The one
 * exception is a transfer coding other than chunked: libmicrohttpd cannot
 * find the end of such a body and would wait for it until a timeout, so it
 * is refused at once (RFC 9112 6.3: 400, then close). */
typedef struct length_headers {
    const char *first;
    int conflict;
} length_headers;

static enum MHD_Result note_length(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    (void)kind;
    length_headers *l = cls;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) != 0 || value == NULL)
        return MHD_YES;
    if (l->first == NULL)
        l->first = value;
    else if (strcmp(l->first, value) != 0)
        l->conflict = 1;
    return MHD_YES;
}

static enum MHD_Result first_call(request *req)
{
    /* libmicrohttpd reads the first of several Content-Length headers; a
     * proxy in front may have read another, which is how requests are
     * smuggled.  RFC 9112 6.3: differing lengths are an error. */
    length_headers lengths = {NULL, 0};
    MHD_get_connection_values(req->conn, MHD_HEADER_KIND, note_length, &lengths);
    if (lengths.conflict)
        return send_errorf(req, GJ_BAD_INPUT,
                           "the request has Content-Length headers that disagree");
    const char *coding =
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    if (coding != NULL && strcasecmp(coding, "chunked") != 0)
        return send_errorf(req, GJ_BAD_INPUT,
                           "Transfer-Encoding '%.40s' is not supported; send the body with "
                           "Content-Length or chunked",
                           coding);
    if (route_is_job(req->route.kind))
        return begin_job(req);
    req->state = READING;
    return MHD_YES;
}

static enum MHD_Result answer_other(request *req)
{
    switch (req->route.kind) {
    case ROUTE_GAMES:
    case ROUTE_HEALTH:
    case ROUTE_SPEC:
    case ROUTE_DOCS:
    case ROUTE_READY:
    case ROUTE_METRICS:
    case ROUTE_PLAYGROUND:
        return answer_get(req);
    default:
        return answer_route_error(req);
    }
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    (void)version;
    request *req = *con_cls;
    if (req == NULL) {
        req = new_request(cls, conn, method, url);
        if (req == NULL)
            return MHD_NO;
        *con_cls = req;
        return first_call(req);
    }
    switch (req->state) {
    case READING:
    case DISCARDING:
        if (*upload_data_size > 0)
            return take_upload(req, upload_data, upload_data_size);
        return route_is_job(req->route.kind) ? dispatch(req) : answer_other(req);
    case ANSWERED:
        return send_answer(req);
    case QUEUED:
        return MHD_YES; /* not reached: a suspended connection gets no calls */
    case RESPONDED:
        *upload_data_size = 0; /* an early answer is queued; drop the rest */
        return MHD_YES;
    }
    return MHD_NO;
}

static const char *termination_name(enum MHD_RequestTerminationCode toe)
{
    switch (toe) {
    case MHD_REQUEST_TERMINATED_COMPLETED_OK:
        return "ok";
    case MHD_REQUEST_TERMINATED_TIMEOUT_REACHED:
        return "timeout";
    case MHD_REQUEST_TERMINATED_CLIENT_ABORT:
    case MHD_REQUEST_TERMINATED_READ_ERROR:
        return "aborted";
    case MHD_REQUEST_TERMINATED_DAEMON_SHUTDOWN:
        return "shutdown";
    default:
        return "error";
    }
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)conn;
    gj_http *h = cls;
    request *req = *con_cls;
    if (req == NULL)
        return;
    access_entry a = {
        .method = req->method,
        .path = req->path,
        .game =
            req->route.game && req->route.kind != ROUTE_BAD_METHOD ? req->route.game->name : NULL,
        .status = req->sent_status,
        .bytes_in = req->received,
        .bytes_out = req->sent_bytes,
        .micros = (solve_clock_ns() - req->started_ns) / 1000,
        .queue_ms = req->queue_ms,
        .parse_ms = req->parse_ms,
        .solve_ms = req->solve_ms,
        .client = req->client,
        .request_id = req->id,
        .end = termination_name(toe),
    };
    log_access(&a);
    metrics_request(h->metrics, req->route.kind == ROUTE_SOLVE ? req->route.game : NULL,
                    req->sent_status, req->received, req->sent_bytes);
    conntrack_set_busy(h->tracker, req->track, 0); /* the next request's clock starts */
    free(req->body);
    buf_free(&req->job.answer);
    free(req);
    *con_cls = NULL;
    atomic_fetch_sub(&h->in_flight, 1);
}

static void on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    gj_http *h = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = info ? conntrack_open(h->tracker, info->connect_fd) : NULL;
    } else {
        conntrack_close(h->tracker, *socket_context);
        *socket_context = NULL;
    }
}

/* ---- start and stop -------------------------------------------------- */

static int resolve(const char *host, long port, struct sockaddr_storage *out, int *ipv6,
                   gj_error *e)
{
    struct addrinfo hints, *res;
    char service[8];
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    snprintf(service, sizeof service, "%ld", port);
    int rc = getaddrinfo(host, service, &hints, &res);
    if (rc != 0)
        return gj_fail(e, GJ_BAD_INPUT, "cannot resolve host '%s': %s", host, gai_strerror(rc));
    memcpy(out, res->ai_addr, res->ai_addrlen);
    *ipv6 = res->ai_family == AF_INET6;
    freeaddrinfo(res);
    return 0;
}

gj_http *http_start(const gj_config *cfg, gj_pool *pool, gj_error *e)
{
    struct sockaddr_storage addr;
    int ipv6 = 0;
    if (resolve(cfg->host, cfg->port, &addr, &ipv6, e) != 0)
        return NULL;

    gj_http *h = calloc(1, sizeof *h);
    if (h == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    h->cfg = cfg;
    h->pool = pool;
    h->id_base = (uint64_t)time(NULL) << 32;
    h->catalog = catalog_render(cfg, &h->catalog_len);
    h->metrics = metrics_create();
    h->tracker = conntrack_start((double)cfg->request_timeout);
    h->cache = cfg->cache_bytes > 0 ? cache_create((size_t)cfg->cache_bytes, NULL) : NULL;
    if (h->catalog == NULL || h->metrics == NULL || h->tracker == NULL ||
        (cfg->cache_bytes > 0 && h->cache == NULL)) {
        cache_free(h->cache);
        free(h->catalog);
        metrics_free(h->metrics);
        conntrack_stop(h->tracker);
        free(h);
        gj_fail_nomem(e);
        return NULL;
    }

    /* poll(), not epoll: libmicrohttpd 0.9.75's epoll loop loses a
     * resumption when a worker resumes a connection right after it was
     * suspended (a tiny solve): a burst of 256 such requests on a fresh
     * daemon left up to all 256 unanswered until the client gave up, while
     * poll() answered every one of them in every run (test_load's burst).
     * poll() is linear in the open connections, which --max-connections
     * bounds. */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC | (ipv6 ? MHD_USE_IPv6 : 0);
    h->daemon = MHD_start_daemon(
        flags, (uint16_t)cfg->port, NULL, NULL, on_request, h, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)cfg->connection_memory,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)cfg->io_threads, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, h, MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)cfg->max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)cfg->max_connections_per_ip, MHD_OPTION_END);
    if (h->daemon == NULL) {
        gj_fail(e, GJ_BAD_INPUT, "cannot listen on %s port %ld (in use, or not an address here?)",
                cfg->host, cfg->port);
        free(h->catalog);
        metrics_free(h->metrics);
        conntrack_stop(h->tracker);
        cache_free(h->cache);
        free(h);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? info->port : (unsigned)cfg->port;
    return h;
}

unsigned http_port(const gj_http *h)
{
    return h->port;
}

void http_stop_accepting(gj_http *h)
{
    atomic_store(&h->draining, 1);
    MHD_socket fd = MHD_quiesce_daemon(h->daemon);
    if (fd != MHD_INVALID_SOCKET)
        close(fd);
}

int http_wait_idle(gj_http *h, double seconds)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (double waited = 0; waited < seconds; waited += 0.01) {
        if (atomic_load(&h->in_flight) == 0)
            return 1;
        nanosleep(&tick, NULL);
    }
    return atomic_load(&h->in_flight) == 0;
}

void http_stop(gj_http *h)
{
    if (h == NULL)
        return;
    MHD_stop_daemon(h->daemon);
    conntrack_stop(h->tracker);
    metrics_free(h->metrics);
    cache_free(h->cache);
    free(h->catalog);
    free(h);
}

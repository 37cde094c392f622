/* http_respond.c - what an answer carries (http_request.h): the headers
 * its route, status, cache, CORS and quota add, in one place, the 304 with
 * its 200's length, and the error written on the socket when a body is cut
 * mid-stream. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "clock.h"
#include "cors.h"
#include "fmt.h"
#include "http_error.h"
#include "http_request.h"

/* ---- responses ----------------------------------------------------- */

/* admit_header for admission_answer: add the header to the response ctx. */
static void add_header(void *ctx, const char *name, const char *value)
{
    MHD_add_response_header(ctx, name, value);
}

/* True when the request is a GET or HEAD, whose solve comes in the query. */
bool request_is_query_form(const request *req)
{
    return strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0;
}

/* The tag state of req's answer: a finished job's on a cacheable route
 * (router.h), else NULL. */
static const job_tag *answer_tag(const request *req)
{
    return req->state == ANSWERED ? req->job.tag : NULL;
}

/* True when the answer (status) may be kept by a shared cache: a GET or
 * HEAD 200 or 304 of a cacheable route (router.h), which carries its tag.
 * Such an answer is served to other clients, so nothing of this client's
 * rides on it. */
static bool shared_cacheable(const request *req, int status)
{
    return status < 400 && answer_tag(req) != NULL && answer_tag(req)->etag[0] != '\0' &&
           request_is_query_form(req);
}

/* Add `value` to the answer's one Vary header (RFC 9110 12.5.5: a list, and
 * the spec documents one header), so an answer that varies by Accept and
 * by Origin says both as "Accept, Origin". */
static void add_vary(struct MHD_Response *resp, const char *value)
{
    const char *was = MHD_get_response_header(resp, MHD_HTTP_HEADER_VARY);
    if (was == NULL) {
        MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, value);
        return;
    }
    char old[64], both[128];
    fmt_out o; /* fmt.h, cutting as snprintf did */
    fmt_init(&o, old, sizeof old);
    fmt_cut(&o, was); /* deleting frees `was` */
    fmt_str_of(&o);
    fmt_init(&o, both, sizeof both);
    fmt_cut(&o, old);
    fmt_cut(&o, ", ");
    fmt_cut(&o, value);
    fmt_str_of(&o);
    MHD_del_response_header(resp, MHD_HTTP_HEADER_VARY, old);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, both);
}

/* The caching headers (etag.h): a solve's or analysis's answer and its 304
 * carry the tag, and a GET one may be kept by any cache for --cache-max-age
 * (the answer never changes under its tag); an error is never kept. */
static void add_cache_headers(const request *req, struct MHD_Response *resp, int status)
{
    if (status >= 400 || (req->state == ANSWERED && req->job.no_store)) {
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
        return;
    }
    const job_tag *tag = answer_tag(req);
    if (tag != NULL && tag->cache_seconds == 0) {
        /* An answer made afresh for this request alone (a puzzle without
         * a seed): no cache may hand it to anyone. */
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
        return;
    }
    if (tag == NULL || tag->etag[0] == '\0')
        return;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, tag->etag);
    if (shared_cacheable(req, status)) {
        char control[48];
        long age = tag->cache_seconds > 0 ? tag->cache_seconds : req->http->cfg->cache_max_age;
        fmt_out o; /* fmt.h: no printf per answer */
        fmt_init(&o, control, sizeof control);
        fmt_str(&o, "public, max-age=");
        fmt_long(&o, age);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, fmt_str_of(&o));
        add_vary(resp, "Accept");
    }
}

/* The methods a preflight answer allows: the route's, or for a path that
 * names no endpoint those the API takes, so that the real request is sent
 * and carries its helpful 404. */
static const char *preflight_methods(const request *req)
{
    return req->match.row != NULL ? req->match.row->allow : "GET, HEAD, POST, OPTIONS";
}

/* The CORS headers (cors.h) of the answer to req, under --cors-origins;
 * none from the admin listener, whose metrics no web page may read. */
static void add_cors_headers(const request *req, struct MHD_Response *resp)
{
    if (req->admin)
        return;
    cors_header hs[CORS_MAX_HEADERS];
    const char *origin = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "Origin");
    size_t n = cors_headers(req->http->cfg->cors_origins, origin,
                            req->preflight ? preflight_methods(req) : NULL, hs);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(hs[i].name, MHD_HTTP_HEADER_VARY) == 0)
            add_vary(resp, hs[i].value);
        else
            MHD_add_response_header(resp, hs[i].name, hs[i].value);
    }
}

/* Queue resp (status, content type `type`, NULL for none; `len` body
 * bytes for the log) with the headers every answer carries and those its
 * route or status adds; resp is released. */
static enum MHD_Result queue_response(request *req, int status, const char *type,
                                      struct MHD_Response *resp, size_t len)
{
    if (type != NULL) /* NULL: no body, no type (a preflight's 204, a 304) */
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(resp, "X-Request-Id", req->id);
    if (req->timing[0] != '\0')
        MHD_add_response_header(resp, "Server-Timing", req->timing);
    const route_row *row = req->match.row;
    if (row != NULL && row->csp != NULL && status == MHD_HTTP_OK)
        MHD_add_response_header(resp, "Content-Security-Policy", row->csp);
    if (row != NULL && row->nosniff && status == MHD_HTTP_OK)
        MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED && row != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, row->allow);
    else if (req->preflight)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, preflight_methods(req));
    add_cache_headers(req, resp, status); /* first: its Vary value leads, "Accept, Origin" */
    add_cors_headers(req, resp);
    const char *retry = http_error_retry_after(status);
    if (retry != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, retry);
    if (req->state == ANSWERED && req->job.how != CACHE_BYPASS)
        MHD_add_response_header(resp, "X-Cache", req->job.how == CACHE_HIT ? "hit" : "miss");
    if (req->close || atomic_load(&req->http->rt->draining))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    /* Admission: the job's worker time is taken from the client's quota,
     * whose state rides on the answer (RateLimit headers) unless a shared
     * cache may keep it. */
    admission_answer(req->http->admission, &req->admit, status, req->job.work_ms,
                     shared_cacheable(req, status), add_header, resp);
    enum MHD_Result rc = MHD_queue_response(req->conn, (unsigned)status, resp);
    MHD_destroy_response(resp);
    if (rc == MHD_YES) {
        req->state = RESPONDED;
        req->sent_status = status;
        req->sent_bytes = len;
    }
    return rc;
}

/* Queue the answer body[len] (see queue_response); the body is freed
 * unless it is static. */
enum MHD_Result respond_body(request *req, int status, const char *type, char *body, size_t len,
                             int body_is_static)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        len, body, body_is_static ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_FREE);
    if (resp == NULL) {
        if (!body_is_static)
            free(body);
        return MHD_NO;
    }
    return queue_response(req, status, type, resp, len);
}

/* A 304's body reader: never called, as libmicrohttpd sends no body with
 * a 304; says the end at once if it ever were. */
static ssize_t no_body(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)cls;
    (void)pos;
    (void)buf;
    (void)max;
    return MHD_CONTENT_READER_END_OF_STREAM;
}

/* Answer 304 for an answer of `len` bytes: no body and no Content-Type;
 * libmicrohttpd always writes a Content-Length, so it is the 200's own
 * (RFC 9110 8.6 allows only that value), from a reader of that size. */
enum MHD_Result respond_not_modified(request *req, size_t len)
{
    struct MHD_Response *resp = MHD_create_response_from_callback(len, 64, no_body, NULL, NULL);
    if (resp == NULL)
        return MHD_NO;
    return queue_response(req, MHD_HTTP_NOT_MODIFIED, NULL, resp, 0);
}

/* Answer the error e: its status and JSON body, from server/http/http_error.c. */
enum MHD_Result respond_error(request *req, const gj_error *e)
{
    size_t len = 0;
    char *body = http_error_render(e, req->id, &len);
    if (body == NULL)
        return MHD_NO;
    return respond_body(req, http_error_status(e->kind), "application/json", body, len, 0);
}

/* Answer an error of `kind` whose message is formatted printf-style. */
enum MHD_Result respond_errorf(request *req, gj_error_kind kind, const char *fmt, ...)
{
    gj_error e;
    va_list ap;
    gj_error_clear(&e);
    e.kind = kind;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    return respond_error(req, &e);
}

/* admit_header for a raw answer: "Name: value" and CRLF, appended to the
 * gj_buf ctx. */
static void put_raw_header(void *ctx, const char *name, const char *value)
{
    gj_buf *b = ctx;
    buf_puts(b, name);
    buf_puts(b, ": ");
    buf_puts(b, value);
    buf_puts(b, "\r\n");
}

/* The whole answer to req for the error e (status line, the headers an
 * error carries, Connection: close, the JSON body) into out. */
void respond_raw_error(request *req, const gj_error *e, gj_buf *out)
{
    int status = http_error_status(e->kind);
    size_t len = 0;
    char *body = http_error_render(e, req->id, &len);
    const char *reason = MHD_get_reason_phrase_for((unsigned)status);
    char line[128];
    snprintf(line, sizeof line, "HTTP/1.1 %d %s\r\n", status, reason ? reason : "Error");
    buf_puts(out, line);
    put_raw_header(out, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    snprintf(line, sizeof line, "%zu", body ? len : 0);
    put_raw_header(out, MHD_HTTP_HEADER_CONTENT_LENGTH, line);
    put_raw_header(out, MHD_HTTP_HEADER_CONNECTION, "close");
    put_raw_header(out, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    put_raw_header(out, "X-Request-Id", req->id);
    const char *retry = http_error_retry_after(status);
    if (retry != NULL)
        put_raw_header(out, MHD_HTTP_HEADER_RETRY_AFTER, retry);
    cors_header hs[CORS_MAX_HEADERS];
    size_t n = req->admin
                   ? 0
                   : cors_headers(req->http->cfg->cors_origins,
                                  MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "Origin"),
                                  NULL, hs);
    for (size_t i = 0; i < n; i++)
        put_raw_header(out, hs[i].name, hs[i].value);
    admission_answer(req->http->admission, &req->admit, status, 0, 0, put_raw_header, out);
    buf_puts(out, "\r\n");
    if (body != NULL)
        buf_append(out, body, len);
    free(body);
    req->sent_bytes = body ? len : 0;
}

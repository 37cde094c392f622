/* http.c - the libmicrohttpd adapter: a request's states (http_request.h),
 * its body under the limits, suspend/resume and the hand-off to a job.
 * What a request does is its route's handler (routes.h), run through a job
 * (jobs.h) on this thread or a worker; what its answer carries is
 * http_respond.c's, and starting the listeners http_daemon.c's. */
#include "http_request.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "admission.h"
#include "buf.h"
#include "client_id.h"
#include "clock.h"
#include "conntrack.h"
#include "cors.h"
#include "fmt.h"
#include "framing.h"
#include "http_error.h"
#include "jobs.h"
#include "log.h"
#include "media.h"
#include "query.h"
#include "router.h"
#include "tree_read.h"

/* ---- request blocks, reused per I/O thread --------------------------- */

/* A finished request's block, with its body buffer when that is small,
 * serves the next request begun on the same I/O thread: a keep-alive
 * stream of small requests then allocates neither per request.  Only the
 * thread that owns a spare list touches it, so it needs no lock; a thread's
 * spares are freed when it exits. */
#define SPARES_MAX     4
#define SPARE_BODY_MAX ((size_t)64 << 10)

typedef struct spares {
    size_t n;
    request *r[SPARES_MAX];
} spares;

static pthread_key_t spares_key;
static pthread_once_t spares_once = PTHREAD_ONCE_INIT;

/* The key's destructor: free an exiting thread's spare blocks. */
static void free_spares(void *arg)
{
    spares *s = arg;
    for (size_t i = 0; i < s->n; i++) {
        free(s->r[i]->body);
        free(s->r[i]);
    }
    free(s);
}

/* Create the spares' key, once. */
static void make_spares_key(void)
{
    (void)pthread_key_create(&spares_key, free_spares);
}

/* This thread's spare list, made on first use; NULL when memory is short. */
static spares *my_spares(void)
{
    pthread_once(&spares_once, make_spares_key);
    spares *s = pthread_getspecific(spares_key);
    if (s == NULL && (s = calloc(1, sizeof *s)) != NULL &&
        pthread_setspecific(spares_key, s) != 0) {
        free(s);
        s = NULL;
    }
    return s;
}

/* A cleared request block: a spare of this thread (its body buffer kept,
 * empty), else a new one; NULL when memory is short. */
static request *request_get(void)
{
    spares *s = my_spares();
    if (s == NULL || s->n == 0)
        return calloc(1, sizeof(request));
    request *req = s->r[--s->n];
    char *body = req->body;
    size_t cap = req->cap;
    memset(req, 0, offsetof(request, path));
    req->body = body;
    req->cap = cap;
    req->path[0] = req->id[0] = req->client[0] = req->named[0] = req->origin[0] = req->timing[0] =
        '\0';
    return req;
}

/* The end of req's block: kept as a spare of this thread when there is
 * room (a large body buffer freed), else freed. */
static void request_put(request *req)
{
    free(req->raw_query);
    req->raw_query = NULL;
    spares *s = my_spares();
    if (s == NULL || s->n == SPARES_MAX) {
        free(req->body);
        free(req);
        return;
    }
    if (req->body == NULL || req->cap > SPARE_BODY_MAX) {
        free(req->body);
        req->body = NULL;
        req->cap = 0;
    }
    s->r[s->n++] = req;
}

/* ---- the pool's routes: headers, body, hand-off ----------------------- */

/* True when the request's route takes its body to a worker. */
static int wants_body(const request *req)
{
    return req->match.error.kind == GJ_OK && req->match.row->lane == LANE_POOL;
}

/* The `format` query parameter into *format (NULL when absent): 0, or -1
 * with *e for one that `format=json` or `format=text` cannot be read from:
 * a bare `format` (no '=') and a value holding a NUL byte are refused as
 * `format=` is, never read as absent or cut at the NUL. */
static int read_format(const request *req, const char **format, gj_error *e)
{
    size_t len = 0;
    *format = NULL;
    if (MHD_lookup_connection_value_n(req->conn, MHD_GET_ARGUMENT_KIND, "format", 6, format,
                                      &len) != MHD_YES)
        return 0;
    if (*format == NULL)
        return gj_fail_field(e, "format",
                             "given without a value; write format=json or format=text");
    if (strlen(*format) != len)
        return gj_fail_field(e, "format",
                             "the value holds a NUL byte (%%00); write format=json or format=text");
    return 0;
}

/* The game's reader of an /analyze body that puts its bulk member into the
 * game's arrays (analysis_read.h), or NULL where the route or the game has
 * none and a tree_body row reads the body into its tree. */
static const gj_body_reader *analysis_reader(const request *req)
{
    const route_row *row = req->match.row;
    const gj_game *g = req->match.game;
    if (row == NULL || !row->analysis_body || g == NULL || g->play == NULL)
        return NULL;
    return g->play->read_analysis;
}

/* How the memory budget charges the request's body: judge text only where
 * a route reads its body as the game's position (any other parses JSON
 * whatever the label says); JSON with no tree only for a game with
 * read_json (game.h) and where the body is the position alone
 * (arriving_reader, or the query form's body handed whole to the game's
 * parse_json); any other body is parsed into a tree. */
static budget_body charged_kind(const request *req)
{
    const route_row *row = req->match.row;
    const gj_game *g = req->match.game;
    bool position = row == NULL || row->position_body;
    if (position && req->input == MEDIA_TEXT)
        return BUDGET_TEXT;
    if (position && row != NULL && g != NULL && g->read_json != NULL)
        return BUDGET_JSON_READ;
    /* The analysis reader's tree is charged as it is built (the grant). */
    if (analysis_reader(req) != NULL && !request_is_query_form(req))
        return BUDGET_JSON_READ;
    return BUDGET_JSON_TREE;
}

/* The reader of req's POSTed body as it arrives: the game's read_json or
 * read_text (game.h), as the body is labelled, where the body is the
 * position alone; tree_read (tree_read.h) on a tree_body row, whatever the
 * label, as its handler parses JSON; else NULL, and the body is kept whole.
 * No copy of a JSON body is kept; a text reader keeps the bytes itself.
 * Either way the parse is done when the last byte is. */
static const gj_body_reader *arriving_reader(const request *req)
{
    const gj_game *g = req->match.game;
    const route_row *row = req->match.row;
    if (!wants_body(req) || request_is_query_form(req) || g == NULL)
        return NULL;
    if (row->tree_body) { /* JSON whatever its label, as the handler would parse it */
        const gj_body_reader *analysis = analysis_reader(req);
        return analysis != NULL ? analysis : &tree_read;
    }
    if (!row->position_body)
        return NULL;
    return req->input == MEDIA_JSON ? g->read_json : g->read_text;
}

/* Close req's body reader, if one is open. */
static void close_reader(request *req)
{
    if (req->reader != NULL)
        req->body_reader->close(req->reader);
    req->reader = NULL;
}

/* gj_grant's take for req's job: the answer's growth charged to the
 * request's memory ticket (admission_grow), released with the rest. */
static int grow_answer(void *ctx, size_t bytes, gj_error *e)
{
    request *req = ctx;
    return admission_grow(req->http->admission, &req->admit, bytes, e);
}

/* gj_grant's hold for req: what jansson holds of the body, with the body
 * itself when it is kept whole (req->len bytes; none while a reader reads
 * it), charged past the body's own charge (admission_hold).  The tree a
 * reader builds as the body arrives and the trees the handler parses are
 * charged alike. */
static int hold_tree(void *ctx, size_t held, gj_error *e)
{
    request *req = ctx;
    size_t all = held > SIZE_MAX - req->len ? SIZE_MAX : held + req->len;
    return admission_hold(req->http->admission, &req->admit, all, e);
}

/* Check what can be checked before a byte of the body is read. */
static enum MHD_Result begin_job(request *req)
{
    gj_http *h = req->http;
    const char *type =
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    /* A GET or HEAD has no body to type (its position is in the query, and
     * take_query refuses a body): a Content-Type there describes nothing. */
    if (!request_is_query_form(req) && media_input(type, &req->input) != 0)
        return respond_errorf(req, GJ_UNSUPPORTED, "content type '%.80s' is not accepted; send %s",
                              type, media_accepted_inputs);

    gj_error e;
    const char *format = NULL;
    if (read_format(req, &format, &e) != 0)
        return respond_error(req, &e);
    const char *accept =
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    if (media_output(format, accept, &req->output, &e) != 0)
        return respond_error(req, &e);
    if (!req->match.row->text_answer) {
        /* Only a solve has a judge-text answer; the others are JSON. */
        if (format != NULL && strcmp(format, "json") != 0)
            return respond_errorf(req, GJ_BAD_INPUT,
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
            return respond_errorf(req, GJ_TOO_LARGE,
                                  "the body is %llu bytes; the limit is %ld bytes (--max-body)", n,
                                  h->cfg->max_body);
        /* The memory budget: the announced body's peak, before a byte of it. */
        if (admission_memory(h->admission, &req->admit, charged_kind(req), (size_t)n, &e) != 0)
            return respond_error(req, &e);
    }
    req->body_reader = arriving_reader(req);
    if (req->body_reader != NULL) {
        const gj_game *g = req->match.game;
        gj_error_clear(&req->read_error);
        /* The announced length (checked against --max-body and charged to
         * the budget above) lets a text reader copy the body once. */
        size_t expect = length != NULL ? (size_t)strtoull(length, NULL, 10) : 0;
        req->reader = req->body_reader->open(config_game_limits(h->rt->cfg, g), expect, &e);
        if (req->reader == NULL)
            return respond_error(req, &e);
        req->reading = true;
        /* The reader's parse is charged as it grows (read_upload); the job
         * gets a fresh grant for its own work (prepare_job). */
        gj_grant_init(&req->job.grant, grow_answer, hold_tree, req);
    } else if (length != NULL) {
        unsigned long long n = strtoull(length, NULL, 10);
        /* Reserve what is announced only up to 1 MiB; beyond, the buffer
         * grows as bytes really arrive, so a client cannot make us hold
         * --max-body for a body it never sends. */
        size_t want = n < (1u << 20) ? (size_t)n : (size_t)1 << 20;
        if (req->body == NULL || req->cap < want) { /* else a reused block's buffer holds it */
            free(req->body);
            req->cap = want;
            req->body = malloc(req->cap + 1);
        }
        if (req->body == NULL)
            return respond_errorf(req, GJ_INTERNAL, "out of memory for a %llu-byte body", n);
    }
    req->state = READING;
    return MHD_YES;
}

/* A GET or HEAD solve or analysis, its headers checked by begin_job: the
 * query, under --max-query and decoded strictly (query.h), becomes the body
 * the POST form would carry, and the request goes on as that POST would. */
static enum MHD_Result take_query(request *req)
{
    const gj_config *cfg = req->http->cfg;
    const char *length =
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if ((length != NULL && strtoull(length, NULL, 10) != 0) ||
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
                                    MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL)
        return respond_errorf(req, GJ_BAD_INPUT,
                              "a %s carries its position in the query, not a body; POST the body "
                              "to %s instead",
                              req->method, req->path);
    size_t n = req->raw_query != NULL ? strlen(req->raw_query) : 0;
    if (n > (size_t)cfg->max_query)
        return respond_errorf(req, GJ_URI_TOO_LONG,
                              "the query is %zu bytes; the limit is %ld bytes (--max-query): POST "
                              "the position to %s instead",
                              n, cfg->max_query, req->path);
    query_request q;
    gj_error e;
    if (query_request_decode(req->match.row->query, req->raw_query ? req->raw_query : "", n, &q,
                             &e) != 0)
        return respond_error(req, &e);
    free(req->body);
    req->body = q.body;
    req->len = q.len;
    req->cap = q.len; /* the decoder left room for the parsers' NUL guard */
    req->input = q.input;
    return MHD_YES;
}

/* Grow the body buffer to hold `need` bytes (doubling, capped at
 * --max-body) plus the parsers' NUL guard: 0, or -1 when memory is short. */
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

/* Refuse the request with *e while its body is still arriving (past
 * --max-body, or past the memory budget), and stop reading it.
 * libmicrohttpd 0.9.75 queues a response only before the body or after
 * its end, so over plain HTTP the answer is written to the socket here,
 * with Connection: close, and the connection is then closed (MHD_NO):
 * the client reads the error at once instead of sending the rest first.
 * The close lingers (conntrack_linger): what the client sends meanwhile is
 * read and dropped, so no reset overtakes the answer.
 * Over TLS the socket belongs to GnuTLS: the connection is only closed. */
static enum MHD_Result drop_body(request *req, const gj_error *e)
{
    close_reader(req);
    free(req->body);
    req->body = NULL;
    req->len = req->cap = 0;
    req->cut = true;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(req->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    bool tls = !req->admin && req->http->cfg->tls_cert[0] != '\0';
    if (tls || info == NULL)
        return MHD_NO;
    gj_buf out;
    buf_init(&out);
    respond_raw_error(req, e, &out);
    if (!out.failed) {
        int fd = info->connect_fd;
        size_t sent = 0;
        while (sent < out.len) { /* a few hundred bytes: the socket buffer takes them */
            ssize_t n = send(fd, out.data + sent, out.len - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n <= 0)
                break;
            sent += (size_t)n;
        }
        if (sent == out.len)
            req->sent_status = http_error_status(e->kind);
        /* Our FIN after the answer at once; the body bytes that are here
         * or still coming are drained by the lingering close. */
        shutdown(fd, SHUT_WR);
        conntrack_linger(req->http->rt->tracker, req->track);
    }
    buf_free(&out);
    return MHD_NO;
}

/* Feed one chunk of the body to its reader, timing it.  A refusal is kept
 * for the answer and the rest of the body only counted, so that a body
 * that goes on past --max-body is still a 413, as when it is read whole. */
static enum MHD_Result read_upload(request *req, const char *data, size_t n)
{
    if (req->reader == NULL)
        return MHD_YES; /* refused already */
    unsigned long long start = clock_ns();
    /* What jansson builds of it (a tree's nodes outgrow any multiple of
     * their text) is charged as it is built, through the job's grant. */
    gj_grant *was = gj_grant_bind(&req->job.grant);
    gj_grant_parse_begin();
    int rc = req->body_reader->feed(req->reader, data, n, &req->read_error);
    gj_error e;
    int refused = gj_grant_parse_end(&e);
    gj_grant_bind(was);
    req->read_ns += clock_ns() - start;
    if (refused != 0)
        return drop_body(req, &e);
    if (rc != 0)
        close_reader(req);
    return MHD_YES;
}

/* The body has ended: the position its reader gives (or why not) goes to
 * the job, with the reader's time as the answer's parse time. */
static void finish_reading(request *req)
{
    job *j = &req->job;
    unsigned long long start = clock_ns();
    j->body_read = true;
    j->pos = NULL;
    j->body_error = req->read_error;
    void *made = NULL;
    if (req->reader != NULL)
        made = req->body_reader->finish(req->reader, &j->body_error);
    req->reader = NULL;
    if (req->match.row->tree_body && req->body_reader != &tree_read) {
        j->read_analysis = made;
        /* What the request will build on the position read, charged as a
         * solve's work is (dispatch). */
        const analysis_body *read = made;
        if (read != NULL && read->pos != NULL)
            j->work_bytes = read->events->work(read->pos);
    } else if (req->match.row->tree_body) {
        j->tree = made;
    } else {
        j->pos = made;
    }
    if (made == NULL && j->body_error.kind == GJ_OK)
        gj_fail(&j->body_error, GJ_INTERNAL, "%s: the reader failed without saying why",
                req->match.game->name);
    req->read_ns += clock_ns() - start;
    j->body_read_ms = (double)req->read_ns / 1e6;
}

/* Take one chunk of the body: kept for a pool route, counted and dropped
 * otherwise; past --max-body the body is dropped and 413 follows, past the
 * memory budget 503. */
static enum MHD_Result take_upload(request *req, const char *data, size_t *size)
{
    size_t n = *size;
    *size = 0;
    size_t max = (size_t)req->http->cfg->max_body;
    gj_error e;
    if (n > max - req->received) {
        req->received += n;
        gj_fail(&e, GJ_TOO_LARGE, "the body exceeds the limit of %zu bytes (--max-body)", max);
        return drop_body(req, &e);
    }
    req->received += n;
    if (!wants_body(req)) {
        req->len += n; /* no other route reads a body: count it, drop it */
        return MHD_YES;
    }
    /* A body without Content-Length is charged as it grows. */
    if (admission_memory(req->http->admission, &req->admit, charged_kind(req), req->received, &e))
        return drop_body(req, &e);
    if (req->reading)
        return read_upload(req, data, n);
    if (req->len + n > req->cap && grow_body(req, req->len + n) != 0) {
        /* Mid-body libmicrohttpd would refuse a queued answer: cut it. */
        gj_fail(&e, GJ_INTERNAL, "out of memory while reading the body");
        return drop_body(req, &e);
    }
    memcpy(req->body + req->len, data, n);
    req->len += n;
    return MHD_YES;
}

/* The job's end on the I/O thread: send_answer follows when it returns. */
static void answered_here(job *j)
{
    request *req = j->ctx;
    req->state = ANSWERED;
}

/* Append ms milliseconds as "name;dur=M.UUU" (fmt.h: no printf per answer). */
static void put_duration(fmt_out *o, const char *name, double ms)
{
    fmt_str(o, name);
    fmt_str(o, ";dur=");
    fmt_milli(o, ms > 0 ? (unsigned long long)(ms * 1000 + 0.5) : 0);
}

/* Keep a solve's timings for Server-Timing and the access log. */
static void note_times(request *req)
{
    const job *j = &req->job;
    const solve_timing *t = &j->t;
    fmt_out o;
    fmt_init(&o, req->timing, sizeof req->timing);
    put_duration(&o, "queue", (double)j->wait_ns / 1e6);
    put_duration(&o, ", parse", t->parse_ms);
    put_duration(&o, ", solve", t->solve_ms);
    put_duration(&o, ", write", t->write_ms);
    fmt_str_of(&o);
    req->queue_ms = (double)j->wait_ns / 1e6;
    req->parse_ms = t->parse_ms;
    req->solve_ms = t->solve_ms;
}

/* The end of a pool route's job solved on the I/O thread (it was cheap):
 * send_answer follows when it returns. */
static void answered_on_io(job *j)
{
    request *req = j->ctx;
    note_times(req);
    req->state = ANSWERED;
}

/* The job's end on the worker that finished it: record the times and
 * resume the connection, whose next call sends the answer. */
static void answered_by_worker(job *j)
{
    request *req = j->ctx;
    note_times(req);
    free(req->body);
    req->body = NULL;
    req->state = ANSWERED;
    MHD_resume_connection(req->conn);
}

/* Where visitors reach the service, into req->origin: --public-origin,
 * else the scheme of this listener and the request's Host when together
 * they form an exact origin (a plain host[:port], nothing a page could
 * not quote: cors.h), else "".  Whether it came from the Host. */
static bool find_origin(request *req)
{
    const gj_config *cfg = req->http->cfg;
    fmt_out o; /* fmt.h: no printf per request; both fit whole */
    fmt_init(&o, req->origin, sizeof req->origin);
    if (cfg->public_origin[0] != '\0') {
        fmt_cut(&o, cfg->public_origin);
        fmt_str_of(&o);
        return false;
    }
    const char *host = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "Host");
    if (host == NULL || strlen(host) > 256)
        return false;
    bool tls = !req->admin && cfg->tls_cert[0] != '\0';
    fmt_str(&o, tls ? "https://" : "http://");
    fmt_str(&o, host);
    fmt_str_of(&o);
    if (!cors_exact_origin(req->origin, o.len))
        req->origin[0] = '\0';
    return req->origin[0] != '\0';
}

/* Fill the job's inputs from the request; a cacheable row's job gets the
 * request's tag state (its If-None-Match in, the tag and caching out). */
static void prepare_job(request *req, job_done done)
{
    job_tag *tag = NULL;
    if (req->match.row->cacheable) {
        tag = &req->tag;
        *tag = (job_tag){.if_none_match = MHD_lookup_connection_value(
                             req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH),
                         .cache_seconds = -1};
    }
    req->job = (job){.rt = req->http->rt,
                     .game = req->match.game,
                     .input = req->input,
                     .output = req->output,
                     .body = req->body,
                     .len = req->len,
                     .done = done,
                     .ctx = req,
                     .peer = req->track,
                     .arg = req->match.arg,
                     .query = req->raw_query,
                     .tag = tag,
                     .by_key = req->admit.by_key != 0,
                     .idempotency_key = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
                                                                    "Idempotency-Key")};
    req->job.origin_from_host = find_origin(req);
    req->job.origin = req->origin[0] != '\0' ? req->origin : NULL;
    gj_grant_init(&req->job.grant, grow_answer, hold_tree, req);
}

/* A worker's entry: the route's handler through jobs_start. */
static void run_job(void *arg)
{
    request *req = arg;
    jobs_start(&req->job, req->match.row->handler);
}

/* Send the finished job's answer, or its error. */
static enum MHD_Result send_answer(request *req)
{
    job *j = &req->job;
    if (j->error.kind != GJ_OK)
        return respond_error(req, &j->error);
    /* RFC 9110 13.1.2: a matching If-None-Match is a 304 for GET and HEAD,
     * a 412 for any other method. */
    bool not_modified = j->tag != NULL && j->tag->not_modified;
    if (not_modified && request_is_query_form(req))
        return respond_not_modified(req, j->answer.len);
    if (not_modified)
        return respond_errorf(req, GJ_PRECONDITION,
                              "If-None-Match matches this answer's tag %s: a %s is not answered "
                              "conditionally (RFC 9110 13.1.2); send it without If-None-Match, or "
                              "revalidate with the GET form",
                              j->tag->etag, req->method);
    if (j->fixed != NULL)
        return respond_body(req, j->ok_status, j->type, (char *)j->fixed, j->fixed_len, 1);
    size_t len;
    char *body = buf_take(&j->answer, &len);
    if (body == NULL) {
        body = malloc(1); /* an empty answer still needs a buffer to free */
        if (body == NULL)
            return MHD_NO;
    }
    return respond_body(req, j->ok_status, j->type, body, len, 0);
}

/* A complete pool-route request: triaged (jobs_triage), then answered
 * here when its solve is cheap, else handed to a worker of its lane, or
 * refused with 503 at once when that lane has no free place. */
static enum MHD_Result dispatch(request *req)
{
    if (req->body == NULL && grow_body(req, 1) != 0)
        return respond_errorf(req, GJ_INTERNAL, "out of memory");
    req->body[req->len] = '\0'; /* a guard for parsers; never part of the input */
    gj_runtime *rt = req->http->rt;
    prepare_job(req, answered_on_io);
    if (req->reading)
        finish_reading(req);
    job_lane lane = jobs_triage(&req->job, req->match.row->estimate);
    if (admission_work(req->http->admission, &req->admit, req->job.work_bytes, &req->refusal) !=
        0) {
        /* A cached answer needs none of that memory: near a full budget a
         * cacheable job still looks there, and only a miss is refused. */
        if (req->refusal.kind != GJ_OVERLOADED || !req->match.row->cacheable || rt->cache == NULL) {
            jobs_release(&req->job);
            return respond_error(req, &req->refusal);
        }
        req->job.only_cached = &req->refusal;
        /* Its work is now a key and a look-up: it must not wait behind
         * heavy solves for a place, nor hold one that a solve could use. */
        if (lane == JOB_HEAVY)
            lane = JOB_FAST;
    }
    metrics_job_event(rt->metrics, lane == JOB_HERE   ? JOB_LANE_IO
                                   : lane == JOB_FAST ? JOB_LANE_FAST
                                                      : JOB_LANE_HEAVY);
    if (lane == JOB_HERE && conntrack_gone(req->track)) {
        /* One rule for a client that has closed its side, half or whole
         * (TCP cannot tell them apart before a write): gone, as a queued or
         * running job's client is, so the connection closes unanswered. */
        jobs_release(&req->job);
        req->job.abandoned = 1;
        metrics_job_event(rt->metrics, JOB_DROPPED_ABANDONED);
        return MHD_NO;
    }
    if (lane == JOB_HERE) {
        /* Cheaper than the hand-off itself: no suspend, no resume. */
        jobs_start(&req->job, req->match.row->handler);
        return send_answer(req);
    }
    pool_lane pl = lane == JOB_FAST ? POOL_FAST : POOL_HEAVY;
    /* Hold a place first: a refusal is answered right here, and a
     * connection is suspended only when its job is sure to run. */
    if (pool_reserve(rt->pool, pl) != 0) {
        jobs_release(&req->job);
        return respond_errorf(
            req, GJ_OVERLOADED,
            "all %ld workers are busy and %ld requests are waiting; retry shortly",
            req->http->cfg->workers, req->http->cfg->queue);
    }
    req->state = QUEUED;
    req->job.done = answered_by_worker;
    req->job.queued_ns = clock_ns();
    conntrack_set_busy(rt->tracker, req->track, 1);
    MHD_suspend_connection(req->conn);
    pool_submit_reserved(rt->pool, pl, run_job, req);
    return MHD_YES;
}

/* The request is complete: an error of its route is answered now, an I/O
 * lane route runs its handler here, a pool route goes to a worker. */
static enum MHD_Result answer_complete(request *req)
{
    if (req->match.error.kind != GJ_OK)
        return respond_error(req, &req->match.error);
    if (req->match.row->lane == LANE_POOL)
        return dispatch(req);
    req->output = MEDIA_JSON;
    prepare_job(req, answered_here);
    jobs_start(&req->job, req->match.row->handler);
    return send_answer(req);
}

/* ---- libmicrohttpd callbacks ---------------------------------------- */

/* 1 for a client's X-Request-Id worth echoing: 1-128 visible ASCII bytes. */
static int valid_request_id(const char *id)
{
    size_t n = 0;
    for (; id[n] != '\0'; n++)
        if (n >= 128 || id[n] < 0x21 || id[n] > 0x7e)
            return 0;
    return n > 0;
}

/* The peer's address as text into out, "-" when unknown. */
static void describe_client(struct MHD_Connection *conn, char *out, size_t cap)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(out, cap, "-");
    if (info == NULL || info->client_addr == NULL)
        return;
    const struct sockaddr *sa = info->client_addr;
    if (sa->sa_family == AF_INET) { /* dotted quad by hand: glibc's inet_ntop calls sprintf */
        const unsigned char *b =
            (const unsigned char *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr;
        fmt_out o;
        fmt_init(&o, out, cap);
        for (int i = 0; i < 4; i++) {
            if (i > 0)
                fmt_chr(&o, '.');
            fmt_ulong(&o, b[i]);
        }
        fmt_str_of(&o);
    } else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out,
                  (socklen_t)cap);
}

/* libmicrohttpd's first sight of a request, before it decodes the target
 * leniently: the request is allocated here to keep the raw query, which
 * only query.c decodes; http_on_request's first call fills in the rest. */
void *http_on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    (void)cls;
    (void)conn;
    request *req = request_get();
    const char *q = strchr(uri, '?');
    if (req != NULL && q != NULL)
        req->raw_query = strdup(q + 1); /* short of memory: read as no query, a 400 */
    /* libmicrohttpd decodes %00 and the path ends there, so routing and the
     * log would see less than was sent: keep the path as sent, refused in
     * first_call and logged whole. */
    size_t n = q != NULL ? (size_t)(q - uri) : strlen(uri);
    if (req != NULL && framing_has_nul_escape(uri, n)) {
        req->nul_path = true;
        fmt_out o;
        fmt_init(&o, req->path, sizeof req->path);
        fmt_cut(&o, framing_origin_path(uri));
        fmt_str_of(&o);
        char *cut = strchr(req->path, '?');
        if (cut != NULL)
            *cut = '\0';
    }
    return req;
}

/* The request http_on_uri began (NULL: none) filled for this call's method and
 * URL, routed, with its id (the client's X-Request-Id when valid); NULL
 * when memory is short. */
static request *new_request(const listener *l, struct MHD_Connection *conn, const char *method,
                            const char *url, request *req)
{
    gj_http *h = l->http;
    if (req == NULL)
        req = request_get();
    if (req == NULL)
        return NULL;
    req->begun = true;
    req->http = h;
    req->admin = l->admin;
    req->conn = conn;
    req->started_ns = clock_ns();
    fmt_out o; /* fmt.h, cutting as snprintf did: no printf per request */
    fmt_init(&o, req->method, sizeof req->method);
    fmt_cut(&o, method);
    fmt_str_of(&o);
    url = framing_origin_path(url); /* RFC 9112 3.2.2: http://host/path is /path */
    bool too_long = !req->nul_path && strlen(url) >= sizeof req->path;
    if (!req->nul_path) { /* else the path as sent, from http_on_uri */
        fmt_init(&o, req->path, sizeof req->path);
        fmt_cut(&o, too_long ? "" : url); /* never a cut path: it could name another endpoint */
        fmt_str_of(&o);
    }
    fmt_init(&o, req->id, sizeof req->id);
    const char *given = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id");
    if (given != NULL && valid_request_id(given))
        fmt_cut(&o, given);
    else
        fmt_hex16(&o, (unsigned long long)(h->id_base + atomic_fetch_add(&h->next_id, 1)));
    fmt_str_of(&o);
    if (too_long) {
        req->match.row = NULL;
        gj_fail(&req->match.error, GJ_URI_TOO_LONG, "the path is %zu bytes; the limit is %zu",
                strlen(url), sizeof req->path - 1);
    } else {
        router_match(&h->routes, req->method, req->path, &req->match);
        router_restrict(&req->match, req->path, l->admin, h->admin != NULL);
    }
    req->queue_ms = req->parse_ms = req->solve_ms = -1;
    describe_client(conn, req->client, sizeof req->client);
    const union MHD_ConnectionInfo *ctx =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    req->track = ctx ? ctx->socket_context : NULL;
    atomic_fetch_add(&h->rt->in_flight, 1);
    return req;
}

/* Header iterator: append each X-Forwarded-For value to the gj_buf cls,
 * comma-separated, in the order they came (the last is the nearest hop). */
static enum MHD_Result join_forwarded(void *cls, enum MHD_ValueKind kind, const char *key,
                                      const char *value)
{
    (void)kind;
    gj_buf *b = cls;
    if (strcasecmp(key, "X-Forwarded-For") != 0 || value == NULL)
        return MHD_YES;
    if (b->len > 0)
        buf_putc(b, ',');
    buf_puts(b, value);
    return MHD_YES;
}

/* Header iterator: append the for= nodes of each Forwarded value (RFC
 * 7239) to the gj_buf cls, as join_forwarded does for X-Forwarded-For. */
static enum MHD_Result join_rfc7239(void *cls, enum MHD_ValueKind kind, const char *key,
                                    const char *value)
{
    (void)kind;
    if (strcasecmp(key, "Forwarded") == 0 && value != NULL)
        forwarded_for(value, cls);
    return MHD_YES;
}

/* Every X-Forwarded-For value (or, without one, the Forwarded for= nodes)
 * joined into the NUL-terminated gj_buf b when the peer is a trusted proxy,
 * whose word alone is read; else b stays empty, not even allocated. */
static void join_hops(request *req, gj_buf *b)
{
    if (!admission_trusts(req->http->admission, req->client))
        return;
    MHD_get_connection_values(req->conn, MHD_HEADER_KIND, join_forwarded, b);
    if (b->len == 0) /* the standard header, when the proxy sends only that */
        MHD_get_connection_values(req->conn, MHD_HEADER_KIND, join_rfc7239, b);
    buf_putc(b, '\0');
}

/* Behind a trusted proxy the access log names the client the proxy names
 * in `hops` (join_hops; NULL: none), as nginx's realip does, and the proxy
 * as the peer. */
static void name_client(request *req, const char *hops)
{
    if (admission_trusts(req->http->admission, req->client))
        admission_name_client(req->http->admission, req->client, hops, req->named,
                              sizeof req->named);
}

/* Admission (admission.h) for a route that solves: the client (`hops` as
 * name_client takes them) and its quota.  0, or -1 with *e (429 or 401)
 * when the request is refused. */
static int admit_client(request *req, const char *hops, gj_error *e)
{
    const route_row *row = req->match.row;
    if (req->match.error.kind != GJ_OK || (row->lane != LANE_POOL && !row->game_metrics))
        return 0;
    const char *key = MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, ADMISSION_KEY_HEADER);
    return admission_begin(req->http->admission, &req->admit, req->client, hops, key, e);
}

/* The request's query against the names its route reads there
 * (query_check): the GET form's on a GET or HEAD (only format on a page),
 * only format on a POST; a lenient_query page is not checked.  0, or -1
 * with *e. */
static int check_query(const request *req, gj_error *e)
{
    const route_row *row = req->match.row;
    if (row->lenient_query)
        return 0;
    query_route form = request_is_query_form(req) ? row->query : QUERY_BODY;
    const char *raw = req->raw_query != NULL ? req->raw_query : "";
    return query_check(form, raw, strlen(raw), e);
}

/* The headers are in: refuse what can be refused before the body, then
 * start reading it. */
static enum MHD_Result first_call(request *req, const char *version)
{
    /* With --cors-origins, OPTIONS on a route is a preflight, answered
     * once the request is complete (so the connection stays open): 204 with
     * Allow, and the CORS headers when the origin is listed.  On a path that
     * names no endpoint or game it is answered so only for a listed origin,
     * whose page then sends the real request and reads its 404 and error
     * code (a refused preflight shows only "Failed to fetch").  Without a
     * list, and on the admin listener, OPTIONS stays a 405 or 404 like any
     * other method. */
    const char *cors = req->http->cfg->cors_origins;
    gj_error_kind k = req->match.error.kind;
    if (strcmp(req->method, "OPTIONS") == 0 && cors[0] != '\0' && !req->admin &&
        (k == GJ_BAD_METHOD ||
         ((k == GJ_NOT_FOUND || k == GJ_UNKNOWN_GAME) &&
          cors_allowed(cors, MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, "Origin")))))
        req->preflight = true;
    /* The proxy's hops are read once, for the log's name and admission. */
    gj_buf hops;
    buf_init(&hops);
    join_hops(req, &hops);
    const char *named = hops.failed || hops.len < 2 ? NULL : hops.data;
    name_client(req, named);
    /* A head a proxy could read another way (framing.h) is refused and
     * the connection closed, so nothing after it is read as a request. */
    gj_error framing;
    if (req->nul_path) {
        buf_free(&hops);
        req->close = true;
        return respond_errorf(req, GJ_BAD_INPUT, "the path holds %%00, a NUL byte");
    }
    if (framing_check(req->conn, version, &framing) != 0) {
        buf_free(&hops);
        req->close = true;
        return respond_error(req, &framing);
    }
    gj_error refused;
    int admitted = admit_client(req, named, &refused);
    buf_free(&hops);
    if (admitted != 0)
        return respond_error(req, &refused); /* 429 or 401, before any body */
    /* A parameter the route does not read, or one given twice, would be
     * silently ignored and answer another question: 400 naming it. */
    if (req->match.error.kind == GJ_OK && check_query(req, &refused) != 0)
        return respond_error(req, &refused);
    if (wants_body(req)) {
        enum MHD_Result rc = begin_job(req);
        if (rc == MHD_YES && req->state == READING && request_is_query_form(req))
            return take_query(req);
        return rc;
    }
    req->state = READING;
    return MHD_YES;
}

/* True when the request's head announces a body: a Content-Length other
 * than 0, or any Transfer-Encoding. */
static bool announces_body(const request *req)
{
    const char *length =
        MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (length != NULL && strtoull(length, NULL, 10) != 0)
        return true;
    return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND,
                                       MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL;
}

/* libmicrohttpd's access handler: one call per state change of a request
 * (headers, each body chunk, the end, and after a resume). */
enum MHD_Result http_on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                const char *method, const char *version, const char *upload_data,
                                size_t *upload_data_size, void **con_cls)
{
    request *req = *con_cls;
    if (req == NULL || !req->begun) {
        request *begun = new_request(cls, conn, method, url, req);
        if (begun == NULL) {
            if (req != NULL)
                request_put(req);
            *con_cls = NULL;
            return MHD_NO;
        }
        req = begun;
        *con_cls = req;
        enum MHD_Result rc = first_call(req, version);
        /* Answered before a body it announced: libmicrohttpd closes the
         * connection after the answer without reading the body, so the
         * close lingers (conntrack_linger). */
        if (req->state == RESPONDED && announces_body(req))
            conntrack_linger(req->http->rt->tracker, req->track);
        return rc;
    }
    switch (req->state) {
    case READING:
        if (*upload_data_size > 0)
            return take_upload(req, upload_data, upload_data_size);
        if (req->preflight)
            return respond_body(req, MHD_HTTP_NO_CONTENT, NULL, (char *)"", 0, 1);
        return answer_complete(req);
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

/* How a request ended, as the access log's `end` names it. */
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

/* libmicrohttpd's end of a request: settle its charges, log it, count it, free it. */
void http_on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                       enum MHD_RequestTerminationCode toe)
{
    (void)conn;
    gj_http *h = cls;
    request *req = *con_cls;
    if (req == NULL)
        return;
    if (!req->begun) { /* libmicrohttpd answered it alone, e.g. 431 for its headers */
        request_put(req);
        *con_cls = NULL;
        return;
    }
    access_entry a = {
        .method = req->method,
        .path = req->path,
        .game = req->match.error.kind == GJ_OK && req->match.game ? req->match.game->name : NULL,
        .status = req->sent_status,
        .bytes_in = req->received,
        .bytes_out = req->sent_bytes,
        .micros = (clock_ns() - req->started_ns) / 1000,
        .queue_ms = req->queue_ms,
        .parse_ms = req->parse_ms,
        .solve_ms = req->solve_ms,
        .client = req->named[0] != '\0' ? req->named : req->client,
        .peer = req->named[0] != '\0' ? req->client : NULL,
        .quota_client = req->admit.metered ? req->admit.client : NULL,
        .request_id = req->id,
        .end = req->job.abandoned ? "abandoned"
               : req->cut         ? "cut"
                                  : termination_name(toe),
    };
    /* The job's work is charged even when no answer was sent (the client
     * hung up), and its memory charge released, once each: before the
     * access line, so that a request in the log is a request settled. */
    admission_end(h->admission, &req->admit, req->job.work_ms);
    log_access(&a);
    const route_row *row = req->match.row;
    int counted = req->match.error.kind == GJ_OK && row->game_metrics;
    metrics_request(h->rt->metrics, counted ? req->match.game : NULL, req->sent_status,
                    req->received, req->sent_bytes);
    /* The next request's clock starts. */
    conntrack_set_busy(h->rt->tracker, req->track, 0);
    close_reader(req); /* the client left mid-body */
    buf_free(&req->job.answer);
    request_put(req);
    *con_cls = NULL;
    atomic_fetch_sub(&h->rt->in_flight, 1);
}

/* libmicrohttpd's connection start and end on listener cls: count it
 * (http_daemon.c's limit) and (un)track its deadline. */
void http_on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                        enum MHD_ConnectionNotificationCode code)
{
    listener *l = cls;
    gj_http *h = l->http;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        atomic_fetch_add(&l->open, 1);
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = info ? conntrack_open(h->rt->tracker, info->connect_fd) : NULL;
    } else {
        conntrack_close(h->rt->tracker, *socket_context);
        *socket_context = NULL;
        atomic_fetch_sub(&l->open, 1);
    }
}

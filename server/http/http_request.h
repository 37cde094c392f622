/* http_request.h - what the three files of the HTTP front share, and no
 * one else: a listener, the front itself and one request's state.
 *
 *   http.c          the libmicrohttpd adapter: a request's states, its body
 *                   under the limits, the hand-off to a job and back
 *   http_respond.c  what an answer carries: every header the answer's
 *                   route, status, cache, CORS and quota add, the 304, and
 *                   the error written on the socket when a body is cut
 *   http_daemon.c   start and stop: the listeners, TLS, the address
 *
 * A request moves through these states (one struct request per request,
 * a block the I/O thread reuses for its next one: http.c's spares;
 * docs/ARCHITECTURE.md tells the whole path, "The life of POST
 * /solve/grid-walk"):
 *
 *   READING    headers checked, body arriving into req->body, or into the
 *              game's position when it is read as it arrives (a body that
 *              passes --max-body or the memory budget is refused there and
 *              then, and the connection closed: drop_body)
 *   QUEUED     the connection is suspended and a worker owns the request
 *   ANSWERED   the handler finished the job: on this thread (LANE_IO, and
 *              a LANE_POOL solve that jobs_triage found cheap), or a
 *              worker that then resumed the connection (the rest)
 *   RESPONDED  a response is queued; nothing more to do but log and free
 *
 * The worker touches the request only between pool_submit and
 * MHD_resume_connection, and the I/O thread touches it only outside that
 * window, so the request needs no lock of its own. */
#ifndef GJ_HTTP_REQUEST_H
#define GJ_HTTP_REQUEST_H

#include <microhttpd.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "admission.h"
#include "buf.h"
#include "conntrack.h"
#include "error.h"
#include "jobs.h"
#include "media.h"
#include "router.h"
#include "runtime.h"

typedef struct gj_http gj_http; /* as http.h says it, which this header leaves out */

/* What a libmicrohttpd daemon's callbacks are given: the front and which
 * of its listeners the daemon is. */
typedef struct listener {
    gj_http *http;
    bool admin;
    atomic_uint open; /* connections libmicrohttpd holds open on it now */
} listener;

struct gj_http {
    struct MHD_Daemon *daemon;
    struct MHD_Daemon *admin; /* --admin-address, or NULL */
    listener public_side, admin_side;
    gj_runtime *rt;
    gj_admission *admission;
    route_table routes;
    const gj_config *cfg;
    unsigned port, admin_port;
    uint64_t id_base;
    atomic_ulong next_id;
    atomic_ulong refused; /* connections closed at once past --max-connections */
};

typedef enum req_state { READING, QUEUED, ANSWERED, RESPONDED } req_state;

typedef struct request {
    gj_http *http;
    struct MHD_Connection *conn;
    tracked *track; /* the connection's deadline (conntrack.h) */
    bool preflight; /* an OPTIONS answered with the route's CORS headers */
    bool close;     /* the head's framing was refused: answer, then close */
    bool nul_path;  /* the target's path holds %00; path is kept as sent */
    bool admin;     /* on the admin listener */
    bool cut;       /* refused mid-body: answered on the socket and closed (drop_body) */
    req_state state;
    route_match match;
    media_kind input, output;
    char method[16];
    bool begun;      /* on_request's first call filled the request */
    char *raw_query; /* the target's query as sent (after '?'), or NULL */
    unsigned long long started_ns;

    char *body; /* the upload, at most cfg->max_body bytes */
    size_t len, cap;
    size_t received; /* body bytes read, kept or not */
    /* A position read as it arrives (arriving_reader in http.c): body
     * stays empty; reader is open by the game's read_json or read_text
     * (body_reader) until the body ends or the reader refuses it
     * (read_error says why). */
    bool reading;
    const gj_body_reader *body_reader;
    void *reader;
    gj_error read_error;
    unsigned long long read_ns; /* the reader's time so far */
    admit_ticket admit;         /* quota and memory budget (admission.h) */

    /* The route's work: inputs set here, the answer filled by the handler. */
    job job;
    job_tag tag; /* a cacheable row's job points here (router.h `cacheable`) */
    double queue_ms, parse_ms, solve_ms; /* -1 until a worker measured them */

    /* For the access log. */
    int sent_status;
    size_t sent_bytes;

    /* The strings, last: a reused block (http.c's spares) clears what is
     * above `path` and only the first byte of each of these, since each is
     * read as a C string. */
    char path[ROUTE_ARG_MAX + 256]; /* a longer one is refused (414), never cut */
    char id[129];
    char client[64];  /* the peer's address */
    char named[72];   /* behind a trusted proxy, the client it names; else "" */
    char origin[300]; /* the job's origin (jobs.h), "" when none */
    char timing[160];
    /* Why the solve's memory could not be charged, when the job may then
     * answer only from the cache (job.only_cached); else never read. */
    gj_error refusal;
} request;

/* ---- http_respond.c ---------------------------------------------------- */

/* True when the request is a GET or HEAD, whose solve comes in the query. */
bool request_is_query_form(const request *req);

/* Queue the answer body[len] with every header it carries; the body is
 * freed unless it is static. */
enum MHD_Result respond_body(request *req, int status, const char *type, char *body, size_t len,
                             int body_is_static);

/* Queue a 304 for an answer of `len` bytes (no body, the 200's length). */
enum MHD_Result respond_not_modified(request *req, size_t len);

/* Queue the error e: its status and JSON body, from http_error.c. */
enum MHD_Result respond_error(request *req, const gj_error *e);

/* Queue an error of `kind` whose message is formatted printf-style. */
enum MHD_Result respond_errorf(request *req, gj_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The whole answer to req for the error e, status line to body, with
 * Connection: close, into out: for a body refused mid-stream, written on
 * the socket since libmicrohttpd queues no answer then. */
void respond_raw_error(request *req, const gj_error *e, gj_buf *out);

/* ---- http.c: libmicrohttpd's callbacks, which http_daemon.c installs ---- */

/* The first sight of a request, before libmicrohttpd decodes its target. */
void *http_on_uri(void *cls, const char *uri, struct MHD_Connection *conn);

/* The access handler: one call per state change of a request. */
enum MHD_Result http_on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                const char *method, const char *version, const char *upload_data,
                                size_t *upload_data_size, void **con_cls);

/* A request's end: log it, count it, free it. */
void http_on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                       enum MHD_RequestTerminationCode toe);

/* A connection's start and end: (un)track its deadline. */
void http_on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
                        enum MHD_ConnectionNotificationCode code);

#endif

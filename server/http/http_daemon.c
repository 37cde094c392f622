/* http_daemon.c - the HTTP front's start and stop (http.h): one
 * libmicrohttpd daemon per listener, the public one with TLS when asked,
 * the admin one plain; the callbacks are http.c's. */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http_request.h"
#include "tls.h"

/* ---- start and stop -------------------------------------------------- */

/* The address to bind for host and port: 0, or -1 with *e filled. */
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

/* libmicrohttpd's accept policy: a connection past --max-connections on
 * its listener is closed at once and counted.  libmicrohttpd's own limit
 * would instead stop accepting, leaving the excess in the kernel's backlog
 * until a slot frees (a timeout later): a client hangs instead of learning
 * at once that it should go elsewhere.  The count is of connections
 * already started, so io-threads accepting at the same instant may pass
 * the limit by at most one each. */
static enum MHD_Result admit_connection(void *cls, const struct sockaddr *addr, socklen_t len)
{
    (void)addr;
    (void)len;
    listener *l = cls;
    if (atomic_load(&l->open) < (unsigned)l->http->cfg->max_connections)
        return MHD_YES;
    atomic_fetch_add(&l->http->refused, 1);
    return MHD_NO;
}

/* Start one libmicrohttpd daemon on host:port for listener l, with the
 * TLS pair when not NULL; NULL when it cannot start (e says why). */
static struct MHD_Daemon *start_daemon(listener *l, const char *host, long port,
                                       const tls_pair *tls, gj_error *e)
{
    const gj_config *cfg = l->http->cfg;
    struct sockaddr_storage addr;
    int ipv6 = 0;
    if (resolve(host, port, &addr, &ipv6, e) != 0)
        return NULL;
    /* poll(), not epoll.  libmicrohttpd 0.9.75's epoll loop once left up
     * to all of a fresh daemon's burst of 256 tiny solves unanswered, each
     * suspended and resumed by a worker at once; poll() answered them all.
     * The cause was not found.  The burst through the workers
     * (test_load) passes with either loop today, but epoll buys nothing
     * here: the same requests/s and CPU per request, measured with the
     * server on a core of its own (bench/NOTES.md section 19).  poll() is
     * linear in the open connections, which --max-connections bounds. */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC | (ipv6 ? MHD_USE_IPv6 : 0) | (tls ? MHD_USE_TLS : 0);
    struct MHD_OptionItem tls_options[] = {
        {MHD_OPTION_HTTPS_MEM_KEY, 0, tls ? tls->key : NULL},
        {MHD_OPTION_HTTPS_MEM_CERT, 0, tls ? tls->cert : NULL},
        {MHD_OPTION_HTTPS_PRIORITIES, 0, tls ? (void *)tls->priorities : NULL},
        {MHD_OPTION_END, 0, NULL},
    };
    /* The admin listener answers probes and scrapes only: one thread. */
    unsigned threads = l->admin ? 1 : (unsigned)cfg->io_threads;
    /* libmicrohttpd splits its connection limit between its threads and
     * stops accepting at it; admit_connection holds the real limit, so
     * libmicrohttpd's is set where no thread reaches it before ours. */
    unsigned mhd_limit = (unsigned)cfg->max_connections * threads + threads;
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)port, admit_connection, l, http_on_request, l, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&addr, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->timeout,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)cfg->connection_memory,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_NOTIFY_COMPLETED, http_on_completed,
        l->http, MHD_OPTION_NOTIFY_CONNECTION, http_on_connection, l, MHD_OPTION_CONNECTION_LIMIT,
        mhd_limit, MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)cfg->max_connections_per_ip,
        MHD_OPTION_ARRAY, tls ? tls_options : tls_options + 3, MHD_OPTION_URI_LOG_CALLBACK,
        http_on_uri, l->http,
        /* -1: in libmicrohttpd 0.9.75 only this level refuses whitespace
         * before a header's colon (400, then close); Host is framing.c's. */
        MHD_OPTION_STRICT_FOR_CLIENT, -1, MHD_OPTION_END);
    if (d == NULL && tls != NULL)
        gj_fail(e, GJ_BAD_INPUT,
                "cannot start HTTPS on %s port %ld with --tls-cert %s and --tls-key %s: the "
                "address cannot be bound (in use, or not an address here?), or libmicrohttpd's "
                "GnuTLS refused the pair, though it passed the start-up checks",
                host, port, cfg->tls_cert, cfg->tls_key);
    else if (d == NULL)
        gj_fail(e, GJ_BAD_INPUT, "cannot listen on %s port %ld (in use, or not an address here?)",
                host, port);
    return d;
}

/* The connection families of /metrics: open on the public listener, and
 * closed at once past --max-connections on either. */
static void render_connections(void *ctx, gj_buf *out)
{
    gj_http *h = ctx;
    metrics_family(out, "gamejudge_connections_open", "gauge",
                   "Connections open on the public listener.");
    metrics_sample(out, "gamejudge_connections_open", "", atomic_load(&h->public_side.open));
    metrics_family(out, "gamejudge_connections_refused_total", "counter",
                   "Connections closed at once because --max-connections were open.");
    metrics_sample(out, "gamejudge_connections_refused_total", "",
                   (double)atomic_load(&h->refused));
}

/* The port daemon d is bound to, `asked` when libmicrohttpd cannot say. */
static unsigned bound_port(struct MHD_Daemon *d, long asked)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : (unsigned)asked;
}

gj_http *http_start(gj_runtime *rt, gj_admission *adm, const route_row *routes, size_t nroutes,
                    gj_error *e)
{
    const gj_config *cfg = rt->cfg;
    tls_pair tls = {NULL, NULL, NULL};
    int https = cfg->tls_cert[0] != '\0';
    if (https && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
        gj_fail(e, GJ_INTERNAL, "--tls-cert: this libmicrohttpd was built without TLS support");
        return NULL;
    }
    if (https && tls_load(cfg->tls_cert, cfg->tls_key, cfg->tls_priorities, &tls, e) != 0)
        return NULL;

    gj_http *h = calloc(1, sizeof *h);
    if (h == NULL) {
        tls_free(&tls);
        gj_fail_nomem(e);
        return NULL;
    }
    h->rt = rt;
    h->admission = adm;
    h->routes = (route_table){routes, nroutes};
    h->cfg = cfg;
    h->id_base = (uint64_t)time(NULL) << 32;
    h->public_side.http = h;
    h->admin_side.http = h;
    h->admin_side.admin = true;
    if (metrics_add_section(rt->metrics, render_connections, h) != 0) {
        tls_free(&tls);
        free(h);
        gj_fail_nomem(e);
        return NULL;
    }
    /* The admin listener is started first: router_restrict reads whether
     * there is one from the first request on. */
    if (cfg->admin_port >= 0) {
        h->admin = start_daemon(&h->admin_side, cfg->admin_host, cfg->admin_port, NULL, e);
        if (h->admin == NULL) {
            tls_free(&tls);
            free(h);
            return NULL;
        }
        h->admin_port = bound_port(h->admin, cfg->admin_port);
    }
    h->daemon = start_daemon(&h->public_side, cfg->host, cfg->port, https ? &tls : NULL, e);
    tls_free(&tls); /* GnuTLS holds its own copy once the daemon has started */
    if (h->daemon == NULL && h->admin != NULL && cfg->port == cfg->admin_port)
        gj_fail(e, GJ_BAD_INPUT,
                "cannot listen on %s port %ld: --admin-address %s:%ld took that port first; give "
                "the admin listener a port of its own",
                cfg->host, cfg->port, cfg->admin_host, cfg->admin_port);
    if (h->daemon == NULL) {
        if (h->admin != NULL)
            MHD_stop_daemon(h->admin);
        free(h);
        return NULL;
    }
    h->port = bound_port(h->daemon, cfg->port);
    return h;
}

unsigned http_port(const gj_http *h)
{
    return h->port;
}

unsigned http_admin_port(const gj_http *h)
{
    return h->admin != NULL ? h->admin_port : 0;
}

void http_stop_accepting(gj_http *h)
{
    MHD_socket fd = MHD_quiesce_daemon(h->daemon);
    if (fd != MHD_INVALID_SOCKET)
        close(fd);
}

int http_wait_idle(gj_http *h, double seconds)
{
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (double waited = 0; waited < seconds; waited += 0.01) {
        if (atomic_load(&h->rt->in_flight) == 0)
            return 1;
        nanosleep(&tick, NULL);
    }
    return atomic_load(&h->rt->in_flight) == 0;
}

void http_stop(gj_http *h)
{
    if (h == NULL)
        return;
    MHD_stop_daemon(h->daemon);
    if (h->admin != NULL)
        MHD_stop_daemon(h->admin);
    free(h);
}

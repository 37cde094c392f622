/* http.h - the HTTP front: libmicrohttpd with internal polling threads.
 *
 * I/O threads route requests (routes.h), read bodies under the size limit
 * and run the I/O lane's handlers themselves; a pool route's job is handed
 * to the worker pool with its connection suspended, and the worker resumes
 * it with the answer.  I/O threads never run a solver and workers never
 * touch a socket.  The start-up layer (app.h) starts and stops it, on the
 * runtime (runtime.h), the admission (admission.h) and the route table.
 *
 * With --tls-cert and --tls-key the public port speaks HTTPS (libmicrohttpd's
 * GnuTLS).  With --admin-address a second daemon, plain HTTP, serves the
 * rows routes.h marks for it, on the same application; it keeps answering
 * probes while a stop drains the public port.
 *
 * Shutdown: http_stop_accepting, then http_wait_idle (every request that
 * had begun is answered), then pool_drain, then http_stop. */
#ifndef GJ_HTTP_H
#define GJ_HTTP_H

#include <stddef.h>

#include "admission.h"
#include "error.h"
#include "router.h"
#include "runtime.h"

typedef struct gj_http gj_http;

/* Bind and start serving the table's `nroutes` routes on rt and adm.  NULL
 * with *e filled when the address cannot be bound or the daemon cannot
 * start. */
gj_http *http_start(gj_runtime *rt, gj_admission *adm, const route_row *routes, size_t nroutes,
                    gj_error *e);

/* The bound port (useful with port 0). */
unsigned http_port(const gj_http *h);

/* The admin listener's bound port (--admin-address), 0 when there is none. */
unsigned http_admin_port(const gj_http *h);

/* Close the listening socket; answers from now on carry Connection: close. */
void http_stop_accepting(gj_http *h);

/* Wait until no request is in progress, at most `seconds`.  1 when idle. */
int http_wait_idle(gj_http *h, double seconds);

/* Stop the daemon and free everything.  Call only when idle or after the
 * pool has drained (no connection may stay suspended). */
void http_stop(gj_http *h);

#endif

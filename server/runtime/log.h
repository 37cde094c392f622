/* log.h - the daemon's log on stderr, one line per event, as text or JSON
 * lines (--log-format).  Each line is formatted whole and written with one
 * call, so lines from different threads never interleave.
 *
 * Text access line:
 *   TIME METHOD PATH STATUS BYTES DURATIONus id=ID client=PEER [quota=NAME] end=HOW
 * PEER is the connection's peer (the proxy, behind one); NAME the client
 * the quota charged (admission.h: an address or key#N), only when metered,
 * so the log says who was throttled behind a proxy.
 * The fields are separated by spaces, so in each of them, and in each
 * value of an event, the space, the backslash and every byte outside
 * printable ASCII are written \xHH, as nginx does: a client can neither
 * forge a line nor split a field.  An empty field of the access line is
 * written "-".
 * JSON access line: {"time","level","msg":"request","request_id","method",
 *   "path","game","status","duration_us","queue_ms","parse_ms","solve_ms",
 *   "bytes_in","bytes_out","client","quota_client","end"} (game and the
 *   solve times only for solves, quota_client only when metered); strings
 *   escaped as JSON (\u00XX outside printable ASCII). */
#ifndef GJ_LOG_H
#define GJ_LOG_H

#include <stddef.h>

typedef enum log_format { LOG_TEXT, LOG_JSON } log_format;

/* Set once at start-up, before any thread logs. */
void log_init(log_format format);

typedef struct access_entry {
    const char *method;
    const char *path;
    const char *game; /* NULL when not a solve */
    int status;       /* 0 when no response was sent */
    size_t bytes_in, bytes_out;
    unsigned long long micros;
    double queue_ms, parse_ms, solve_ms; /* negative when not measured */
    const char *client;                  /* the peer's address (the proxy's, behind one) */
    const char *quota_client;            /* the quota's client (admission.h), NULL when unmetered */
    const char *request_id;
    const char *end; /* ok, timeout, aborted, error, shutdown, abandoned, cut */
} access_entry;

void log_access(const access_entry *a);

/* An event that is not a request: "listening", "draining", "stopped", ...
 * `fields` is NULL or a NULL-terminated list of key, value string pairs. */
void log_event(const char *level, const char *message, const char *const *fields);

#endif

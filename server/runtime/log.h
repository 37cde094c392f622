/* log.h - the daemon's log on stderr, one line per event, as text or JSON
 * lines (--log-format).  Each line is formatted whole and put out under
 * one lock, so lines from different threads never interleave.
 *
 * Buffering (log_buffer; `serve` turns it on), as nginx's access_log
 * buffer= and flush=: access lines wait in one buffer that is written with
 * one write() when the next line would not fit, or flush_ms after its
 * oldest line came (a flusher thread, asleep while nothing waits), so a
 * line reaches stderr within flush_ms even when no request follows.  An
 * event line (configuration, draining, stopped, a warning) writes what
 * waits and itself at once, so the order of lines is kept.  What is
 * guaranteed:
 *   - SIGTERM and SIGINT: `serve` stops libmicrohttpd (which logs every
 *     request it held) before its "stopped" event, which writes them all;
 *     log_stop, and an exit() by any path (atexit), flush too.
 *   - A crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, or abort's SIGABRT, on
 *     any thread): a handler writes the waiting lines with write(2) alone,
 *     then the signal takes its previous course (a core, a sanitizer's
 *     report).  A line another thread was copying in at that instant is
 *     waited for up to 200 ms; if a write() was under way the handler
 *     resumes after the bytes it had written, so a line may appear twice,
 *     never not at all.  Not covered: SIGKILL (the OOM killer, kill -9),
 *     which loses at most flush_ms of lines, and a stack overflow, whose
 *     handler has no stack to run on.
 * Without log_buffer (tests, `gamejudge solve`) each line is written at
 * once, as before buffering existed.
 *
 * Text access line:
 *   TIME METHOD PATH STATUS BYTES DURATIONus id=ID client=CLIENT [peer=PEER] [quota=NAME] end=HOW
 * CLIENT is the connection's peer, or behind a trusted proxy (PEER, then
 * written) the client its X-Forwarded-For names, as nginx's realip does,
 * whether a quota is on or not; NAME the client
 * the quota charged (admission.h: an address or key#N), only when metered,
 * so the log says who was throttled behind a proxy.
 * The fields are separated by spaces, so in each of them, and in each
 * value of an event, the space, the backslash and every byte outside
 * printable ASCII are written \xHH, as nginx does: a client can neither
 * forge a line nor split a field.  An empty field of the access line is
 * written "-".
 * JSON access line: {"time","level","msg":"request","request_id","method",
 *   "path","game","status","duration_us","queue_ms","parse_ms","solve_ms",
 *   "bytes_in","bytes_out","client","peer","quota_client","end"} (game and
 *   the solve times only for solves, peer only behind a trusted proxy,
 *   quota_client only when metered); strings
 *   escaped as JSON (\u00XX outside printable ASCII). */
#ifndef GJ_LOG_H
#define GJ_LOG_H

#include <stddef.h>

typedef enum log_format { LOG_TEXT, LOG_JSON } log_format;

/* Set once at start-up, before any thread logs. */
void log_init(log_format format);

/* Buffer access lines in `bytes` (0: no buffering), written at the latest
 * flush_ms after the oldest came; installs the fatal-signal handler and an
 * atexit flush.  Before any thread logs.  0, or -1 when the buffer or its
 * thread cannot be had (then every line is written at once). */
int log_buffer(size_t bytes, long flush_ms);

/* Write every waiting line now. */
void log_flush(void);

/* Write every waiting line, stop the flusher thread and buffering (later
 * lines are written at once) and restore the fatal signals' handlers. */
void log_stop(void);

typedef struct access_entry {
    const char *method;
    const char *path;
    const char *game; /* NULL when not a solve */
    int status;       /* 0 when no response was sent */
    size_t bytes_in, bytes_out;
    unsigned long long micros;
    double queue_ms, parse_ms, solve_ms; /* negative when not measured */
    const char *client;       /* the client: the peer, or the one a trusted proxy names */
    const char *peer;         /* the trusted proxy behind which client is, else NULL */
    const char *quota_client; /* the quota's client (admission.h), NULL when unmetered */
    const char *request_id;
    const char *end; /* ok, timeout, aborted, error, shutdown, abandoned, cut */
} access_entry;

void log_access(const access_entry *a);

/* An event that is not a request: "listening", "draining", "stopped", ...
 * `fields` is NULL or a NULL-terminated list of key, value string pairs. */
void log_event(const char *level, const char *message, const char *const *fields);

#endif

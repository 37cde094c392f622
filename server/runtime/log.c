/* log.c - text or JSON lines on stderr, written at once or buffered as
 * nginx's access_log buffer= and flush= (log.h says what is guaranteed). */
#include "log.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"

static log_format format = LOG_TEXT; /* configuration, set once by log_init */

/* ---- the output: one buffer under one lock --------------------------- */

/* Whole lines wait in `data` until it fills, until `flush_ms` after the
 * oldest of them (the flusher thread), or until an event line or log_stop.
 * Unbuffered (cap 0, the state before log_buffer) every line is written at
 * once.  `committed` and `written` are atomics because the fatal-signal
 * handler reads them without the lock (it must not wait on a lock its own
 * thread may hold): `committed` bytes of `data` are whole lines, and a
 * write in progress has put out the first `written` of them. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* the flusher: lines came, or stop */
    char *data;
    size_t cap;
    atomic_size_t committed, written;
    atomic_int busy;        /* the lock is held: the handler waits a little for it */
    struct timespec oldest; /* CLOCK_MONOTONIC when the first waiting line came */
    long flush_ms;
    bool flusher_running, stopping;
    pthread_t flusher;
} out = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local bool holding; /* this thread holds out.lock (the handler must not wait) */

/* The fatal signals whose handler writes the waiting lines, and what ran before. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous[NFATAL];
static bool handlers_installed;

/* Write p[n] to stderr whole, retrying interrupted and would-block writes;
 * with `progress` each step is published (the handler resumes from it).
 * Bytes that cannot be written (a closed or failing stderr) are dropped. */
static void write_all(const char *p, size_t n, atomic_size_t *progress)
{
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(STDERR_FILENO, p + done, n - done);
        if (w > 0) {
            done += (size_t)w;
            if (progress != NULL)
                atomic_store_explicit(progress, done, memory_order_release);
        } else if (w < 0 && errno == EAGAIN) {
            struct pollfd pfd = {STDERR_FILENO, POLLOUT, 0};
            if (poll(&pfd, 1, 1000) <= 0)
                return;
        } else if (w == 0 || errno != EINTR) {
            return;
        }
    }
}

/* Take out.lock, marking it held for the handler. */
static void lock_out(void)
{
    pthread_mutex_lock(&out.lock);
    holding = true;
    atomic_store(&out.busy, 1);
}

/* Release out.lock. */
static void unlock_out(void)
{
    atomic_store(&out.busy, 0);
    holding = false;
    pthread_mutex_unlock(&out.lock);
}

/* Write the waiting lines with one write() and empty the buffer; out.lock held. */
static void flush_locked(void)
{
    size_t n = atomic_load_explicit(&out.committed, memory_order_relaxed);
    if (n == 0)
        return;
    write_all(out.data, n, &out.written);
    /* committed first: the handler, reading written then committed, sees
     * an empty range rather than lines that were written already. */
    atomic_store_explicit(&out.committed, 0, memory_order_release);
    atomic_store_explicit(&out.written, 0, memory_order_release);
}

/* Put the whole line p[n] out: into the buffer (flushed first when it
 * would not fit), or straight to stderr when unbuffered, when `now` asks
 * for it (an event: rare, and read by people and tests as it happens), or
 * when the line is larger than the buffer.  Lines never interleave. */
static void put_line(const char *p, size_t n, bool now)
{
    lock_out();
    size_t used = atomic_load_explicit(&out.committed, memory_order_relaxed);
    if (out.cap == 0 || n > out.cap) {
        flush_locked();
        write_all(p, n, NULL);
    } else {
        if (n > out.cap - used) {
            flush_locked();
            used = 0;
        }
        memcpy(out.data + used, p, n);
        atomic_store_explicit(&out.committed, used + n, memory_order_release);
        if (now) {
            flush_locked();
        } else if (used == 0) { /* the first waiting line: the flusher's clock starts */
            clock_gettime(CLOCK_MONOTONIC, &out.oldest);
            pthread_cond_signal(&out.wake);
        }
    }
    unlock_out();
}

/* Wait on out.wake until signalled or, when due is not NULL, until due
 * (CLOCK_MONOTONIC); out.lock is held before and after, released meanwhile. */
static void wait_out(const struct timespec *due)
{
    atomic_store(&out.busy, 0);
    holding = false;
    if (due != NULL)
        pthread_cond_timedwait(&out.wake, &out.lock, due);
    else
        pthread_cond_wait(&out.wake, &out.lock);
    holding = true;
    atomic_store(&out.busy, 1);
}

/* The flusher thread: writes the waiting lines flush_ms after the oldest
 * came, sleeping while there are none; flushes once more on stop. */
static void *flusher(void *arg)
{
    (void)arg;
    lock_out();
    while (!out.stopping) {
        if (atomic_load_explicit(&out.committed, memory_order_relaxed) == 0) {
            wait_out(NULL);
            continue;
        }
        struct timespec due = out.oldest, now;
        due.tv_sec += out.flush_ms / 1000;
        due.tv_nsec += (out.flush_ms % 1000) * 1000000L;
        if (due.tv_nsec >= 1000000000L) {
            due.tv_sec++;
            due.tv_nsec -= 1000000000L;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec > due.tv_sec || (now.tv_sec == due.tv_sec && now.tv_nsec >= due.tv_nsec))
            flush_locked();
        else
            wait_out(&due);
    }
    flush_locked();
    unlock_out();
    return NULL;
}

/* A fatal signal (a crash on any thread, or abort): write the lines still
 * waiting with write(2) alone, then let the signal do what it did before
 * (the default: die, with a core; or a sanitizer's report).  Only
 * async-signal-safe calls: atomics, nanosleep, write, sigaction, raise. */
static void on_fatal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    /* Another thread holding the lock may be copying in a line or writing
     * the buffer: give it up to 200 ms to finish, so its line is kept. */
    for (int i = 0; !holding && i < 200 && atomic_load(&out.busy); i++)
        nanosleep(&(struct timespec){0, 1000000L}, NULL);
    size_t from = atomic_load_explicit(&out.written, memory_order_acquire);
    size_t to = atomic_load_explicit(&out.committed, memory_order_acquire);
    if (out.data != NULL && from < to) {
        write_all(out.data + from, to - from, NULL);
        /* Written: a second fatal signal (a sanitizer's abort after its
         * report) must not write the same lines again. */
        atomic_store_explicit(&out.written, to, memory_order_release);
    }
    for (size_t i = 0; i < NFATAL; i++)
        if (fatal_signals[i] == sig)
            sigaction(sig, &previous[i], NULL);
    /* A fault repeats when the handler returns and meets the previous
     * action; a signal that was sent (kill, raise, abort) is sent again. */
    if (info == NULL || info->si_code <= 0 || sig == SIGABRT)
        raise(sig);
}

/* At exit: whatever waits is written. */
static void flush_at_exit(void)
{
    log_flush();
}

void log_init(log_format f)
{
    format = f;
}

int log_buffer(size_t bytes, long flush_ms)
{
    if (bytes == 0 || out.data != NULL)
        return 0;
    char *data = malloc(bytes);
    if (data == NULL)
        return -1;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&out.wake, &attr);
    pthread_condattr_destroy(&attr);
    lock_out();
    out.data = data;
    out.cap = bytes;
    out.flush_ms = flush_ms > 0 ? flush_ms : 1000;
    out.stopping = false;
    /* The flusher takes no signal: SIGTERM and SIGINT are for serve's sigwait. */
    sigset_t all, was;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &was);
    out.flusher_running = pthread_create(&out.flusher, NULL, flusher, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    unlock_out();
    if (!out.flusher_running) { /* no timer: write every line at once instead */
        log_stop();
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], &sa, &previous[i]);
    handlers_installed = true;
    static bool registered;
    if (!registered)
        registered = atexit(flush_at_exit) == 0;
    return 0;
}

void log_flush(void)
{
    lock_out();
    flush_locked();
    unlock_out();
}

void log_stop(void)
{
    lock_out();
    bool joined = out.flusher_running;
    out.stopping = true;
    pthread_cond_signal(&out.wake);
    unlock_out();
    if (joined)
        pthread_join(out.flusher, NULL);
    lock_out();
    flush_locked();
    out.flusher_running = false;
    if (handlers_installed)
        for (size_t i = 0; i < NFATAL; i++)
            sigaction(fatal_signals[i], &previous[i], NULL);
    handlers_installed = false;
    if (out.data != NULL)
        pthread_cond_destroy(&out.wake);
    free(out.data);
    out.data = NULL;
    out.cap = 0;
    unlock_out();
}

/* ---- formatting -------------------------------------------------------- */

/* Append the current UTC time as ISO 8601 with milliseconds, e.g.
 * 2024-01-02T03:04:05.678Z.  The date and time to the second are made once
 * per second and thread (gmtime_r takes glibc's time-zone lock), the
 * milliseconds every time. */
static void put_time(fmt_out *b)
{
    static _Thread_local time_t cached_sec = -1;
    static _Thread_local char cached[24];
    static _Thread_local size_t cached_len;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (now.tv_sec != cached_sec) {
        struct tm tm;
        gmtime_r(&now.tv_sec, &tm);
        cached_len = strftime(cached, sizeof cached, "%Y-%m-%dT%H:%M:%S", &tm);
        cached_sec = now.tv_sec;
    }
    fmt_mem(b, cached, cached_len);
    fmt_chr(b, '.');
    fmt_zeros(b, (unsigned long)(now.tv_nsec / 1000000), 3);
    fmt_chr(b, 'Z');
}

/* Append s to a text line with every byte a reader could mistake escaped
 * as \xHH, as nginx does: control bytes (CR and LF would forge a line, ESC
 * would drive the reader's terminal), bytes from 0x7f up, the space (it
 * separates the fields) and the backslash itself (so every escape is one
 * the line's writer made).  A NULL s appends nothing. */
static void put_text_value(fmt_out *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    while (s != NULL && *s != '\0') {
        const char *run = s; /* bytes that need no escape, appended at once */
        while (*s != '\0' && (unsigned char)*s > 0x20 && (unsigned char)*s < 0x7f && *s != '\\')
            s++;
        fmt_mem(b, run, (size_t)(s - run));
        if (*s == '\0')
            break;
        unsigned char c = (unsigned char)*s++;
        char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
        fmt_mem(b, esc, sizeof esc);
    }
}

/* Append one positional field of the text access line, escaped; "-" for a
 * NULL or empty one, so the line always has the same fields. */
static void put_text_word(fmt_out *b, const char *s)
{
    if (s == NULL || *s == '\0')
        fmt_chr(b, '-');
    else
        put_text_value(b, s);
}

/* A JSON string; bytes outside printable ASCII become \u00XX so the line
 * stays valid JSON whatever a client put in its path. */
static void put_json_string(fmt_out *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    fmt_chr(b, '"');
    while (s != NULL && *s != '\0') {
        const char *run = s; /* bytes that need no escape, appended at once */
        while (*s != '\0' && (unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f && *s != '"' &&
               *s != '\\')
            s++;
        fmt_mem(b, run, (size_t)(s - run));
        if (*s == '\0')
            break;
        unsigned char c = (unsigned char)*s++;
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            fmt_mem(b, esc, sizeof esc);
        } else {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            fmt_mem(b, esc, sizeof esc);
        }
    }
    fmt_chr(b, '"');
}

/* Append ,"key": to an open JSON object (key escaped). */
static void put_key(fmt_out *b, const char *key)
{
    fmt_chr(b, ',');
    put_json_string(b, key);
    fmt_chr(b, ':');
}

/* Append ,"key":"value" to an open JSON object, both escaped (a NULL value as ""). */
static void put_field(fmt_out *b, const char *key, const char *value)
{
    put_key(b, key);
    put_json_string(b, value);
}

/* Append ,"key":N to an open JSON object. */
static void put_integer(fmt_out *b, const char *key, long long value)
{
    put_key(b, key);
    fmt_long(b, value);
}

/* Append ,"key":M.UUU to an open JSON object: milliseconds with three
 * decimals, as "%.3f" writes them (rounded to the nearest microsecond). */
static void put_millis(fmt_out *b, const char *key, double ms)
{
    put_key(b, key);
    if (ms < 0) {
        fmt_chr(b, '-');
        ms = -ms;
    }
    if (!(ms < 1e12)) { /* not reached by a real duration; printf keeps the format */
        char num[48];
        snprintf(num, sizeof num, "%.3f", ms);
        fmt_str(b, num);
        return;
    }
    fmt_milli(b, (unsigned long long)(ms * 1000 + 0.5));
}

/* End the line and put it out (put_line; `now` for an event), unless
 * memory ran out while formatting it; frees what the appender took. */
static void emit(fmt_out *b, bool now)
{
    fmt_chr(b, '\n');
    if (!b->over)
        put_line(b->p, b->len, now);
    fmt_release(b);
}

/* Start a JSON line {"time","level","msg", left open for more fields and the closing '}'. */
static void open_json(fmt_out *b, const char *level, const char *message)
{
    fmt_str(b, "{\"time\":\"");
    put_time(b);
    fmt_chr(b, '"');
    put_field(b, "level", level);
    put_field(b, "msg", message);
}

void log_access(const access_entry *a)
{
    char line[1024]; /* a usual line fits; a long one moves to the heap */
    fmt_out b;
    fmt_init_growable(&b, line, sizeof line);
    if (format == LOG_TEXT) {
        put_time(&b);
        fmt_chr(&b, ' ');
        put_text_word(&b, a->method);
        fmt_chr(&b, ' ');
        put_text_word(&b, a->path);
        fmt_chr(&b, ' ');
        fmt_long(&b, a->status);
        fmt_chr(&b, ' ');
        fmt_ulong(&b, a->bytes_out);
        fmt_chr(&b, ' ');
        fmt_ulong(&b, a->micros);
        fmt_str(&b, "us id=");
        put_text_word(&b, a->request_id);
        fmt_str(&b, " client=");
        put_text_word(&b, a->client);
        if (a->peer != NULL) {
            fmt_str(&b, " peer=");
            put_text_word(&b, a->peer);
        }
        if (a->quota_client != NULL) {
            fmt_str(&b, " quota=");
            put_text_word(&b, a->quota_client);
        }
        fmt_str(&b, " end=");
        put_text_word(&b, a->end);
        emit(&b, false);
        return;
    }
    open_json(&b, a->status >= 500 ? "error" : "info", "request");
    put_field(&b, "request_id", a->request_id);
    put_field(&b, "method", a->method);
    put_field(&b, "path", a->path);
    if (a->game != NULL)
        put_field(&b, "game", a->game);
    put_integer(&b, "status", a->status);
    put_integer(&b, "duration_us", (long long)a->micros);
    if (a->parse_ms >= 0) {
        put_millis(&b, "queue_ms", a->queue_ms);
        put_millis(&b, "parse_ms", a->parse_ms);
        put_millis(&b, "solve_ms", a->solve_ms);
    }
    put_integer(&b, "bytes_in", (long long)a->bytes_in);
    put_integer(&b, "bytes_out", (long long)a->bytes_out);
    put_field(&b, "client", a->client);
    if (a->peer != NULL)
        put_field(&b, "peer", a->peer);
    if (a->quota_client != NULL)
        put_field(&b, "quota_client", a->quota_client);
    put_field(&b, "end", a->end);
    fmt_chr(&b, '}');
    emit(&b, false);
}

void log_event(const char *level, const char *message, const char *const *fields)
{
    char line[1024];
    fmt_out b;
    fmt_init_growable(&b, line, sizeof line);
    if (format == LOG_TEXT) {
        fmt_str(&b, "gamejudge: ");
        fmt_str(&b, message);
        for (int i = 0; fields != NULL && fields[i] != NULL; i += 2) {
            fmt_chr(&b, ' ');
            fmt_str(&b, fields[i]);
            fmt_chr(&b, '=');
            put_text_value(&b, fields[i + 1]);
        }
        emit(&b, true);
        return;
    }
    open_json(&b, level, message);
    for (int i = 0; fields != NULL && fields[i] != NULL; i += 2)
        put_field(&b, fields[i], fields[i + 1]);
    fmt_chr(&b, '}');
    emit(&b, true);
}

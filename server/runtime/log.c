/* log.c - text or JSON lines on stderr. */
#include "log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "buf.h"

static log_format format = LOG_TEXT; /* configuration, set once by log_init */

void log_init(log_format f)
{
    format = f;
}

/* Append the current UTC time as ISO 8601 with milliseconds, e.g. 2024-01-02T03:04:05.678Z. */
static void put_time(gj_buf *b)
{
    struct timespec now;
    struct tm tm;
    char stamp[48];
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    size_t n = strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(stamp + n, sizeof stamp - n, ".%03ldZ", now.tv_nsec / 1000000);
    buf_puts(b, stamp);
}

/* Append s to a text line with every byte a reader could mistake escaped
 * as \xHH, as nginx does: control bytes (CR and LF would forge a line, ESC
 * would drive the reader's terminal), bytes from 0x7f up, the space (it
 * separates the fields) and the backslash itself (so every escape is one
 * the line's writer made).  A NULL s appends nothing. */
static void put_text_value(gj_buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c <= 0x20 || c >= 0x7f || c == '\\') {
            char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
            buf_append(b, esc, sizeof esc);
        } else {
            buf_putc(b, (char)c);
        }
    }
}

/* Append one positional field of the text access line, escaped; "-" for a
 * NULL or empty one, so the line always has the same fields. */
static void put_text_word(gj_buf *b, const char *s)
{
    if (s == NULL || *s == '\0')
        buf_putc(b, '-');
    else
        put_text_value(b, s);
}

/* A JSON string; bytes outside printable ASCII become \u00XX so the line
 * stays valid JSON whatever a client put in its path. */
static void put_json_string(gj_buf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    buf_putc(b, '"');
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            buf_putc(b, '\\');
            buf_putc(b, (char)c);
        } else if (c < 0x20 || c >= 0x7f) {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            buf_append(b, esc, sizeof esc);
        } else {
            buf_putc(b, (char)c);
        }
    }
    buf_putc(b, '"');
}

/* Append ,"key":"value" to an open JSON object, both escaped (a NULL value as ""). */
static void put_field(gj_buf *b, const char *key, const char *value)
{
    buf_putc(b, ',');
    put_json_string(b, key);
    buf_putc(b, ':');
    put_json_string(b, value);
}

/* Append ,"key":NUMBER to an open JSON object, value printed with fmt (a double conversion). */
static void put_number(gj_buf *b, const char *key, double value, const char *fmt)
{
    char num[48];
    snprintf(num, sizeof num, fmt, value);
    buf_putc(b, ',');
    put_json_string(b, key);
    buf_putc(b, ':');
    buf_puts(b, num);
}

/* End the line and write it with one call, so threads' lines never interleave (a line whose
 * buffer failed is dropped); frees b. */
static void emit(gj_buf *b)
{
    buf_putc(b, '\n');
    if (!b->failed)
        fwrite(b->data, 1, b->len, stderr);
    buf_free(b);
}

/* Start a JSON line {"time","level","msg", left open for more fields and the closing '}'. */
static void open_json(gj_buf *b, const char *level, const char *message)
{
    buf_puts(b, "{\"time\":\"");
    put_time(b);
    buf_putc(b, '"');
    put_field(b, "level", level);
    put_field(b, "msg", message);
}

void log_access(const access_entry *a)
{
    gj_buf b;
    buf_init(&b);
    if (format == LOG_TEXT) {
        char numbers[96];
        put_time(&b);
        buf_putc(&b, ' ');
        put_text_word(&b, a->method);
        buf_putc(&b, ' ');
        put_text_word(&b, a->path);
        snprintf(numbers, sizeof numbers, " %d %zu %lluus id=", a->status, a->bytes_out, a->micros);
        buf_puts(&b, numbers);
        put_text_word(&b, a->request_id);
        buf_puts(&b, " client=");
        put_text_word(&b, a->client);
        if (a->quota_client != NULL) {
            buf_puts(&b, " quota=");
            put_text_word(&b, a->quota_client);
        }
        buf_puts(&b, " end=");
        put_text_word(&b, a->end);
        emit(&b);
        return;
    }
    open_json(&b, a->status >= 500 ? "error" : "info", "request");
    put_field(&b, "request_id", a->request_id);
    put_field(&b, "method", a->method);
    put_field(&b, "path", a->path);
    if (a->game != NULL)
        put_field(&b, "game", a->game);
    put_number(&b, "status", a->status, "%.0f");
    put_number(&b, "duration_us", (double)a->micros, "%.0f");
    if (a->parse_ms >= 0) {
        put_number(&b, "queue_ms", a->queue_ms, "%.3f");
        put_number(&b, "parse_ms", a->parse_ms, "%.3f");
        put_number(&b, "solve_ms", a->solve_ms, "%.3f");
    }
    put_number(&b, "bytes_in", (double)a->bytes_in, "%.0f");
    put_number(&b, "bytes_out", (double)a->bytes_out, "%.0f");
    put_field(&b, "client", a->client);
    if (a->quota_client != NULL)
        put_field(&b, "quota_client", a->quota_client);
    put_field(&b, "end", a->end);
    buf_putc(&b, '}');
    emit(&b);
}

void log_event(const char *level, const char *message, const char *const *fields)
{
    gj_buf b;
    buf_init(&b);
    if (format == LOG_TEXT) {
        buf_puts(&b, "gamejudge: ");
        buf_puts(&b, message);
        for (int i = 0; fields != NULL && fields[i] != NULL; i += 2) {
            buf_putc(&b, ' ');
            buf_puts(&b, fields[i]);
            buf_putc(&b, '=');
            put_text_value(&b, fields[i + 1]);
        }
        emit(&b);
        return;
    }
    open_json(&b, level, message);
    for (int i = 0; fields != NULL && fields[i] != NULL; i += 2)
        put_field(&b, fields[i], fields[i + 1]);
    buf_putc(&b, '}');
    emit(&b);
}

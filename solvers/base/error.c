/* error.c - filling gj_error values. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gj_error_clear(gj_error *e)
{
    /* Not the whole half-kilobyte: a request clears several errors, and
     * nothing reads past a string's end. */
    e->kind = GJ_OK;
    e->line = e->column = 0;
    e->field[0] = e->message[0] = '\0';
}

/* prefix then the formatted text into e->message, cut to fit. */
static void format_message(gj_error *e, const char *prefix, const char *fmt, va_list ap)
{
    size_t used = (size_t)snprintf(e->message, sizeof e->message, "%s", prefix);
    if (used >= sizeof e->message)
        return;
    vsnprintf(e->message + used, sizeof e->message - used, fmt, ap);
}

int gj_fail(gj_error *e, gj_error_kind kind, const char *fmt, ...)
{
    va_list ap;
    gj_error_clear(e);
    e->kind = kind;
    va_start(ap, fmt);
    format_message(e, "", fmt, ap);
    va_end(ap);
    return -1;
}

int gj_fail_at(gj_error *e, long line, long column, const char *fmt, ...)
{
    char prefix[64];
    va_list ap;
    gj_error_clear(e);
    e->kind = GJ_BAD_INPUT;
    e->line = line;
    e->column = column;
    if (column > 0)
        snprintf(prefix, sizeof prefix, "line %ld, column %ld: ", line, column);
    else
        snprintf(prefix, sizeof prefix, "line %ld: ", line);
    va_start(ap, fmt);
    format_message(e, prefix, fmt, ap);
    va_end(ap);
    return -1;
}

int gj_fail_field(gj_error *e, const char *field, const char *fmt, ...)
{
    char prefix[sizeof e->field + 2];
    va_list ap;
    gj_error_clear(e);
    e->kind = GJ_BAD_INPUT;
    snprintf(e->field, sizeof e->field, "%s", field);
    snprintf(prefix, sizeof prefix, "%s: ", e->field);
    va_start(ap, fmt);
    format_message(e, prefix, fmt, ap);
    va_end(ap);
    return -1;
}

int gj_fail_nomem(gj_error *e)
{
    return gj_fail(e, GJ_NO_MEMORY, "out of memory");
}

/* http_error.c - status codes and JSON error bodies. */
#include "http_error.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Each kind's status and code: the whole mapping from errors to HTTP. */
static const struct {
    int status;
    const char *code;
} table[] = {
    [GJ_OK] = {200, "ok"},
    [GJ_BAD_INPUT] = {400, "bad_input"},
    [GJ_UNKNOWN_GAME] = {404, "unknown_game"},
    [GJ_NOT_FOUND] = {404, "not_found"},
    [GJ_BAD_METHOD] = {405, "method_not_allowed"},
    [GJ_TOO_LARGE] = {413, "too_large"},
    [GJ_UNSUPPORTED] = {415, "unsupported_media_type"},
    [GJ_OVERLOADED] = {503, "overloaded"},
    [GJ_CANCELLED] = {503, "overloaded"},
    [GJ_RATE_LIMITED] = {429, "rate_limited"},
    [GJ_UNMET] = {422, "unprocessable"},
    [GJ_URI_TOO_LONG] = {414, "uri_too_long"},
    [GJ_UNAUTHORIZED] = {401, "unauthorized"},
    [GJ_PRECONDITION] = {412, "precondition_failed"},
    [GJ_UNAVAILABLE] = {503, "unavailable"},
    [GJ_CONFLICT] = {409, "conflict"},
    [GJ_NO_MEMORY] = {500, "internal"},
    [GJ_INTERNAL] = {500, "internal"},
};

_Static_assert(sizeof table / sizeof table[0] == GJ_ERROR_KINDS,
               "every error kind has its row in table[] (test_http_units checks none is empty)");

/* The table's row for kind; an out-of-range kind is a bug, answered 500. */
static size_t row(gj_error_kind kind)
{
    return (size_t)kind < sizeof table / sizeof table[0] ? (size_t)kind : (size_t)GJ_INTERNAL;
}

int http_error_status(gj_error_kind kind)
{
    return table[row(kind)].status;
}

const char *http_error_code(gj_error_kind kind)
{
    return table[row(kind)].code;
}

size_t http_error_statuses(int *out, size_t cap)
{
    static const int answers[] = {200, 204, 304}; /* the statuses that are no error */
    const size_t nanswers = sizeof answers / sizeof answers[0];
    size_t n = 0;
    for (size_t k = 0; k < nanswers + GJ_ERROR_KINDS; k++) {
        int st = k < nanswers ? answers[k] : table[k - nanswers].status;
        size_t at = 0;
        while (at < n && out[at] < st)
            at++;
        if ((at < n && out[at] == st) || n == cap)
            continue;
        memmove(out + at + 1, out + at, (n - at) * sizeof *out);
        out[at] = st;
        n++;
    }
    return n;
}

const char *http_error_retry_after(int status)
{
    return status == 503 ? "1" : NULL;
}

/* Length of the valid UTF-8 sequence at s, or 0.  Messages quote caller
 * bytes and may be cut mid-character; jansson refuses invalid UTF-8. */
static size_t utf8_sequence(const unsigned char *s, size_t left)
{
    size_t n = s[0] < 0x80             ? 1
               : (s[0] & 0xe0) == 0xc0 ? 2
               : (s[0] & 0xf0) == 0xe0 ? 3
               : (s[0] & 0xf8) == 0xf0 ? 4
                                       : 0;
    if (n == 0 || n > left || (n == 2 && s[0] < 0xc2))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* A JSON string of s with every invalid UTF-8 byte replaced by '?'. */
static json_t *safe_string(const char *s)
{
    size_t len = strlen(s);
    char *clean = malloc(len + 1);
    if (clean == NULL)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_sequence((const unsigned char *)s + i, len - i);
        if (n == 0) {
            clean[o++] = '?';
            i++;
            continue;
        }
        memcpy(clean + o, s + i, n);
        o += n;
        i += n;
    }
    json_t *str = json_stringn(clean, o);
    free(clean);
    return str;
}

json_t *http_error_object(const gj_error *detail, const char *request_id)
{
    json_t *err = json_object();
    json_object_set_new(err, "code", json_string(http_error_code(detail->kind)));
    json_object_set_new(err, "message", safe_string(detail->message));
    if (detail->line > 0)
        json_object_set_new(err, "line", json_integer(detail->line));
    if (detail->column > 0)
        json_object_set_new(err, "column", json_integer(detail->column));
    if (detail->field[0] != '\0')
        json_object_set_new(err, "field", safe_string(detail->field));
    if (request_id != NULL)
        json_object_set_new(err, "request_id", safe_string(request_id));
    return err;
}

char *http_error_render(const gj_error *detail, const char *request_id, size_t *len)
{
    json_t *root = json_pack("{s:o}", "error", http_error_object(detail, request_id));
    char *body = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (body != NULL && len != NULL)
        *len = strlen(body);
    return body;
}

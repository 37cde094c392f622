/* errors.c - status codes and JSON error bodies. */
#include "errors.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    int status;
    const char *code;
} table[] = {
    [API_BAD_INPUT] = {400, "bad_input"},   [API_UNKNOWN_GAME] = {404, "unknown_game"},
    [API_NOT_FOUND] = {404, "not_found"},   [API_BAD_METHOD] = {405, "method_not_allowed"},
    [API_TOO_LARGE] = {413, "too_large"},   [API_UNSUPPORTED] = {415, "unsupported_media_type"},
    [API_OVERLOADED] = {503, "overloaded"}, [API_INTERNAL] = {500, "internal"},
};

api_error errors_from_kind(gj_error_kind kind)
{
    return kind == GJ_BAD_INPUT ? API_BAD_INPUT : API_INTERNAL;
}

int errors_status(api_error which)
{
    return table[which].status;
}

const char *errors_code(api_error which)
{
    return table[which].code;
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

json_t *errors_object(api_error which, const gj_error *detail, const char *request_id)
{
    json_t *err = json_object();
    json_object_set_new(err, "code", json_string(table[which].code));
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

char *errors_render(api_error which, const gj_error *detail, const char *request_id, size_t *len)
{
    json_t *root = json_pack("{s:o}", "error", errors_object(which, detail, request_id));
    char *body = root ? json_dumps(root, JSON_COMPACT) : NULL;
    json_decref(root);
    if (body != NULL && len != NULL)
        *len = strlen(body);
    return body;
}

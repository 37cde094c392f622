/* query.c - strict form-urlencoded decoding of a GET solve or analyze (query.h). */
#include "query.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "reader.h"

#define QUERY_MAX_FIELDS 3

/* A parameter a route takes, and where its decoded value goes. */
typedef struct query_field {
    const char *name;
    char *value; /* malloc'd once seen, NULL while absent */
    size_t len;
} query_field;

long query_unescape(char *s, size_t len, size_t *bad_at)
{
    size_t out = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '+') {
            c = ' ';
        } else if (c == '%') {
            int hi = i + 2 < len ? reader_hex_value((unsigned char)s[i + 1]) : -1;
            int lo = hi >= 0 ? reader_hex_value((unsigned char)s[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                *bad_at = i;
                return -1;
            }
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        s[out++] = c;
    }
    return (long)out;
}

/* The names the form reads, into f; returns how many (0 for QUERY_PARAMS:
 * any name). */
static size_t route_fields(query_route route, query_field *f)
{
    memset(f, 0, sizeof *f * QUERY_MAX_FIELDS);
    if (route == QUERY_SOLVE) {
        f[0].name = "input";
        f[1].name = "position";
        f[2].name = "format";
        return 3;
    }
    if (route == QUERY_ANALYZE) {
        f[0].name = "request";
        f[1].name = "format";
        return 2;
    }
    if (route == QUERY_NONE || route == QUERY_BODY) {
        f[0].name = "format";
        return 1;
    }
    return 0;
}

/* Free every field's value. */
static void free_fields(query_field *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(f[i].value);
}

/* A malloc'd, NUL-terminated copy of len bytes at s, or NULL. */
static char *copy_bytes(const char *s, size_t len)
{
    char *p = malloc(len + 1);
    if (p != NULL) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

/* The parameter names the form reads, for messages. */
static const char *route_names(query_route route)
{
    if (route == QUERY_SOLVE)
        return "input (judge text), position (JSON) and format";
    if (route == QUERY_ANALYZE)
        return "request (the JSON request) and format";
    if (route == QUERY_BODY)
        return "only format: a POST carries its request in the body, not the query";
    return "only format";
}

/* Refuse a parameter name as sent (len bytes at raw, cut to 40), since a
 * name that does not decode cannot be named decoded: -1 with *e. */
static int bad_name(gj_error *e, const char *raw, size_t len, const char *why)
{
    int n = len > 40 ? 40 : (int)len;
    gj_fail(e, GJ_BAD_INPUT, "query: the parameter name '%.*s' %s", n, raw, why);
    snprintf(e->field, sizeof e->field, "%.*s", n, raw);
    return -1;
}

/* Decode one NAME[=VALUE] piece (len > 0 bytes at piece) strictly into
 * malloc'd, NUL-terminated *name and *value (*vlen bytes, which may hold a
 * NUL; a bare NAME has an empty value): 0, or -1 with *e and nothing to
 * free.  A name that is empty, holds %00 or a malformed escape is refused
 * as sent; a value with a malformed escape names its parameter. */
static int piece_decode(const char *piece, size_t len, char **name, char **value, size_t *vlen,
                        gj_error *e)
{
    const char *eq = memchr(piece, '=', len);
    size_t name_len = eq ? (size_t)(eq - piece) : len, raw_vlen = eq ? len - name_len - 1 : 0;
    *name = copy_bytes(piece, name_len);
    *value = copy_bytes(eq ? eq + 1 : "", raw_vlen);
    int rc = 0;
    size_t bad;
    long n = *name != NULL ? query_unescape(*name, name_len, &bad) : -1;
    if (*name == NULL || *value == NULL)
        rc = gj_fail_nomem(e);
    else if (n < 0)
        rc = bad_name(e, piece, name_len,
                      "has a malformed percent-escape; write %XX with two hex digits, or %25 "
                      "for '%'");
    else if (n == 0)
        rc = gj_fail(e, GJ_BAD_INPUT, "query: a parameter has no name before its '='");
    else if (memchr(*name, '\0', (size_t)n) != NULL)
        rc = bad_name(e, piece, name_len, "holds %00, a NUL byte");
    if (rc == 0)
        (*name)[n] = '\0';
    long m = rc == 0 ? query_unescape(*value, raw_vlen, &bad) : 0;
    if (rc == 0 && m < 0)
        rc = gj_fail_field(e, *name,
                           "malformed percent-escape at byte %zu of its value; write %%XX "
                           "with two hex digits, or %%25 for '%%'",
                           bad + 1);
    if (rc != 0) {
        free(*name);
        free(*value);
        *name = *value = NULL;
        return -1;
    }
    (*value)[m] = '\0';
    *vlen = (size_t)m;
    return 0;
}

/* What each_piece calls for a decoded piece: 0, or -1 with *e.  It may take
 * *value (setting it NULL); name and whatever is left are freed after. */
typedef int (*piece_fn)(void *ctx, const char *name, char **value, size_t vlen, gj_error *e);

/* Split the query at '&' (empty pieces skipped), decode each piece and
 * give it to fn, in order: 0, or -1 with *e at the first refusal. */
static int each_piece(const char *raw, size_t len, piece_fn fn, void *ctx, gj_error *e)
{
    for (size_t start = 0; start <= len;) {
        const char *amp = memchr(raw + start, '&', len - start);
        size_t end = amp ? (size_t)(amp - raw) : len;
        char *name, *value;
        size_t vlen;
        if (end > start) {
            if (piece_decode(raw + start, end - start, &name, &value, &vlen, e) != 0)
                return -1;
            int rc = fn(ctx, name, &value, vlen, e);
            free(name);
            free(value);
            if (rc != 0)
                return -1;
        }
        start = end + 1;
    }
    return 0;
}

/* A GET solve or analysis being decoded: its form and fields. */
typedef struct form_state {
    query_route route;
    query_field *f;
    size_t nf;
} form_state;

/* piece_fn of a solve or analysis: the value into its field, once. */
static int take_piece(void *ctx, const char *name, char **value, size_t vlen, gj_error *e)
{
    form_state *s = ctx;
    query_field *target = NULL;
    for (size_t i = 0; i < s->nf; i++)
        if (strcmp(s->f[i].name, name) == 0)
            target = &s->f[i];
    if (target == NULL) {
        gj_fail(e, GJ_BAD_INPUT, "query: unknown parameter '%.40s'; this endpoint takes %s", name,
                route_names(s->route));
        snprintf(e->field, sizeof e->field, "%.40s", name);
        return -1;
    }
    if (target->value != NULL)
        return gj_fail_field(e, target->name, "given twice in the query; give it once");
    target->value = *value;
    target->len = vlen;
    *value = NULL;
    return 0;
}

/* True when s[len] is a JSON number (RFC 8259 section 6), nothing else. */
static bool is_json_number(const char *s, size_t len)
{
    size_t i = 0;
    if (i < len && s[i] == '-')
        i++;
    if (i < len && s[i] == '0')
        i++;
    else if (i < len && s[i] >= '1' && s[i] <= '9')
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
    else
        return false;
    if (i < len && s[i] == '.') {
        size_t digits = ++i;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == digits)
            return false;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t digits = i;
        while (i < len && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == digits)
            return false;
    }
    return i == len;
}

/* The parameters whose value is always text, however it reads: a theme
 * list (GET /puzzle's "theme", comma-separated names) is names, never a
 * number or a boolean, whatever a theme is called, and a player's id (GET
 * /puzzle/{game}/next's "player") is the site's text, "42" as much as
 * "ada". */
static const char *const text_params[] = {"theme", "player", NULL};

/* Whether the parameter `name` is always read as text (text_params). */
static bool is_text_param(const char *name)
{
    for (size_t i = 0; text_params[i] != NULL; i++)
        if (strcmp(text_params[i], name) == 0)
            return true;
    return false;
}

/* A parameter's value as JSON: a number, true, false or an array (a pair
 * of bounds, "[3,5]") as written, anything else (and any value of a text
 * parameter) a string.  NULL with *e. */
static json_t *param_value(const char *name, const char *v, size_t len, gj_error *e)
{
    json_t *j = NULL;
    if (memchr(v, '\0', len) != NULL) {
        gj_fail_field(e, name, "its value holds a NUL byte (%%00)");
        return NULL;
    }
    bool json_like = is_json_number(v, len) || (len > 0 && v[0] == '[') || strcmp(v, "true") == 0 ||
                     strcmp(v, "false") == 0;
    if (json_like && !is_text_param(name)) {
        json_error_t err;
        j = json_loadb(v, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
        if (j == NULL)
            gj_fail_field(e, name, "'%.40s' is not a JSON value (%s)", v, err.text);
        return j;
    }
    j = json_stringn(v, len);
    if (j == NULL)
        gj_fail_field(e, name, "its value is not UTF-8 text");
    return j;
}

/* A parameters query being decoded: the object so far, and whether
 * "format" (read elsewhere, left out of it) was seen. */
typedef struct params_state {
    json_t *o;
    bool format_seen;
} params_state;

/* piece_fn of a parameters query: the value into the object, once. */
static int param_piece(void *ctx, const char *name, char **value, size_t vlen, gj_error *e)
{
    params_state *s = ctx;
    bool format = strcmp(name, "format") == 0;
    if ((format && s->format_seen) || json_object_get(s->o, name) != NULL)
        return gj_fail_field(e, name, "given twice in the query; give it once");
    if (format) {
        s->format_seen = true;
        return 0;
    }
    json_t *v = param_value(name, *value, vlen, e);
    if (v == NULL)
        return -1;
    return json_object_set_new(s->o, name, v) != 0 ? gj_fail_nomem(e) : 0;
}

/* A parameters query (QUERY_PARAMS) into a JSON object's text: 0, or -1
 * with *e.  "format" is read elsewhere and left out. */
static int decode_params(const char *raw, size_t len, query_request *out, gj_error *e)
{
    params_state s = {json_object(), false};
    if (s.o == NULL)
        return gj_fail_nomem(e);
    if (each_piece(raw, len, param_piece, &s, e) != 0) {
        json_decref(s.o);
        return -1;
    }
    out->body = json_dumps(s.o, JSON_COMPACT);
    json_decref(s.o);
    if (out->body == NULL)
        return gj_fail_nomem(e);
    out->len = strlen(out->body);
    out->input = MEDIA_JSON;
    return 0;
}

int query_request_decode(query_route route, const char *raw, size_t len, query_request *out,
                         gj_error *e)
{
    memset(out, 0, sizeof *out);
    gj_error_clear(e);
    if (route == QUERY_PARAMS)
        return decode_params(raw, len, out, e);
    if (route == QUERY_NONE || route == QUERY_BODY) {
        /* Nothing but format, read elsewhere: an empty body (a GET of a
         * pool route whose path names all it asks, a puzzle's picture). */
        if (query_check(route, raw, len, e) != 0)
            return -1;
        out->body = calloc(1, 1);
        out->input = MEDIA_JSON;
        return out->body != NULL ? 0 : gj_fail_nomem(e);
    }
    query_field f[QUERY_MAX_FIELDS];
    form_state s = {route == QUERY_SOLVE ? QUERY_SOLVE : QUERY_ANALYZE, f, 0};
    s.nf = route_fields(s.route, f);
    if (each_piece(raw, len, take_piece, &s, e) != 0) {
        free_fields(f, s.nf);
        return -1;
    }
    int which = -1; /* the field that carries the body */
    if (route == QUERY_SOLVE) {
        if ((f[0].value == NULL) == (f[1].value == NULL)) {
            free_fields(f, s.nf);
            return gj_fail(e, GJ_BAD_INPUT,
                           "query: give exactly one of input= (the judge text, URL-encoded) "
                           "and position= (the JSON position, URL-encoded)");
        }
        which = f[0].value != NULL ? 0 : 1;
        out->input = which == 0 ? MEDIA_TEXT : MEDIA_JSON;
    } else {
        if (f[0].value == NULL) {
            free_fields(f, s.nf);
            return gj_fail_field(e, "request",
                                 "required: the JSON request of POST /analyze, URL-encoded");
        }
        which = 0;
        out->input = MEDIA_JSON;
    }
    out->body = f[which].value;
    out->len = f[which].len;
    f[which].value = NULL;
    free_fields(f, s.nf);
    return 0;
}

/* A query being checked: the form's fields, or (none: any name) the
 * names seen so far, made at the first name (most requests have none). */
typedef struct check_state {
    form_state form;
    json_t *seen;
} check_state;

/* piece_fn of query_check: a name the form reads, once. */
static int check_piece(void *ctx, const char *name, char **value, size_t vlen, gj_error *e)
{
    check_state *s = ctx;
    if (s->form.nf > 0)
        return take_piece(&s->form, name, value, vlen, e);
    if (s->seen == NULL && (s->seen = json_object()) == NULL)
        return gj_fail_nomem(e);
    if (json_object_get(s->seen, name) != NULL)
        return gj_fail_field(e, name, "given twice in the query; give it once");
    return json_object_set_new_nocheck(s->seen, name, json_null()) != 0 ? gj_fail_nomem(e) : 0;
}

int query_check(query_route route, const char *raw, size_t len, gj_error *e)
{
    gj_error_clear(e);
    query_field f[QUERY_MAX_FIELDS];
    check_state s = {{route, f, route_fields(route, f)}, NULL};
    int rc = each_piece(raw, len, check_piece, &s, e);
    free_fields(f, s.form.nf);
    json_decref(s.seen);
    return rc;
}

void query_request_free(query_request *r)
{
    free(r->body);
    r->body = NULL;
    r->len = 0;
}

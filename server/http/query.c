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

/* The route's fields, by name; returns how many. */
static size_t route_fields(query_route route, query_field *f)
{
    memset(f, 0, sizeof *f * QUERY_MAX_FIELDS);
    if (route == QUERY_SOLVE) {
        f[0].name = "input";
        f[1].name = "position";
        f[2].name = "format";
        return 3;
    }
    f[0].name = "request";
    f[1].name = "format";
    return 2;
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

/* The parameter names the route takes, for messages. */
static const char *route_names(query_route route)
{
    return route == QUERY_SOLVE ? "input (judge text), position (JSON) and format"
                                : "request (the JSON request) and format";
}

/* Decode one NAME[=VALUE] piece into its field: 0, or -1 with *e. */
static int take_piece(query_route route, const char *piece, size_t len, query_field *f, size_t nf,
                      gj_error *e)
{
    const char *eq = memchr(piece, '=', len);
    size_t name_len = eq ? (size_t)(eq - piece) : len;
    char *name = copy_bytes(piece, name_len);
    if (name == NULL)
        return gj_fail_nomem(e);
    size_t bad;
    long n = query_unescape(name, name_len, &bad);
    if (n < 0 || memchr(name, '\0', (size_t)n) != NULL) {
        free(name);
        return gj_fail(e, GJ_BAD_INPUT,
                       "query: a parameter name has a malformed percent-escape; write %%XX "
                       "with two hex digits, or %%25 for '%%'");
    }
    name[n] = '\0';
    query_field *target = NULL;
    for (size_t i = 0; i < nf; i++)
        if (strcmp(f[i].name, name) == 0)
            target = &f[i];
    if (target == NULL) {
        gj_fail(e, GJ_BAD_INPUT, "query: unknown parameter '%.40s'; this endpoint takes %s", name,
                route_names(route));
        snprintf(e->field, sizeof e->field, "%.40s", name);
        free(name);
        return -1;
    }
    free(name);
    if (target->value != NULL)
        return gj_fail_field(e, target->name, "given twice in the query; give it once");
    size_t vlen = eq ? len - name_len - 1 : 0;
    char *value = copy_bytes(eq ? eq + 1 : "", vlen);
    if (value == NULL)
        return gj_fail_nomem(e);
    n = query_unescape(value, vlen, &bad);
    if (n < 0) {
        free(value);
        return gj_fail_field(e, target->name,
                             "malformed percent-escape at byte %zu of its value; write %%XX "
                             "with two hex digits, or %%25 for '%%'",
                             bad + 1);
    }
    value[n] = '\0';
    target->value = value;
    target->len = (size_t)n;
    return 0;
}

/* Split the query at '&' into the fields: 0, or -1 with *e. */
static int split(query_route route, const char *raw, size_t len, query_field *f, size_t nf,
                 gj_error *e)
{
    size_t start = 0;
    while (start <= len) {
        const char *amp = memchr(raw + start, '&', len - start);
        size_t end = amp ? (size_t)(amp - raw) : len;
        if (end > start && take_piece(route, raw + start, end - start, f, nf, e) != 0)
            return -1;
        start = end + 1;
    }
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

/* A parameter's value as JSON: a number, true, false or an array (a pair
 * of bounds, "[3,5]") as written, anything else a string.  NULL with *e. */
static json_t *param_value(const char *name, const char *v, size_t len, gj_error *e)
{
    json_t *j = NULL;
    if (memchr(v, '\0', len) != NULL) {
        gj_fail_field(e, name, "its value holds a NUL byte (%%00)");
        return NULL;
    }
    if (is_json_number(v, len) || (len > 0 && v[0] == '[') || strcmp(v, "true") == 0 ||
        strcmp(v, "false") == 0) {
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

/* A parameters query (QUERY_PARAMS) into a JSON object's text: 0, or -1
 * with *e.  "format" is read elsewhere and left out. */
static int decode_params(const char *raw, size_t len, query_request *out, gj_error *e)
{
    json_t *o = json_object();
    if (o == NULL)
        return gj_fail_nomem(e);
    for (size_t start = 0; start <= len;) {
        const char *amp = memchr(raw + start, '&', len - start);
        size_t end = amp ? (size_t)(amp - raw) : len;
        const char *piece = raw + start, *eq = memchr(piece, '=', end - start);
        size_t name_len = eq ? (size_t)(eq - piece) : end - start, bad;
        start = end + 1;
        if (end - (size_t)(piece - raw) == 0)
            continue;
        char *name = copy_bytes(piece, name_len);
        size_t vlen = eq ? (size_t)(raw + end - eq - 1) : 0;
        char *value = copy_bytes(eq ? eq + 1 : "", vlen);
        long n = name ? query_unescape(name, name_len, &bad) : -1;
        long m = value ? query_unescape(value, vlen, &bad) : -1;
        int rc = 0;
        if (name == NULL || value == NULL)
            rc = gj_fail_nomem(e);
        else if (n <= 0 || memchr(name, '\0', (size_t)n) != NULL)
            rc = gj_fail(e, GJ_BAD_INPUT,
                         "query: a parameter name is empty or has a malformed percent-escape; "
                         "write %%XX with two hex digits, or %%25 for '%%'");
        if (rc == 0)
            name[n] = '\0';
        if (rc == 0 && m < 0)
            rc = gj_fail_field(e, name,
                               "malformed percent-escape in its value; write %%XX "
                               "with two hex digits, or %%25 for '%%'");
        if (rc == 0 && json_object_get(o, name) != NULL)
            rc = gj_fail_field(e, name, "given twice in the query; give it once");
        if (rc == 0 && strcmp(name, "format") != 0) {
            value[m] = '\0';
            json_t *v = param_value(name, value, (size_t)m, e);
            if (v == NULL || json_object_set_new(o, name, v) != 0)
                rc = e->kind != GJ_OK ? -1 : gj_fail_nomem(e);
        }
        free(name);
        free(value);
        if (rc != 0) {
            json_decref(o);
            return -1;
        }
    }
    out->body = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (out->body == NULL)
        return gj_fail_nomem(e);
    out->len = strlen(out->body);
    out->input = MEDIA_JSON;
    return 0;
}

int query_request_decode(query_route route, const char *raw, size_t len, query_request *out,
                         gj_error *e)
{
    if (route == QUERY_PARAMS) {
        memset(out, 0, sizeof *out);
        gj_error_clear(e);
        return decode_params(raw, len, out, e);
    }
    query_field f[QUERY_MAX_FIELDS];
    size_t nf = route_fields(route, f);
    memset(out, 0, sizeof *out);
    gj_error_clear(e);
    if (split(route, raw, len, f, nf, e) != 0) {
        free_fields(f, nf);
        return -1;
    }
    int which = -1; /* the field that carries the body */
    if (route == QUERY_SOLVE) {
        if ((f[0].value == NULL) == (f[1].value == NULL)) {
            free_fields(f, nf);
            return gj_fail(e, GJ_BAD_INPUT,
                           "query: give exactly one of input= (the judge text, URL-encoded) "
                           "and position= (the JSON position, URL-encoded)");
        }
        which = f[0].value != NULL ? 0 : 1;
        out->input = which == 0 ? MEDIA_TEXT : MEDIA_JSON;
    } else {
        if (f[0].value == NULL) {
            free_fields(f, nf);
            return gj_fail_field(e, "request",
                                 "required: the JSON request of POST /analyze, URL-encoded");
        }
        which = 0;
        out->input = MEDIA_JSON;
    }
    out->body = f[which].value;
    out->len = f[which].len;
    f[which].value = NULL;
    free_fields(f, nf);
    return 0;
}

void query_request_free(query_request *r)
{
    free(r->body);
    r->body = NULL;
    r->len = 0;
}

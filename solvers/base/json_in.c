/* json_in.c - jansson wrappers that turn type and range mistakes into
 * gj_error messages naming the field. */
#include "json_in.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grant.h"
#include "json_scan.h"

void jin_field_name(char *out, size_t cap, const char *name, long i, long j)
{
    if (i < 0)
        snprintf(out, cap, "%s", name);
    else if (j < 0)
        snprintf(out, cap, "%s[%ld]", name, i);
    else
        snprintf(out, cap, "%s[%ld][%ld]", name, i, j);
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number with a fraction or exponent";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "an unknown value";
}

/* "name[i][j]: expected WANT, found TYPE": always -1. */
static int fail_type(const json_t *v, const char *name, long i, long j, const char *want,
                     gj_error *e)
{
    char field[sizeof e->field];
    jin_field_name(field, sizeof field, name, i, j);
    return gj_fail_field(e, field, "expected %s, found %s", want, type_name(v));
}

/* A key listed as "?name" is optional. */
static const char *key_name(const char *listed)
{
    return listed[0] == '?' ? listed + 1 : listed;
}

/* The unknown-member half of check_keys, for wrappers (json_in.h). */
int jin_known_keys(const json_t *root, const char *const *keys, gj_error *e)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)root, key, value)
    {
        size_t k = 0;
        while (keys[k] != NULL && strcmp(key_name(keys[k]), key) != 0)
            k++;
        if (keys[k] == NULL) {
            char expected[200] = "";
            for (size_t n = 0; keys[n] != NULL; n++) {
                size_t used = strlen(expected);
                snprintf(expected + used, sizeof expected - used, "%s\"%s\"", n ? ", " : "",
                         key_name(keys[n]));
            }
            char quoted[48];
            snprintf(quoted, sizeof quoted, "%.40s", key);
            return gj_fail_field(e, quoted, "unknown field; expected only %s", expected);
        }
    }
    return 0;
}

int jin_required_keys(const json_t *root, const char *const *keys, gj_error *e)
{
    for (size_t k = 0; keys[k] != NULL; k++)
        if (keys[k][0] != '?' && json_object_get(root, keys[k]) == NULL)
            return gj_fail_field(e, keys[k], "missing required field");
    return 0;
}

/* Every key of root is listed in keys and every listed key without '?' is in
 * root: 0, or -1 with *e naming the first that is not. */
static int check_keys(json_t *root, const char *const *keys, gj_error *e)
{
    if (jin_known_keys(root, keys, e) != 0)
        return -1;
    return jin_required_keys(root, keys, e);
}

/* The error of a body jansson refused (json_in.h). */
int jin_fail_json(const json_error_t *jerr, gj_error *e)
{
    /* jansson names its own flag here; say what the caller can fix. */
    const char *why = strstr(jerr->text, "JSON_ALLOW_NUL") != NULL
                          ? "a string holds \\u0000, which no position allows"
                          : jerr->text;
    gj_fail(e, GJ_BAD_INPUT, "invalid JSON at line %d, column %d: %s", jerr->line, jerr->column,
            why);
    e->line = jerr->line > 0 ? jerr->line : 0;
    e->column = jerr->column > 0 ? jerr->column : 0;
    return -1;
}

/* jin_fail_json for the loaders: always NULL. */
static json_t *fail_json(const json_error_t *jerr, gj_error *e)
{
    jin_fail_json(jerr, e);
    return NULL;
}

/* root (taken) checked as jin_load_object says: root, or NULL with *e. */
static json_t *checked_object(json_t *root, const char *const *keys, gj_error *e)
{
    if (!json_is_object(root)) {
        gj_fail(e, GJ_BAD_INPUT, "the JSON body must be an object, found %s", type_name(root));
        json_decref(root);
        return NULL;
    }
    if (keys != NULL && check_keys(root, keys, e) != 0) {
        json_decref(root);
        return NULL;
    }
    return root;
}

/* json_loadb, its tree counted against the thread's grant (grant.h) as
 * it is built: the tree; or NULL with *jerr, *e cleared; or NULL with *e
 * the grant's refusal. */
static json_t *counted_load(const char *buf, size_t len, size_t flags, json_error_t *jerr,
                            gj_error *e)
{
    gj_error_clear(e);
    gj_grant_parse_begin();
    json_t *v = json_loadb(buf, len, flags, jerr);
    if (gj_grant_parse_end(e) == 0)
        return v;
    json_decref(v);
    return NULL;
}

/* Parse and check one JSON object (json_in.h). */
json_t *jin_load_object(const char *buf, size_t len, const char *const *keys, gj_error *e)
{
    json_error_t jerr;
    json_t *root = counted_load(buf, len, JSON_REJECT_DUPLICATES, &jerr, e);
    if (root == NULL && e->kind != GJ_OK)
        return NULL;
    if (root == NULL)
        return fail_json(&jerr, e);
    return checked_object(root, keys, e);
}

/* What an element jansson refused holds, in our words (jansson's text
 * when it is none of those). */
static const char *refusal(const char *text)
{
    static const struct {
        const char *jansson, *ours;
    } names[] = {
        {"too big integer", "an integer beyond 64 bits"},
        {"too big negative integer", "an integer beyond 64 bits"},
        {"real number overflow", "a number beyond the range of a double"},
        {"NUL byte in object key", "a key holding \\u0000"},
        {"JSON_ALLOW_NUL", "a string holding \\u0000"},
        {"maximum parsing depth", "arrays and objects nested over 2048 deep"},
        {"duplicate object key", "a key given twice"},
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strstr(text, names[k].jansson) != NULL)
            return names[k].ours;
    return text;
}

/* The envelope of buf with the array `whole` emptied, loaded and checked as
 * jin_load_object does: each character inside the brackets becomes one
 * blank and each line feed stays, so every line and column jansson names
 * is the body's own.  NULL with *e. */
static json_t *load_blanked(const char *buf, size_t len, const jscan_span *whole,
                            const char *const *keys, gj_error *e)
{
    char *copy = malloc(len);
    if (copy == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    size_t o = whole->begin + 1; /* up to the '[' */
    memcpy(copy, buf, o);
    for (size_t i = o; i + 1 < whole->end; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == '\n')
            copy[o++] = '\n';
        else if ((c & 0xc0) != 0x80) /* a UTF-8 continuation byte is no column */
            copy[o++] = ' ';
    }
    memcpy(copy + o, buf + whole->end - 1, len - (whole->end - 1)); /* from the ']' */
    o += len - (whole->end - 1);
    json_t *root = jin_load_object(copy, o, keys, e);
    free(copy);
    return root;
}

/* Move the cursor (*at, on *line, *col characters into it) to byte `to`,
 * counting as jansson does: a line feed starts a line, a character is one
 * column whatever its UTF-8 length. */
static void advance(const char *buf, size_t to, size_t *at, long *line, long *col)
{
    for (; *at < to; (*at)++) {
        unsigned char c = (unsigned char)buf[*at];
        if (c == '\n') {
            (*line)++;
            *col = 0;
        } else if ((c & 0xc0) != 0x80) {
            (*col)++;
        }
    }
}

/* Append each element of a to `array`, each loaded alone; one jansson
 * refuses is appended as null and noted in *refused.  0, or -1 with *e
 * when memory is short. */
static int load_elements(const char *buf, const jscan_array *a, json_t *array,
                         jin_refused **refused, size_t *nrefused, gj_error *e)
{
    size_t at = 0;
    long line = 1, col = 0;
    for (size_t k = 0; k < a->n; k++) {
        const jscan_span *sp = &a->elems[k];
        json_error_t jerr;
        json_t *v = counted_load(buf + sp->begin, sp->end - sp->begin,
                                 JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr, e);
        if (v == NULL && e->kind != GJ_OK)
            return -1;
        if (v == NULL) {
            jin_refused *more = realloc(*refused, (*nrefused + 1) * sizeof *more);
            if (more == NULL)
                return gj_fail_nomem(e);
            *refused = more;
            jin_refused *r = &more[(*nrefused)++];
            advance(buf, sp->begin, &at, &line, &col);
            r->index = k;
            r->line = jerr.line > 0 ? line + jerr.line - 1 : line;
            r->column = jerr.line == 1 ? col + jerr.column : jerr.line > 1 ? jerr.column : col + 1;
            snprintf(r->what, sizeof r->what, "%s", refusal(jerr.text));
            v = json_null();
        }
        if (json_array_append_new(array, v) != 0)
            return gj_fail_nomem(e);
    }
    return 0;
}

/* jin_load_object, with one array member's elements read one by one
 * (json_in.h). */
json_t *jin_load_envelope(const char *buf, size_t len, const char *const *keys, const char *member,
                          jin_refused **refused, size_t *nrefused, gj_error *e)
{
    *refused = NULL;
    *nrefused = 0;
    json_error_t jerr;
    json_t *root = counted_load(buf, len, JSON_REJECT_DUPLICATES, &jerr, e);
    if (root != NULL)
        return checked_object(root, keys, e);
    if (e->kind != GJ_OK) /* the grant refused its tree */
        return NULL;
    /* Is it JSON all the same, refused inside the member's array? */
    jscan_array a;
    jscan_result found = jscan_member_array(buf, len, member, &a);
    if (found == JSCAN_NOMEM) {
        gj_fail_nomem(e);
        return NULL;
    }
    if (found != JSCAN_FOUND)
        return fail_json(&jerr, e);
    root = load_blanked(buf, len, &a.whole, keys, e);
    if (root != NULL &&
        load_elements(buf, &a, json_object_get(root, member), refused, nrefused, e) != 0) {
        json_decref(root);
        root = NULL;
    }
    jscan_array_free(&a);
    if (root == NULL) {
        free(*refused);
        *refused = NULL;
        *nrefused = 0;
    }
    return root;
}

int jin_array(const json_t *v, const char *name, long i, size_t lo, size_t hi, gj_error *e)
{
    if (!json_is_array(v))
        return fail_type(v, name, i, -1, "an array", e);
    size_t n = json_array_size(v);
    if (n < lo || n > hi) {
        char field[sizeof e->field];
        jin_field_name(field, sizeof field, name, i, -1);
        return gj_fail_field(e, field, "expected %zu to %zu elements, found %zu", lo, hi, n);
    }
    return 0;
}

int jin_long(const json_t *v, const char *name, long i, long j, long lo, long hi, long *out,
             gj_error *e)
{
    if (!json_is_integer(v))
        return fail_type(v, name, i, j, "an integer", e);
    json_int_t x = json_integer_value(v);
    if (x < lo || x > hi) {
        char field[sizeof e->field];
        jin_field_name(field, sizeof field, name, i, j);
        return gj_fail_field(e, field, "must be between %ld and %ld, found %lld", lo, hi,
                             (long long)x);
    }
    *out = (long)x;
    return 0;
}

int jin_string(const json_t *v, const char *name, long i, const char **s, size_t *len, gj_error *e)
{
    if (!json_is_string(v))
        return fail_type(v, name, i, -1, "a string", e);
    *s = json_string_value(v);
    *len = json_string_length(v);
    return 0;
}

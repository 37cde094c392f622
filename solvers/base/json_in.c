/* json_in.c - jansson wrappers that turn type and range mistakes into
 * gj_error messages naming the field. */
#include "json_in.h"

#include <stdio.h>
#include <string.h>

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

/* Every key of root is listed in keys and every listed key without '?' is in
 * root: 0, or -1 with *e naming the first that is not. */
static int check_keys(json_t *root, const char *const *keys, gj_error *e)
{
    if (jin_known_keys(root, keys, e) != 0)
        return -1;
    for (size_t k = 0; keys[k] != NULL; k++)
        if (keys[k][0] != '?' && json_object_get(root, keys[k]) == NULL)
            return gj_fail_field(e, keys[k], "missing required field");
    return 0;
}

json_t *jin_load_object(const char *buf, size_t len, const char *const *keys, gj_error *e)
{
    json_error_t jerr;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        /* jansson names its own flag here; say what the caller can fix. */
        const char *why = strstr(jerr.text, "JSON_ALLOW_NUL") != NULL
                              ? "a string holds \\u0000, which no position allows"
                              : jerr.text;
        gj_fail(e, GJ_BAD_INPUT, "invalid JSON at line %d, column %d: %s", jerr.line, jerr.column,
                why);
        e->line = jerr.line > 0 ? jerr.line : 0;
        e->column = jerr.column > 0 ? jerr.column : 0;
        return NULL;
    }
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

/* json_in.h - reading the JSON twin of a position with jansson.
 *
 * Every helper names the offending field in its error ("matrix[2][0]: ...").
 * Field names are built only when an error happens, so the helpers cost
 * nothing extra on the millions of values of a large matrix.  An index below
 * zero means "no index". */
#ifndef GJ_JSON_IN_H
#define GJ_JSON_IN_H

#include <stddef.h>

#include <jansson.h>

#include "error.h"

/* Parse `buf` as one JSON object.  Every key must be listed in `keys`
 * (NULL-terminated) and every listed key must be present, except those
 * listed as "?name", which are optional; keys NULL takes any key (a
 * wrapper that reads its own members first).  Duplicate keys,
 * trailing bytes and invalid UTF-8 are errors.  The caller json_decref()s.
 * The tree is counted as it is built against the thread's grant (grant.h):
 * when the grant refuses it, the error is the grant's. */
json_t *jin_load_object(const char *buf, size_t len, const char *const *keys, gj_error *e);

/* The error jin_load_object gives for a body jansson refused with *jerr:
 * "invalid JSON at line L, column C: why" (jansson's text, but for its
 * \u0000 one, reworded for the caller), e->line and e->column set.  -1. */
int jin_fail_json(const json_error_t *jerr, gj_error *e);

/* An element of an envelope's array that jansson refused though the body
 * is JSON (json_scan.h says which texts those are). */
typedef struct jin_refused {
    size_t index;      /* the element's index in the array */
    long line, column; /* where in the body jansson stopped, as it counts */
    char what[160];    /* what the element holds: "an integer beyond 64 bits", ... */
} jin_refused;

/* jin_load_object for an envelope whose array member `member` holds items
 * to be answered one by one (a /batch's items, a test set's cases): where
 * jansson refuses the body but it is JSON (json_scan.h) and jansson takes
 * the envelope with that array emptied, each element is loaded alone, and
 * one jansson refuses is left as null in the array and noted in *refused
 * (malloc'd, *nrefused entries by index; the caller frees it), so only
 * that item fails.  A body that is not JSON, or whose envelope jansson
 * refuses, is the error jin_load_object gives, with its line and column. */
json_t *jin_load_envelope(const char *buf, size_t len, const char *const *keys, const char *member,
                          jin_refused **refused, size_t *nrefused, gj_error *e);

/* Every member of root is listed in `keys` (as jin_load_object takes them;
 * whether a key is required is not checked here): 0, or -1 with *e naming
 * the first member that is not and listing every key, so a wrapper that
 * reads members of its own beside a game's can name exactly the fields its
 * endpoint takes. */
int jin_known_keys(const json_t *root, const char *const *keys, gj_error *e);
/* Every key of `keys` without '?' is in root: 0, or -1 with *e naming the
 * first missing ("missing required field"), as jin_load_object says it. */
int jin_required_keys(const json_t *root, const char *const *keys, gj_error *e);

/* `v` (field name[i]) must be an array with lo..hi elements. */
int jin_array(const json_t *v, const char *name, long i, size_t lo, size_t hi, gj_error *e);

/* `v` (field name[i][j]) must be an integer in [lo, hi]. */
int jin_long(const json_t *v, const char *name, long i, long j, long lo, long hi, long *out,
             gj_error *e);

/* `v` (field name[i]) must be a string; *s and *len point into it. */
int jin_string(const json_t *v, const char *name, long i, const char **s, size_t *len, gj_error *e);

/* Write "name", "name[i]" or "name[i][j]" into out. */
void jin_field_name(char *out, size_t cap, const char *name, long i, long j);

#endif

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
 * trailing bytes and invalid UTF-8 are errors.  The caller json_decref()s. */
json_t *jin_load_object(const char *buf, size_t len, const char *const *keys, gj_error *e);

/* Every member of root is listed in `keys` (as jin_load_object takes them;
 * whether a key is required is not checked here): 0, or -1 with *e naming
 * the first member that is not and listing every key, so a wrapper that
 * reads members of its own beside a game's can name exactly the fields its
 * endpoint takes. */
int jin_known_keys(const json_t *root, const char *const *keys, gj_error *e);

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

/* api_keys.h - the API keys file (--api-keys) and key look-up.
 *
 * One key a line: `KEY RATE_MS BURST_MS` (the key's own quota: worker
 * milliseconds per second and the bucket's size), blank lines and lines
 * starting with '#' skipped.  A key is 16 to 128 bytes of letters, digits
 * and "-._~+/=".  A key is never logged or echoed; it is named by its
 * place in the file ("key#3": the third key), which says nothing of it.
 * Look-ups compare the given key with every key, in time that does not
 * depend on where they differ. */
#ifndef GJ_API_KEYS_H
#define GJ_API_KEYS_H

#include <stddef.h>

#include "error.h"

#define API_KEY_MAX 128

typedef struct gj_api_keys gj_api_keys;

/* Read the file: the keys, or NULL with *e naming the file and line. */
gj_api_keys *api_keys_load(const char *path, gj_error *e);
void api_keys_free(gj_api_keys *k);

/* Parse the file's text (len bytes; `path` names it in errors): as above. */
gj_api_keys *api_keys_parse(const char *text, size_t len, const char *path, gj_error *e);

size_t api_keys_count(const gj_api_keys *k);

/* The 0-based index of the key `given` (a header value: blanks before and
 * after it are not part of it), its rate and burst in *rate_ms and
 * *burst_ms; -1 when no key matches. */
int api_keys_find(const gj_api_keys *k, const char *given, double *rate_ms, double *burst_ms);

#endif

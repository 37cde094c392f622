/* http_error.h - the one place an error becomes an HTTP status and JSON body.
 *
 * An error is a gj_error (error.h) from end to end; its kind is the API
 * code.  Body: {"error":{"code":"...","message":"...","line":L,"column":C,
 * "field":"...","request_id":"..."}} with line, column and field present
 * only when they apply. */
#ifndef GJ_HTTP_ERROR_H
#define GJ_HTTP_ERROR_H

#include <stddef.h>

#include <jansson.h>

#include "error.h"

/* The HTTP status of an error kind (200 for GJ_OK). */
int http_error_status(gj_error_kind kind);
/* The API's code for an error kind, e.g. "bad_input". */
const char *http_error_code(gj_error_kind kind);

/* The most statuses http_error_statuses lists. */
#define HTTP_STATUSES_MAX (GJ_ERROR_KINDS + 3)

/* Every status an answer can have, ascending and each once, into out (at
 * most cap): those of the error kinds, from the one table, and those of
 * answers that are no error (200, a preflight's 204, a 304).  Returns how
 * many; the metrics' request series are these. */
size_t http_error_statuses(int *out, size_t cap);

/* The Retry-After value an answer of `status` carries, or NULL: a 503
 * (overloaded, or /readyz while draining) is worth retrying in a second. */
const char *http_error_retry_after(int status);

/* The inner {"code":...} object (a batch item's error); NULL when memory
 * is short.  The caller owns the reference. */
json_t *http_error_object(const gj_error *e, const char *request_id);

/* A malloc'd JSON body for e (its code, message and place), or NULL when
 * memory is short. */
char *http_error_render(const gj_error *e, const char *request_id, size_t *len);

#endif

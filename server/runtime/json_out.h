/* json_out.h - appending a jansson value to a gj_buf.
 *
 * The server writes most answers with the buffer and a few pieces (a
 * string to escape, an error object, a judge verdict) with jansson; this
 * joins the two, so a failure anywhere shows in out->failed as for every
 * other append. */
#ifndef GJ_JSON_OUT_H
#define GJ_JSON_OUT_H

#include <jansson.h>

#include "buf.h"

/* Append v serialised with jansson's `flags` and release the reference to
 * v (which may be NULL: an allocation that failed). */
void json_out_append(gj_buf *out, json_t *v, size_t flags);

#endif

/* media.h - content negotiation for solve requests.
 *
 * The request body is judge text unless Content-Type says JSON; the answer
 * is JSON unless `?format=text` or an Accept header that prefers text/plain
 * asks for the judge output.  Pure functions over header strings. */
#ifndef GJ_MEDIA_H
#define GJ_MEDIA_H

#include "error.h"

typedef enum media_kind { MEDIA_TEXT, MEDIA_JSON } media_kind;

/* The body kind a Content-Type (NULL = none) announces; -1 when it is none
 * of text/plain, application/x-www-form-urlencoded, application/json. */
int media_input(const char *content_type, media_kind *out);

/* The answer kind for a `format` query value (NULL = absent) and an Accept
 * header (NULL = absent).  -1 with *e filled for a bad `format`. */
int media_output(const char *format, const char *accept, media_kind *out, gj_error *e);

/* The accepted request content types, for the 415 message. */
extern const char media_accepted_inputs[];

#endif

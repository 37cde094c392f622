/* query.h - the query string of a GET solve or analyze, decoded strictly
 * into the body the POST form would carry.
 *
 * The query is application/x-www-form-urlencoded with no leniency: '+' is a
 * space, %XX (two hex digits) is the byte XX, and any other '%' is an error
 * naming the parameter; the pieces between '&' are NAME=VALUE (a bare NAME
 * has an empty value, empty pieces are skipped).  Every name must be one the
 * route takes and appear once; anything else is a 400 naming it, since a
 * misspelt parameter silently ignored would answer another question.
 *
 *   GET /solve/{game}    input=<judge text> | position=<JSON twin>, format=
 *   GET /analyze/{game}  request=<the JSON request of POST /analyze>, format=
 *   GET /puzzle/{game}   any NAME=VALUE (QUERY_PARAMS): a JSON object of the
 *                        parameters, a value that is a JSON number, true,
 *                        false or an array taken as such, any other a
 *                        string; the handler names the ones it refuses
 *
 * Pure functions over bytes (no HTTP), so the fuzz target drives them. */
#ifndef GJ_QUERY_H
#define GJ_QUERY_H

#include <stddef.h>

#include "error.h"
#include "media.h"

/* Which GET form a route takes; QUERY_NONE: GET carries no body there. */
typedef enum query_route { QUERY_NONE, QUERY_SOLVE, QUERY_ANALYZE, QUERY_PARAMS } query_route;

/* A decoded request: the body of the equivalent POST and its media. */
typedef struct query_request {
    char *body; /* malloc'd, NUL-terminated (the NUL is not part of len) */
    size_t len;
    media_kind input; /* MEDIA_TEXT for input=, MEDIA_JSON for position= and request= */
} query_request;

/* Decode the raw query (len bytes after '?', not NUL-terminated) for the
 * route into *out: 0, or -1 with *e (GJ_BAD_INPUT, the parameter in
 * e->field, or GJ_NO_MEMORY) and nothing to free. */
int query_request_decode(query_route route, const char *raw, size_t len, query_request *out,
                         gj_error *e);

/* Free what query_request_decode filled. */
void query_request_free(query_request *r);

/* Decode one form-urlencoded component in place: '+' to space, %XX to its
 * byte.  The new length, or -1 at the first bad escape with *bad_at its
 * offset in the component. */
long query_unescape(char *s, size_t len, size_t *bad_at);

#endif

/* query.h - a request's query string, decoded strictly: checked against
 * the names its route reads, and for a GET solve, analysis or puzzle
 * turned into the body the POST form would carry.
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
 *                        string (and "theme", a comma-separated list of
 *                        names, and "player", a player's id, always a
 *                        string); the handler names the ones it refuses;
 *                        likewise GET /puzzle/{game}/next and the players'
 *                        pages
 *   any other request    format= only: a POST carries the rest in its body,
 *                        and the pages (GET /games, /healthz, ...) and a
 *                        puzzle's picture read no other parameter (decoded:
 *                        an empty body)
 *
 * query_check holds every request to that rule where it is first seen, so
 * `?format=json&format=json` and `POST /solve?input=...` are refused too.
 * The playground (GET /) and GET /docs are the exception, not checked at
 * all: a browser opens them from links, which may carry tracking
 * parameters (their rows' lenient_query, router.h).
 *
 * Pure functions over bytes (no HTTP), so the fuzz target drives them. */
#ifndef GJ_QUERY_H
#define GJ_QUERY_H

#include <stddef.h>

#include "error.h"
#include "media.h"

/* Which GET form a route takes; QUERY_NONE: GET carries no body there
 * (and query_check: the request reads only format).  QUERY_BODY is no
 * row's: query_check's form for a POST, which reads only format too, and
 * says the rest goes in the body. */
typedef enum query_route {
    QUERY_NONE,
    QUERY_SOLVE,
    QUERY_ANALYZE,
    QUERY_PARAMS,
    QUERY_BODY
} query_route;

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

/* Check the raw query (len bytes after '?', not NUL-terminated) against
 * the names the route form reads (the table above; QUERY_NONE and
 * QUERY_BODY: format only, QUERY_PARAMS: any name), each name and value
 * decoded strictly: 0, or -1 with *e (GJ_BAD_INPUT naming in e->field the
 * first parameter that is unread, given twice or malformed, or
 * GJ_NO_MEMORY).  Its values are not kept: the route reads them itself. */
int query_check(query_route route, const char *raw, size_t len, gj_error *e);

/* Free what query_request_decode filled. */
void query_request_free(query_request *r);

/* Decode one form-urlencoded component in place: '+' to space, %XX to its
 * byte.  The new length, or -1 at the first bad escape with *bad_at its
 * offset in the component. */
long query_unescape(char *s, size_t len, size_t *bad_at);

#endif

/* error.h - the one error value every layer returns.
 *
 * A failing function fills a gj_error and returns -1 (or NULL).  The error
 * carries its kind, which is the API's error code (the solvers use GJ_BAD_INPUT,
 * GJ_CANCELLED, GJ_UNMET and the last two), an optional position in the caller's input
 * (judge-text line and column, or a JSON field path) and one sentence a
 * person can act on.  The same value travels from the solver to the HTTP
 * answer unchanged; only server/http/http_error.c turns a kind into a status. */
#ifndef GJ_ERROR_H
#define GJ_ERROR_H

#include <stddef.h>

typedef enum gj_error_kind {
    GJ_OK = 0,
    GJ_BAD_INPUT,    /* the caller sent something wrong: bad_input, exit status 2 */
    GJ_UNKNOWN_GAME, /* a path or item names no game: unknown_game */
    GJ_NOT_FOUND,    /* no such path: not_found */
    GJ_BAD_METHOD,   /* the path takes other methods: method_not_allowed */
    GJ_TOO_LARGE,    /* the body is over --max-body: too_large */
    GJ_UNSUPPORTED,  /* a content type not accepted: unsupported_media_type */
    GJ_OVERLOADED,   /* no worker or queue place in time: overloaded */
    GJ_CANCELLED,    /* the solve was stopped (cancel.h): client gone or deadline: overloaded */
    GJ_RATE_LIMITED, /* the client is over its quota: rate_limited */
    GJ_UNMET,        /* valid, but what was asked cannot be had in time: unprocessable */
    GJ_URI_TOO_LONG, /* a query past the configured bound: uri_too_long */
    GJ_UNAUTHORIZED, /* an API key that is not configured: unauthorized */
    GJ_PRECONDITION, /* a POST's If-None-Match matched its answer: precondition_failed */
    GJ_UNAVAILABLE,  /* the puzzle store cannot be used now (down, full, read-only): unavailable */
    GJ_CONFLICT,     /* an Idempotency-Key already named another request: conflict */
    GJ_NO_MEMORY,    /* an allocation failed: internal */
    GJ_INTERNAL,     /* a broken invariant: internal */
    GJ_ERROR_KINDS   /* how many kinds there are; not a kind */
} gj_error_kind;

typedef struct gj_error {
    gj_error_kind kind;
    long line;         /* 1-based judge-text line, 0 when it does not apply */
    long column;       /* 1-based byte column on that line, 0 when unknown */
    char field[96];    /* JSON path such as "matrix[2][0]", "" when none */
    char message[384]; /* complete sentence, already prefixed with the place */
} gj_error;

/* No error: GJ_OK, no place, empty strings (the bytes past them are not
 * cleared: read e->field and e->message as strings only). */
void gj_error_clear(gj_error *e);

/* Each of these fills *e and returns -1 so a caller can write
 * `return gj_fail(e, ...);`.  The message is formatted printf-style. */
int gj_fail(gj_error *e, gj_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "line L, column C: ..." (column 0 leaves it out). */
int gj_fail_at(gj_error *e, long line, long column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "FIELD: ..." for JSON input. */
int gj_fail_field(gj_error *e, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int gj_fail_nomem(gj_error *e);

/* What a check for a repeated value found.  GJ_REPEAT_FAILED is -1 with *e
 * filled, as above, so `!= GJ_NO_REPEAT` reads "stop here". */
typedef enum gj_repeat {
    GJ_REPEAT_FAILED = -1,
    GJ_NO_REPEAT = 0,
    GJ_REPEAT_FOUND = 1,
} gj_repeat;

#endif

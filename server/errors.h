/* errors.h - the one place an error becomes an HTTP status and JSON body.
 *
 * Body: {"error":{"code":"...","message":"...","line":L,"column":C,
 * "field":"...","request_id":"..."}} with line, column and field present
 * only when they apply. */
#ifndef GJ_ERRORS_H
#define GJ_ERRORS_H

#include <stddef.h>

#include <jansson.h>

#include "error.h"

typedef enum api_error {
    API_BAD_INPUT,    /* 400 bad_input */
    API_UNKNOWN_GAME, /* 404 unknown_game */
    API_NOT_FOUND,    /* 404 not_found */
    API_BAD_METHOD,   /* 405 method_not_allowed */
    API_TOO_LARGE,    /* 413 too_large */
    API_UNSUPPORTED,  /* 415 unsupported_media_type */
    API_OVERLOADED,   /* 503 overloaded */
    API_INTERNAL,     /* 500 internal */
} api_error;

/* The API error a solver error kind maps to. */
api_error errors_from_kind(gj_error_kind kind);

int errors_status(api_error which);
const char *errors_code(api_error which);

/* The inner {"code":...} object (a batch item's error); NULL when memory
 * is short.  The caller owns the reference. */
json_t *errors_object(api_error which, const gj_error *detail, const char *request_id);

/* A malloc'd JSON body for `which` with detail->message (and its place),
 * or NULL when memory is short. */
char *errors_render(api_error which, const gj_error *detail, const char *request_id, size_t *len);

#endif
